"""The card pictures read on a phone: shown at the message's width in a 420-pixel-wide window
(`PHONE_SHOWN`), a card of the biggest hand of every game is at least 40 pixels wide, a Dame
hand of 13 ranks takes three lines at most, and the table and round-end pictures keep their
cards and words legible (a picture is scaled to the message's width, so what counts is a
card's share of the picture's width)."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.games.dame import render as dame
from bot.games.dutch import render as dutch
from bot.games.euchre import render as euchre
from bot.games.plugin import TableContext
from bot.pictures.layout import (
    CAPTION_SIZE,
    CARD,
    GAP,
    LABEL_SIZE,
    MARGIN,
    NOTE_SIZE,
    PHONE_SHOWN,
    CardPicture,
    CardRow,
    card_height,
    card_width,
    heading_words,
)
from bot.pictures.round_end import RoundEndRow, round_end_png
from games.contract import RoundSetup
from games.dame.views import PackView
from games.dutch.views import SlotView
from games.euchre import GAME as EUCHRE
from tests.bot.render.snapshots import new_round
from tests.games.dame.stacking import stacked_round

SMALLEST_CARD = 40  # px, a card shown on a phone
SMALLEST_TEXT = 12  # px, a word shown on a phone (Discord's own smallest text)
NATURALS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _width(png: bytes) -> int:
    with Image.open(io.BytesIO(png)) as image:
        return image.width


def _shown_card(rows: tuple[CardRow, ...]) -> float:
    """A card's width once the picture of these rows is scaled to a phone's message width."""
    return card_width(card_height(rows)) * PHONE_SHOWN / _width(CardPicture("hand", rows).png())


def _dame_view(**changes: Any) -> Any:
    return replace(stacked_round({}).view(0), **changes)


def _dutch_view(slots: int) -> Any:
    view = new_round(n_seats=4).public_view()
    grid = tuple(SlotView(slot, False, None) for slot in range(1, slots + 1))
    return replace(view, grids=(grid,) * 4)


def _euchre_view(hand: tuple[str, ...], discard: str | None) -> Any:
    round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed=1)
    return replace(round_.view(0), hand=hand, discard=discard)


THIRTEEN_RANKS = (*(f"{rank}S" for rank in NATURALS), "2H", "JK")
FORTY_CARDS = (*(f"{rank}{suit}" for rank in NATURALS for suit in "SHD"), "2H", "2C", "JK", "JK")
HANDS = {
    "dame, 13 ranks": lambda: dame.hand_rows(_dame_view(hand=THIRTEEN_RANKS), "en"),
    "dame, 40 cards": lambda: dame.hand_rows(_dame_view(hand=FORTY_CARDS), "en"),
    "dutch, 10 slots and a card held": lambda: dutch.hand_rows(
        "Ann", [SlotView(s, False, "7D") for s in range(1, 11)], "KS", "en"
    ),
    "euchre, 5 cards and a discard": lambda: euchre.hand_rows(
        _euchre_view(("AS", "KS", "QS", "JS", "10H"), "9D"), "en"
    ),
}


@pytest.mark.parametrize("hand", HANDS)
def test_a_card_of_the_biggest_hand_of_each_game_shows_40_px_wide_at_a_phone_s_width(
    hand: str,
) -> None:
    assert _shown_card(HANDS[hand]()) >= SMALLEST_CARD


def test_a_dame_hand_of_thirteen_ranks_fits_in_three_lines_in_the_order_of_its_moves() -> None:
    rows = dame.hand_rows(_dame_view(hand=THIRTEEN_RANKS), "en")
    assert [row.cards for row in rows] == [*((f"{r}S",) for r in NATURALS), ("2H", "JK")]
    with Image.open(io.BytesIO(CardPicture("hand", rows).png())) as image:
        assert image.height <= 2 * MARGIN + 3 * (CARD + 2 * GAP)


def _words(rows: tuple[CardRow, ...]) -> int:
    """The smallest words a picture of these rows writes, in px of the picture."""
    if any(row.flow for row in rows):
        return CAPTION_SIZE
    return NOTE_SIZE if any(row.note or row.captions for row in rows) else LABEL_SIZE


def _many_packs(language: str) -> tuple[CardRow, ...]:
    packs = tuple(
        PackView(rank, (f"{rank}S", f"{rank}H", f"{rank}D", f"{rank}C", "2S", "JK"), 90)
        for rank in NATURALS[:6]
    )
    return dame.table_rows(_dame_view(packs=(packs, packs)), language)


def _euchre_trick() -> tuple[CardRow, ...]:
    round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed=1)
    view = replace(round_.public_view(), trump="S", trick=((0, "AS"), (1, "KS"), (2, "QS")))
    snapshot: Any = type("Snapshot", (), {"seats": ()})()
    return euchre.table_rows(view, TableContext(snapshot, "fr", (), ()))


TABLES = {
    "dame, six packs a team": lambda: _many_packs("fr"),
    "dutch, four grids of 4": lambda: dutch.table_rows(_dutch_view(4), ["Éloïse"] * 4, "fr"),
    "dutch, four grids of 5": lambda: dutch.table_rows(_dutch_view(5), ["Éloïse"] * 4, "fr"),
    "dutch, four grids of 8": lambda: dutch.table_rows(_dutch_view(8), ["Éloïse"] * 4, "fr"),
    "euchre, a trick": _euchre_trick,
}


@pytest.mark.parametrize("table", TABLES)
def test_a_table_picture_keeps_its_cards_and_words_legible_at_a_phone_s_width(table: str) -> None:
    rows = TABLES[table]()
    width = _width(CardPicture("table", rows).png())
    assert _shown_card(rows) >= SMALLEST_CARD
    assert _words(rows) * PHONE_SHOWN / width >= SMALLEST_TEXT


ROUND_ENDS = {
    "dutch, four grids of 8": (
        tuple(RoundEndRow("Éloïse", ("7D",) * 8, 40, 120) for _ in range(4)),
        CARD,
    ),
    "dame, hands and packs": (
        (
            RoundEndRow("Éloïse · Nord", (), None, None, "−320"),
            *(RoundEndRow("", (f"{r}S", f"{r}H"), None, None, pack=True) for r in NATURALS),
            RoundEndRow("N–S", (), None, None),
            *(
                RoundEndRow("", (f"{r}S",) * 7, None, None, "90 points", pack=True)
                for r in NATURALS
            ),
        ),
        CARD,
    ),
}


@pytest.mark.parametrize("end", ROUND_ENDS)
def test_a_round_end_picture_keeps_its_cards_and_words_legible_at_a_phone_s_width(
    end: str,
) -> None:
    rows, card = ROUND_ENDS[end]
    width = _width(round_end_png(rows, "manche", "total"))
    assert card_width(card) * PHONE_SHOWN / width >= SMALLEST_CARD
    assert CAPTION_SIZE * PHONE_SHOWN / width >= SMALLEST_TEXT


def test_a_round_end_heading_writes_the_points_and_total_whole_beside_the_name() -> None:
    rows = tuple(
        RoundEndRow(f"Bot {i} · E", ("KC", "JH", "QS", "QD", "9D"), 1, 1) for i in range(4)
    )
    width = _width(round_end_png(rows, "round", "total")) - 2 * MARGIN
    assert heading_words("Bot 1 · E", "round +1 · total 1", width) == (
        "Bot 1 · E",
        "round +1 · total 1",
    )
    name, note = heading_words("Éloïse" * 10, "round +1 · total 1", width)
    assert note == "round +1 · total 1" and name.endswith("…")
    # a Dutch grid of four cards: the narrowest picture, as wide as its longest heading
    dutch = (RoundEndRow("Alice", ("8D", "QH", "8H", "AH"), 25, 25),)
    width = _width(round_end_png(dutch, "round", "total")) - 2 * MARGIN
    assert heading_words("Alice", "round +25 · total 25", width)[1] == "round +25 · total 25"
    # every heading whole, the longest name included (its width rounded up, not down)
    names = ("Alice", "Bob", "Carol")
    rows = tuple(RoundEndRow(n, ("6D", "5S", "2S", "JK"), 30, 30) for n in names)
    width = _width(round_end_png(rows, "round", "total")) - 2 * MARGIN
    for name in names:
        assert heading_words(name, "round +30 · total 30", width) == (name, "round +30 · total 30")
