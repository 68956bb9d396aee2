"""Pictures of cards laid out in rows: a player's hand as the game holds it ("My cards") and
what is on the table (a trick, the packs and the pile, the grids and the discard).

A `CardPicture` is plain data (rows of card names, each with a label), built by a game's
renderer from an engine *view*, so it can only show what that view shows. Its file name names
its content: the same picture twice is the same file, uploaded once. `png()` draws it (call it
off the event loop). The card names drawn are written into the PNG (text chunk `cards`, as in
the round-end picture), so a test can check a picture without reading pixels.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from bot.pictures.cards import (
    BACK,
    CARD_BOX,
    EDGE,
    SIZE,
    TWO_COLOURS,
    Deck,
    face_image,
    font,
    png_with,
)
from bot.pictures.round_end import BACKGROUND, CARDS_KEY, DIM, TEXT

CARD = 96  # drawn size of a card: its rank and suit read at a glance, ♥ apart from ♦
SMALL_CARD = 72  # in a picture of many cards (a hand of 40): still readable
MANY = 24  # cards in a picture from which they are drawn small
GAP = 6
MARGIN = 14
LABEL_SIZE = 22
NOTE_SIZE = 20
LABEL_MOST = 260  # px: a longer label is cut
TALL = 6  # rows past which they are laid in two columns (a picture about as wide as tall)
PALETTE = 128  # colours of a drawn picture (indistinguishable from its RGB drawing)
EMPTY = ""  # an empty place (a slot left empty, nobody's card yet in a trick)


@dataclass(frozen=True, slots=True)
class CardRow:
    """One row: a label on the left (a name, a rank), its cards, a note on the right."""

    label: str
    cards: tuple[str | None, ...]  # card names; None: face down; EMPTY: an empty place
    note: str = ""
    raised: tuple[int, ...] = ()  # the cards set apart (just seen), by index
    captions: tuple[str, ...] = ()  # under each card (a slot's number)
    column: int | None = None  # the column it is laid in (a team's); None: laid out by count


@dataclass(frozen=True, slots=True)
class CardPicture:
    """The rows of a picture, the deck its faces are drawn in, and the name its file takes
    (`<kind>-<content digest>.png`: the digest covers the deck, so a picture drawn in one
    deck's colours is never taken for the other's)."""

    kind: str  # `hand`, `table`
    rows: tuple[CardRow, ...]
    deck: Deck = TWO_COLOURS
    # named once, when made: a click's answer asks for it several times (is it drawn, does
    # the message carry it), and its digest costs more than the rest of those checks
    filename: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        digest = hashlib.sha256(repr((self.deck, self.rows)).encode()).hexdigest()[:16]
        object.__setattr__(self, "filename", f"{self.kind}-{digest}.png")

    def png(self) -> bytes:
        return rows_png(self.rows, self.deck)

    @property
    def cards(self) -> int:
        return sum(len(row.cards) for row in self.rows)


def card_width(height: int) -> int:
    left, top, right, bottom = CARD_BOX
    return round(height * (right - left) / (bottom - top))


@cache
def card_face(name: str | None, height: int = CARD, deck: Deck = TWO_COLOURS) -> Image.Image:
    """A card (None: its back) `height` pixels tall, without the emoji's margins."""
    face = face_image(BACK if name is None else name, deck).crop(CARD_BOX)
    return face.resize((card_width(height), height), Image.Resampling.LANCZOS)


def _cut(text: str, width: int, size: int) -> str:
    face = font(size, text=True)
    fits = text
    while fits and face.getlength(fits if fits == text else fits + "…") > width:
        fits = fits[:-1]
    return fits if fits == text else fits + "…"


def _places(rows: Sequence[CardRow]) -> list[tuple[int, int]]:
    """Each row's (column, line): in the columns the rows name, one after the other in each;
    else in one column, or two of equal length past `TALL` rows."""
    if any(row.column is not None for row in rows):
        filled: dict[int, int] = {}
        places = []
        for row in rows:
            column = row.column or 0
            places.append((column, filled.get(column, 0)))
            filled[column] = filled.get(column, 0) + 1
        return places
    per_column = -(-max(len(rows), 1) // (2 if len(rows) > TALL else 1))
    return [divmod(index, per_column) for index in range(len(rows))]


def rows_png(rows: Sequence[CardRow], deck: Deck = TWO_COLOURS) -> bytes:
    """The picture as PNG bytes: one row per `CardRow`, labels in a column of their own, the
    faces in the deck's colours."""
    card = SMALL_CARD if sum(len(r.cards) for r in rows) > MANY else CARD
    step = card_width(card) + GAP
    label_font, note_font = font(LABEL_SIZE, text=True), font(NOTE_SIZE, text=True)
    labels = [_cut(r.label, LABEL_MOST, LABEL_SIZE) for r in rows]
    label_width = max((int(label_font.getlength(t)) for t in labels if t), default=0)
    label_width = label_width + 2 * GAP if label_width else 0
    note_width = max((int(note_font.getlength(r.note)) for r in rows if r.note), default=0)
    note_width = note_width + 2 * GAP if note_width else 0
    most = max((len(r.cards) for r in rows), default=0)
    lift = card // 6
    captioned = NOTE_SIZE + GAP if any(r.captions for r in rows) else 0
    row_height = card + 2 * GAP + (lift if any(r.raised for r in rows) else 0)
    row_height += captioned
    column_width = label_width + max(most, 1) * step + note_width
    places = _places(rows)
    columns = max((column for column, _ in places), default=0) + 1
    per_column = max((line for _, line in places), default=0) + 1
    width = 2 * MARGIN + columns * column_width + (columns - 1) * 2 * MARGIN
    height = 2 * MARGIN + per_column * row_height
    image = Image.new("RGB", (width, height), BACKGROUND[:3])
    draw = ImageDraw.Draw(image)
    drawn: list[str] = []
    for index, (row, (column, line)) in enumerate(zip(rows, places, strict=True)):
        origin = MARGIN + column * (column_width + 2 * MARGIN)
        top = MARGIN + line * row_height
        middle = top + row_height // 2
        if labels[index]:
            draw.text((origin, middle), labels[index], TEXT, label_font, anchor="lm")
        base = top + row_height - GAP - card - captioned
        for position, caption in enumerate(row.captions):
            left = origin + label_width + position * step
            where = (left + (step - GAP) // 2, base + card + GAP)
            draw.text(where, _cut(caption, step - GAP, NOTE_SIZE), DIM, note_font, anchor="mt")
        for position, name in enumerate(row.cards):
            left = origin + label_width + position * step
            if name == EMPTY:
                box = (left, base, left + step - GAP, base + card)
                draw.rounded_rectangle(box, 8, outline=EDGE, width=2)
                continue
            y = base - lift if position in row.raised else base
            face = card_face(name, card, deck)
            image.paste(face, (left, y), face)
            if name is not None:
                drawn.append(name)  # the faces shown (a back shows no card)
        if row.note:
            right = origin + column_width
            draw.text((right, middle), row.note, DIM, note_font, anchor="rm")
    info = PngInfo()
    info.add_text(CARDS_KEY, " ".join(drawn))
    # A picture per update: the fastest compression (level 1) over the smallest file, of the
    # picture in a palette of its own (flat colours and the faces' edges fit in `PALETTE`):
    # a third of the RGB file's bytes to upload, and quicker to encode than RGB.
    shown = image.quantize(PALETTE, method=Image.Quantize.FASTOCTREE)
    return png_with(shown, info, optimize=False, compress_level=1)


assert SIZE >= CARD  # cards are drawn smaller than their 128-px emoji, never blown up
