"""Cards in text: pictures when the bot has them, text where pictures would pass a limit."""

from __future__ import annotations

from bot.games.dame.render import pack_line
from bot.render.card_text import as_text, face, fitting, pretty, shown
from games.dame.views import PackView
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


def test_a_joker_written_as_text_is_a_word_never_the_joker_emoji() -> None:
    """Discord draws the 🃏 emoji as a picture unlike the joker's own: as text, with or
    without the bot's card pictures, the joker is written as a word, in every game's lines."""
    pack = PackView("7", ("7S", "7H", "JK", "JK#1"), 140)
    without = (pretty("JK"), face("JK"), shown("JK"), pack_line(pack, "en"), pack_line(pack, "fr"))
    with card_pictures(), as_text():
        forced = (shown("JK"), face("JK"), pack_line(pack, "en"))
    for line in (*without, *forced):
        assert "🃏" not in line and "Joker" in line, line
    assert pack_line(pack, "en") == "**7** pack (4 cards, 140 points): 7♠ 7♥ + *Joker Joker*"
    with card_pictures():
        assert shown("JK") == MARKUP["JK"]  # with pictures, the joker's own
