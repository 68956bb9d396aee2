"""Cards in text: pictures when the bot has them, text where pictures would pass a limit."""

from __future__ import annotations

from bot.render.card_text import as_text, fitting, shown
from tests.bot.render.pictures import MARKUP, card_pictures


def test_a_part_too_long_with_pictures_is_written_as_text_whole() -> None:
    hand = ["QS", "10H", "2D", "AC"] * 20
    with card_pictures():
        short = fitting(lambda: " ".join(shown(c) for c in hand[:4]), 1024)
        assert short == " ".join(MARKUP[c] for c in hand[:4])
        long = fitting(lambda: " ".join(shown(c) for c in hand), 1024)
        assert long == " ".join(["Q♠", "10♥", "2♦", "A♣"] * 20)
        assert shown("QS") == MARKUP["QS"]  # only that part was text


def test_as_text_writes_cards_as_text_within_its_block_only() -> None:
    with card_pictures():
        with as_text():
            assert shown("KH") == "K♥"
        assert shown("KH") == MARKUP["KH"]
