"""Card faces and the card back as 128×128 PNG images, readable at emoji size.

One style for every game: a white card with a large rank in the top half and a large suit
below it, red for ♥ ♦ and black for ♠ ♣; the joker is a gold star with "JK"; the back is a
blue lattice. A player may choose the four-colour deck (`FOUR_COLOURS`): ♦ blue and ♣ green,
♥ red and ♠ black as before, so no two suits share a colour; every colour keeps a contrast of
at least 4.5:1 on the white card. The ranks are the letters the text rendering uses (A 2–10
J Q K in every language), and the suits are drawn as shapes, so no font with suit symbols is
needed: the only font is the one Pillow ships.
"""

from __future__ import annotations

import io
import math
from functools import cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from games.cards import JOKER, RANKS, RED_SUITS, SUITS

SIZE = 128
CARD_BOX = (14, 2, 114, 126)  # a portrait card centred in the square emoji
RADIUS = 12
RED = (200, 20, 30, 255)
BLACK = (20, 20, 20, 255)
BLUE = (20, 90, 210, 255)  # ♦ in the four-colour deck
GREEN = (15, 125, 45, 255)  # ♣ in the four-colour deck
WHITE = (255, 255, 255, 255)
EDGE = (90, 90, 90, 255)
BACK_BLUE = (30, 70, 160, 255)
BACK_LINE = (120, 160, 230, 255)
GOLD = (235, 175, 20, 255)
JOKER_PURPLE = (110, 40, 150, 255)
BACK = "back"  # the picture name of the card back
CARD_NAMES: tuple[str, ...] = (*(f"{r}{s}" for s in SUITS for r in RANKS), JOKER)

Deck = Literal["two", "four"]  # the colour scheme the card faces are drawn in
TWO_COLOURS: Deck = "two"  # red ♥ ♦, black ♠ ♣ (the default, and every public message's)
FOUR_COLOURS: Deck = "four"  # red ♥, blue ♦, green ♣, black ♠
DECKS: tuple[Deck, ...] = (TWO_COLOURS, FOUR_COLOURS)
FOUR_COLOUR_SUITS = {"D": BLUE, "C": GREEN}  # the suits the four-colour deck draws apart
# The pictures that differ between the decks (the others are the same in both).
FOUR_COLOUR_NAMES: tuple[str, ...] = tuple(n for n in CARD_NAMES if n[-1] in FOUR_COLOUR_SUITS)


def suit_colour(suit: str, deck: Deck = TWO_COLOURS) -> tuple[int, int, int, int]:
    if deck == FOUR_COLOURS and suit in FOUR_COLOUR_SUITS:
        return FOUR_COLOUR_SUITS[suit]
    return RED if suit in RED_SUITS else BLACK


TEXT_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf")  # wide coverage, where installed


@cache
def font(size: int, *, text: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font for ranks (the same everywhere); for players' names, a font with
    accents when the system has one."""
    if text:
        for name in TEXT_FONTS:
            try:
                return ImageFont.truetype(name, size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)


def _blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    return image, draw


def _card(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    draw.rounded_rectangle(CARD_BOX, RADIUS, fill=fill, outline=EDGE, width=3)


def draw_suit(
    draw: ImageDraw.ImageDraw,
    suit: str,
    centre: tuple[float, float],
    size: float,
    deck: Deck = TWO_COLOURS,
) -> None:
    """A suit symbol as shapes, `size` wide, centred on `centre`, in the deck's colour."""
    x, y = centre
    h = size / 2
    colour = suit_colour(suit, deck)
    if suit == "D":
        draw.polygon(
            [(x, y - h * 1.2), (x + h * 0.85, y), (x, y + h * 1.2), (x - h * 0.85, y)], colour
        )
    elif suit == "H":
        r = h * 0.55
        draw.ellipse((x - 2 * r, y - h * 0.9, x, y - h * 0.9 + 2 * r), colour)
        draw.ellipse((x, y - h * 0.9, x + 2 * r, y - h * 0.9 + 2 * r), colour)
        draw.polygon(
            [(x - 2 * r + 1, y - h * 0.2), (x + 2 * r - 1, y - h * 0.2), (x, y + h)], colour
        )
    elif suit == "S":
        r = h * 0.52
        draw.polygon([(x, y - h), (x + 2 * r, y + h * 0.25), (x - 2 * r, y + h * 0.25)], colour)
        draw.ellipse((x - 2 * r, y - h * 0.15, x, y - h * 0.15 + 2 * r), colour)
        draw.ellipse((x, y - h * 0.15, x + 2 * r, y - h * 0.15 + 2 * r), colour)
        draw.polygon(
            [(x, y + h * 0.2), (x + h * 0.4, y + h * 1.05), (x - h * 0.4, y + h * 1.05)], colour
        )
    else:  # clubs
        r = h * 0.45
        for cx, cy in (
            (x, y - h * 0.5),
            (x - h * 0.52, y + h * 0.15),
            (x + h * 0.52, y + h * 0.15),
        ):
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), colour)
        draw.polygon([(x, y), (x + h * 0.4, y + h * 1.05), (x - h * 0.4, y + h * 1.05)], colour)


def _star(centre: tuple[float, float], outer: float, inner: float) -> list[tuple[float, float]]:
    x, y = centre
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / 5
        points.append((x + radius * math.cos(angle), y - radius * math.sin(angle)))
    return points


def face_image(name: str, deck: Deck = TWO_COLOURS) -> Image.Image:
    """The picture of one card by its short name (`QS`, `10H`, `JK`) or of the back (`back`),
    in the deck's colours."""
    image, draw = _blank()
    if name == BACK:
        pattern = Image.new("RGBA", (SIZE, SIZE), BACK_BLUE)
        lines = ImageDraw.Draw(pattern)
        for offset in range(-SIZE, SIZE, 16):
            lines.line((offset, 0, offset + SIZE, SIZE), BACK_LINE, 2)
            lines.line((offset + SIZE, 0, offset, SIZE), BACK_LINE, 2)
        mask = Image.new("L", (SIZE, SIZE), 0)
        ImageDraw.Draw(mask).rounded_rectangle(CARD_BOX, RADIUS, fill=255)
        image.paste(pattern, (0, 0), mask)
        draw.rounded_rectangle(CARD_BOX, RADIUS, outline=WHITE, width=6)
        return image
    _card(draw, WHITE)
    if name == JOKER:
        draw.polygon(_star((64, 52), 40, 17), GOLD, JOKER_PURPLE)
        draw.text((64, 104), "JK", JOKER_PURPLE, font(36), anchor="mm")
        return image
    rank, suit = name[:-1], name[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"no picture for card {name!r}")
    colour = suit_colour(suit, deck)
    size = 62 if len(rank) == 1 else 54
    draw.text((64, 40), rank, colour, font(size), anchor="mm", stroke_width=2, stroke_fill=colour)
    draw_suit(draw, suit, (64, 94), 46, deck)
    return image


def png(image: Image.Image) -> bytes:
    return png_with(image, None)


def png_with(
    image: Image.Image, info: PngInfo | None, *, optimize: bool = True, compress_level: int = 6
) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=optimize, pnginfo=info, compress_level=compress_level)
    return buffer.getvalue()


@cache
def face_png(name: str, deck: Deck = TWO_COLOURS) -> bytes:
    return png(face_image(name, deck))
