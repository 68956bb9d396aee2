"""Pictures of cards laid out in rows.

They show a player's hand as the game holds it ("My cards") and what is on the table (a trick,
the packs and the pile, the grids and the discard).

A `CardPicture` is plain data (rows of card names, each with a label), built by a game's
renderer from an engine *view*, so it can only show what that view shows. Its file name names
its content: the same picture twice is the same file, uploaded once. `png()` draws it (call it
off the event loop). The card names drawn are written into the PNG (text chunk `cards`, as in
the round-end picture), so a test can check a picture without reading pixels.
"""

from __future__ import annotations

import hashlib
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from bot.pictures.card_faces import (
    BACK,
    CARD_BOX,
    CARD_NAMES,
    DECKS,
    EDGE,
    JOKER_PURPLE,
    SIZE,
    TWO_COLOURS,
    Deck,
    draw_suit,
    face_image,
    font,
    png_with,
    suit_colour,
)
from bot.pictures.round_end import BACKGROUND, CARDS_KEY, DIM, TEXT
from games.cards import JOKER

CARD = 96  # drawn size of a card: its rank and suit read at a glance, ♥ apart from ♦
SMALL_CARD = 72  # in a picture of many cards (a hand of 40): still readable
MANY = 24  # cards in a picture from which they are drawn small
GAP = 6
MARGIN = 14
LABEL_SIZE = 22
NOTE_SIZE = 22
LABEL_MOST = 260  # px: a longer label is cut
TALL = 6  # rows past which they are laid in two columns (a picture about as wide as tall)
PALETTE = 256  # colours of the one palette every picture is drawn in (see `palette()`)
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
    flow: bool = False  # a group of a flowing picture (`flow_image`): kept together, overlapped

    def __repr__(self) -> str:
        # The dataclass's own repr, written out: a picture's file name digests its rows' repr
        # at every render, and the generated one (guarded against cycles a row cannot have)
        # cost three times as much.
        return (
            f"CardRow(label={self.label!r}, cards={self.cards!r}, note={self.note!r}, "
            f"raised={self.raised!r}, captions={self.captions!r}, column={self.column!r}, "
            f"flow={self.flow!r})"
        )

    def __reduce__(self) -> tuple[type[CardRow], tuple[object, ...]]:
        # Pickled (sent to a drawing process with every picture) as its fields, in order: the
        # slotted dataclass's own pickling, through its state's dict, cost four times as much
        return CardRow, _row_fields(self)


_row_fields = operator.attrgetter(*(f.name for f in fields(CardRow)))


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


@cache
def card_tile(name: str | None, height: int = CARD, deck: Deck = TWO_COLOURS) -> Image.Image:
    """`card_face` already laid on the pictures' background: pasted as it is, with no mask
    to blend (cards never overlap)."""
    face = card_face(name, height, deck)
    tile = Image.new("RGB", face.size, BACKGROUND[:3])
    tile.paste(face, (0, 0), face)
    return tile


@cache
def palette() -> Image.Image:
    """The palette every picture is drawn in: its colours chosen once, from every card face
    of both decks at both sizes, the empty place's outline and the labels' text, on the
    background. Mapping a picture to a palette known in advance costs a tenth of choosing one
    for it (a picture per update), and looks the same."""
    faces = [
        (name, height, deck)
        for deck in DECKS
        for height in (CARD, SMALL_CARD)
        for name in (*CARD_NAMES, None)
    ]
    step = card_width(CARD) + GAP
    per_line = 20
    lines = -(-len(faces) // per_line)
    sample = Image.new("RGB", (per_line * step, lines * (CARD + GAP) + 80), BACKGROUND[:3])
    for index, (name, height, deck) in enumerate(faces):
        line, place = divmod(index, per_line)
        sample.paste(card_tile(name, height, deck), (place * step, line * (CARD + GAP)))
    draw = ImageDraw.Draw(sample)
    bottom = lines * (CARD + GAP)
    draw.rounded_rectangle((0, bottom, step - GAP, bottom + 70), 8, outline=EDGE, width=2)
    words = "Alice Bob Carol Éloïse 12 pts 1 2 3 4 5 6 7 8 9 0 Wg"
    draw.text((step, bottom + 4), words, TEXT, font(LABEL_SIZE, text=True))
    draw.text((step, bottom + 40), words, DIM, font(NOTE_SIZE, text=True))
    return sample.quantize(PALETTE, method=Image.Quantize.FASTOCTREE)


@lru_cache(maxsize=4096)
def _cut(text: str, width: int, size: int) -> str:
    face = font(size, text=True)
    fits = text
    while fits and face.getlength(fits if fits == text else fits + "…") > width:
        fits = fits[:-1]
    return fits if fits == text else fits + "…"


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> int:
    return math.ceil(font(size, text=True).getlength(text))  # whole: what `_cut` fits


@lru_cache(maxsize=4096)
def _text_tile(
    text: str, size: int, colour: tuple[int, ...], anchor: str
) -> tuple[Image.Image, int, int]:
    """`text` drawn on the background, and where its corner lies from the anchor's point:
    names, notes and captions come back picture after picture, drawn once each."""
    face = font(size, text=True)
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor=anchor))
    tile = Image.new("RGB", (max(right - left, 1), max(bottom - top, 1)), BACKGROUND[:3])
    ImageDraw.Draw(tile).text((-left, -top), text, colour, face, anchor=anchor)
    return tile, left, top


def _write(
    image: Image.Image,
    where: tuple[int, int],
    text: str,
    size: int,
    colour: tuple[int, ...],
    anchor: str,
) -> None:
    tile, left, top = _text_tile(text, size, colour, anchor)
    image.paste(tile, (where[0] + left, where[1] + top))


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
    image, drawn = rows_image(rows, deck)
    info = PngInfo()
    info.add_text(CARDS_KEY, " ".join(drawn))
    # A picture per update: the fastest compression (level 1) over the smallest file, of the
    # picture in the pictures' one palette (flat colours and the faces' edges fit in it): a
    # third of the RGB file's bytes to upload, and quicker to encode than RGB.
    shown = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    return png_with(shown, info, optimize=False, compress_level=1)


def card_height(rows: Sequence[CardRow]) -> int:
    """How tall the picture of these rows draws its cards: smaller in a picture of many,
    unless it flows (`flow_image`: always full size, wrapping instead)."""
    if any(row.flow for row in rows) or sum(len(r.cards) for r in rows) <= MANY:
        return CARD
    return SMALL_CARD


def rows_image(rows: Sequence[CardRow], deck: Deck = TWO_COLOURS) -> tuple[Image.Image, list[str]]:
    """The picture in full colour, and the faces it shows (a back shows none)."""
    if any(row.flow for row in rows):
        return flow_image(rows, deck)
    card = card_height(rows)
    step = card_width(card) + GAP
    labels = [_cut(r.label, LABEL_MOST, LABEL_SIZE) for r in rows]
    label_width = max((_length(t, LABEL_SIZE) for t in labels if t), default=0)
    label_width = label_width + 2 * GAP if label_width else 0
    # a row's note right after its cards: a short row's note takes no width of the longest's
    widest = (
        max(
            (max(len(r.cards), 1) * step + (_length(r.note, NOTE_SIZE) + GAP if r.note else 0))
            for r in rows
        )
        if rows
        else step
    )
    lift = card // 6
    captioned = NOTE_SIZE + GAP if any(r.captions for r in rows) else 0
    row_height = card + 2 * GAP + (lift if any(r.raised for r in rows) else 0)
    row_height += captioned
    column_width = label_width + widest
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
            _write(image, (origin, middle), labels[index], LABEL_SIZE, TEXT, "lm")
        base = top + row_height - GAP - card - captioned
        for position, caption in enumerate(row.captions):
            left = origin + label_width + position * step
            where = (left + (step - GAP) // 2, base + card + GAP)
            _write(image, where, _cut(caption, step - GAP, NOTE_SIZE), NOTE_SIZE, DIM, "mt")
        for position, name in enumerate(row.cards):
            left = origin + label_width + position * step
            if name == EMPTY:
                box = (left, base, left + step - GAP, base + card)
                draw.rounded_rectangle(box, 8, outline=EDGE, width=2)
                continue
            y = base - lift if position in row.raised else base
            image.paste(card_tile(name, card, deck), (left, y))
            if name is not None:
                drawn.append(name)  # the faces shown (a back shows no card)
        if row.note:
            after = origin + label_width + max(len(row.cards), 1) * step
            _write(image, (after, middle), row.note, NOTE_SIZE, DIM, "lm")
    return image, drawn


# -- flowing pictures ---------------------------------------------------------------------------
# A picture shown at the message's width keeps its cards legible on a phone only if it is a
# few cards wide: a flowing picture is `FLOW_CARDS` cards wide at most, its groups laid left
# to right and wrapping onto the next line, and as wide as what it shows (`FEWEST_CARDS` at
# least, so that a hand of two cards is not blown up to the message's width).
FLOW_CARDS = 7  # cards side by side across a flowing picture, at most
FEWEST_CARDS = 4  # the width of a flowing picture of fewer cards
GROUP_GAP = 10  # between two groups of a line
OVERLAP = 0.42  # of a card's width: what shows of a card covered by the next in its group
CAPTION_SIZE = 24  # a group's caption (a pack's points, a slot's number)
HEADING_SIZE = 28  # a heading line (a player, a team)
PHONE_SHOWN = 335  # px: the message's width in a 420-px-wide window (the local page's CSS)


def flow_width() -> int:
    """A flowing picture's width: `FLOW_CARDS` full-size cards and their gaps, its margins."""
    return 2 * MARGIN + FLOW_CARDS * card_width(CARD) + (FLOW_CARDS - 1) * GROUP_GAP


@cache
def covered_face(name: str | None, height: int = CARD, deck: Deck = TWO_COLOURS) -> Image.Image:
    """A card under the next one of its group: its rank and suit written small in the strip
    left showing (`OVERLAP`), as a real card's corner index."""
    face = card_face(name, height, deck).copy()
    if name is None or name == EMPTY:
        return face
    width = card_width(height)
    strip = round(width * OVERLAP)
    draw = ImageDraw.Draw(face)
    draw.rectangle((4, 4, strip + 2, height - 5), fill=(255, 255, 255, 255))
    if name == JOKER:
        rank, suit = "JK", None
    else:
        rank, suit = name[:-1], name[-1]
    colour = JOKER_PURPLE if suit is None else suit_colour(suit, deck)
    size = round(height * (0.27 if len(rank) == 1 else 0.22))
    centre = (strip + 4) / 2 + 1
    draw.text(
        (centre, height * 0.2),
        rank,
        colour,
        font(size),
        anchor="mm",
        stroke_width=1,
        stroke_fill=colour,
    )
    if suit is not None:
        draw_suit(draw, suit, (centre, height * 0.47), strip * 0.62, deck)
    return face


@dataclass(frozen=True, slots=True)
class _Placed:
    row: CardRow
    left: int
    width: int  # of its cards
    step: int  # between two of its cards


def _caption(row: CardRow) -> str:
    """What a group writes under it: its label, captions (a slot's number) and note."""
    return " · ".join(part for part in (row.label, *row.captions, row.note) if part)


def _lines(rows: Sequence[CardRow]) -> list[CardRow | list[_Placed]]:
    """The picture's lines: a heading (a row without cards), or groups side by side."""
    inner = flow_width() - 2 * MARGIN
    width = card_width(CARD)
    lines: list[CardRow | list[_Placed]] = []
    line: list[_Placed] = []
    x = 0
    for row in rows:
        if not row.cards:
            if line:
                lines.append(line)
                line, x = [], 0
            lines.append(row)
            continue
        count = len(row.cards)
        step = round(width * OVERLAP) if row.flow else width + GAP
        if count > 1:
            step = min(step, (inner - width) // (count - 1))
        cards = width + (count - 1) * step
        caption = _caption(row)
        span = max(
            cards, _length(_cut(caption, inner, CAPTION_SIZE), CAPTION_SIZE) if caption else 0
        )
        if line and x + GROUP_GAP + span > inner:
            lines.append(line)
            line, x = [], 0
        left = x + GROUP_GAP if line else 0
        line.append(_Placed(row, left, span, step))
        x = left + span
    if line:
        lines.append(line)
    return lines


def heading_words(label: str, note: str, width: int) -> tuple[str, str]:
    """A heading's label and note as written on a line `width` wide: the note (the points)
    whole beside the label where both fit, else in two thirds of the line at most, the label
    (a name) cut to the rest."""
    both = _length(label, HEADING_SIZE) + 2 * GAP + _length(note, CAPTION_SIZE)
    if note and both > width:
        note = _cut(note, width * 2 // 3, CAPTION_SIZE)
    room = width - (_length(note, CAPTION_SIZE) + 2 * GAP if note else 0)
    return _cut(label, room, HEADING_SIZE), note


def _used(lines: Sequence[CardRow | list[_Placed]]) -> int:
    """How wide the lines' content is (a heading's words, a line's groups), no narrower than
    `FEWEST_CARDS` cards (a small hand is not blown up to the message's width) and no wider
    than `FLOW_CARDS`."""
    inner = flow_width() - 2 * MARGIN
    width = FEWEST_CARDS * card_width(CARD) + (FEWEST_CARDS - 1) * GROUP_GAP
    for line in lines:
        if isinstance(line, CardRow):
            words = _length(line.label, HEADING_SIZE)
            if line.note:
                words += 2 * GAP + _length(line.note, CAPTION_SIZE)
            width = max(width, words)
        elif line:
            width = max(width, line[-1].left + line[-1].width)
    return min(width, inner)


def flow_image(rows: Sequence[CardRow], deck: Deck = TWO_COLOURS) -> tuple[Image.Image, list[str]]:
    """A flowing picture: headings (rows without cards: a label, a note at the right) and
    groups of cards (a rank of a hand, a pack, a slot) laid left to right, wrapping onto the
    next line, each group's cards overlapped and its label and note written under it."""
    lines = _lines(rows)
    inner = _used(lines)
    width = inner + 2 * MARGIN
    card, lift = CARD, CARD // 6
    heading = HEADING_SIZE + 2 * GAP

    def height_of(line: CardRow | list[_Placed]) -> int:
        if isinstance(line, CardRow):
            return heading
        raised = any(p.row.raised for p in line)
        captioned = any(_caption(p.row) for p in line)
        return card + 2 * GAP + (lift if raised else 0) + (CAPTION_SIZE + GAP if captioned else 0)

    height = 2 * MARGIN + sum(height_of(line) for line in lines)
    image = Image.new("RGB", (width, height), BACKGROUND[:3])
    draw = ImageDraw.Draw(image)
    drawn: list[str] = []
    top = MARGIN
    for line in lines:
        tall = height_of(line)
        if isinstance(line, CardRow):
            middle = top + tall // 2
            label, note = heading_words(line.label, line.note, inner)
            _write(image, (MARGIN, middle), label, HEADING_SIZE, TEXT, "lm")
            if note:
                _write(image, (width - MARGIN, middle), note, CAPTION_SIZE, DIM, "rm")
            top += tall
            continue
        raised = lift if any(p.row.raised for p in line) else 0
        base = top + GAP + raised
        for placed in line:
            left = MARGIN + placed.left
            row = placed.row
            last = len(row.cards) - 1
            for position, name in enumerate(row.cards):
                x = left + position * placed.step
                y = base - lift if position in row.raised else base
                if name == EMPTY:
                    box = (x, y, x + card_width(card), y + card)
                    draw.rounded_rectangle(box, 8, outline=EDGE, width=2)
                    continue
                covered = row.flow and position < last and placed.step < card_width(card)
                face = (covered_face if covered else card_face)(name, card, deck)
                image.paste(face, (x, y), face)
                if name is not None:
                    drawn.append(name)
            caption = _caption(row)
            if caption:
                where = (left, base + card + GAP)
                _write(image, where, _cut(caption, inner, CAPTION_SIZE), CAPTION_SIZE, DIM, "lt")
        top += tall
    return image, drawn


assert SIZE >= CARD  # cards are drawn smaller than their 128-px emoji, never blown up
