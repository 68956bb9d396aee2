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

from bot.pictures.cards import TWO_COLOURS, Deck, face_image, font, png_with

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


@dataclass(frozen=True, slots=True)
class RoundEndRow:
    name: str
    cards: tuple[str, ...]  # face-up card names, in slot order (empty slots left out)
    points: int
    total: int


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
    most = max((len(r.cards) for r in rows), default=0)
    width = MARGIN * 2 + NAME_WIDTH + max(most, 1) * (CARD + GAP) + SCORE_WIDTH
    height = MARGIN * 2 + max(len(rows), 1) * ROW
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    drawn: list[str] = []
    for index, row in enumerate(rows):
        top = MARGIN + index * ROW
        middle = top + ROW // 2
        draw.text((MARGIN, middle), _short(row.name), TEXT, font(NAME_SIZE, text=True), anchor="lm")
        for position, name in enumerate(row.cards):
            card = small_face(name, deck)
            left = MARGIN + NAME_WIDTH + position * (CARD + GAP)
            image.alpha_composite(card, (left, top + GAP))
            drawn.append(name)
        right = width - MARGIN
        points = f"{points_label} {row.points:+d}"
        draw.text((right, middle - 14), points, TEXT, font(22, text=True), anchor="rm")
        total = f"{total_label} {row.total}"
        draw.text((right, middle + 16), total, DIM, font(18, text=True), anchor="rm")
    info = PngInfo()
    info.add_text(CARDS_KEY, " ".join(drawn))
    return png_with(image, info, optimize=False)  # a one-off picture: speed over bytes


def cards_in(picture: bytes) -> list[str]:
    """The card names a round-end picture shows (read back from its text chunk)."""
    with Image.open(io.BytesIO(picture)) as image:
        image.load()
        return str(image.text.get(CARDS_KEY, "")).split()  # type: ignore[attr-defined]
