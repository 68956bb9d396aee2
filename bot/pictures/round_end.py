"""The picture of a round's end: one row per player with their name, every card face up,
the round's points and the match total.

It is drawn from `RoundEndRow`s that the renderer builds from the *public* view of the
finished round, in which the engine has turned every card face up: so the picture shows what
the round's end makes public and nothing else. The card names drawn are also written into the
PNG (text chunk `cards`), so a test can check a picture without reading pixels.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from bot.pictures.card_faces import TWO_COLOURS, Deck, face_image, font, png_with

CARD = 72  # drawn size of one card in the picture
GAP = 6
MARGIN = 16
NAME_WIDTH = 190
SCORE_WIDTH = 150
ROW = CARD + 2 * GAP
BACKGROUND = (43, 45, 49, 255)
TEXT = (235, 235, 235, 255)
DIM = (170, 170, 170, 255)
CARDS_KEY = "cards"
NAME_LIMIT = 32
NAME_SIZE = 24


@cache
def small_face(name: str, deck: Deck = TWO_COLOURS) -> Image.Image:
    return face_image(name, deck).resize((CARD, CARD), Image.Resampling.LANCZOS)


WRAP = 16  # cards in a line: a longer row (a big hand, a big pack) goes on below


@dataclass(frozen=True, slots=True)
class RoundEndRow:
    """A row: a name (a player, a team's pack), its cards face up, and on the right the
    round's points and the match total, or `note` instead (a pack's points, "not counted")."""

    name: str
    cards: tuple[str, ...]  # face-up card names, in slot order (empty slots left out)
    points: int | None
    total: int | None
    note: str = ""


def _short(name: str) -> str:
    """The name, cut to fit its column."""
    face = font(NAME_SIZE, text=True)
    fits = name[:NAME_LIMIT]
    while fits and face.getlength(fits + ("…" if fits != name else "")) > NAME_WIDTH - GAP * 2:
        fits = fits[:-1]
    return fits if fits == name else fits + "…"


def round_end_png(
    rows: Sequence[RoundEndRow],
    points_label: str,
    total_label: str,
    deck: Deck = TWO_COLOURS,
) -> bytes:
    """The picture as PNG bytes, the faces in the deck's colours (call it off the event loop:
    it takes milliseconds)."""
    lines = [(row, row.cards[start : start + WRAP]) for row in rows for start in _starts(row)]
    most = max((len(cards) for _, cards in lines), default=0)
    width = MARGIN * 2 + NAME_WIDTH + max(most, 1) * (CARD + GAP) + SCORE_WIDTH
    height = MARGIN * 2 + max(len(lines), 1) * ROW
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    drawn: list[str] = []
    first: RoundEndRow | None = None
    for index, (row, cards) in enumerate(lines):
        top = MARGIN + index * ROW
        middle = top + ROW // 2
        for position, name in enumerate(cards):
            card = small_face(name, deck)
            left = MARGIN + NAME_WIDTH + position * (CARD + GAP)
            image.alpha_composite(card, (left, top + GAP))
            drawn.append(name)
        if row is first:
            continue  # a row's next line: its cards only
        first = row
        face = font(NAME_SIZE, text=True)
        draw.text((MARGIN, middle), _short(row.name), TEXT, face, anchor="lm")
        right = width - MARGIN
        if row.points is None or row.total is None:
            draw.text((right, middle), row.note, TEXT, font(20, text=True), anchor="rm")
            continue
        points = f"{points_label} {row.points:+d}"
        draw.text((right, middle - 14), points, TEXT, font(22, text=True), anchor="rm")
        total = f"{total_label} {row.total}"
        draw.text((right, middle + 16), total, DIM, font(18, text=True), anchor="rm")
    info = PngInfo()
    info.add_text(CARDS_KEY, " ".join(drawn))
    return png_with(image, info, optimize=False)  # a one-off picture: speed over bytes


def _starts(row: RoundEndRow) -> range:
    """Where each line of a row starts in its cards (one line for a row of no card)."""
    return range(0, max(len(row.cards), 1), WRAP)


def cards_in(picture: bytes) -> list[str]:
    """The card names a round-end picture shows (read back from its text chunk)."""
    with Image.open(io.BytesIO(picture)) as image:
        image.load()
        return str(image.text.get(CARDS_KEY, "")).split()  # type: ignore[attr-defined]
