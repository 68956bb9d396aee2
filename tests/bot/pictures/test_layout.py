"""Pictures of cards in rows: readable card sizes, a file name that names the content, and
the faces drawn written into the PNG (a back shows none)."""

from __future__ import annotations

import dataclasses
import io
import pickle

from PIL import Image, ImageChops

from bot.pictures.card_faces import FOUR_COLOURS, TWO_COLOURS
from bot.pictures.layout import CARD, EMPTY, SMALL_CARD, CardPicture, CardRow, rows_image
from bot.pictures.round_end import cards_in


def test_a_picture_draws_its_faces_and_names_its_file_after_its_content() -> None:
    rows = (CardRow("Ann", (None, "QH", EMPTY, None), raised=(1,)), CardRow("Held", ("7D",)))
    picture = CardPicture("hand", rows)
    png = picture.png()
    assert cards_in(png) == ["QH", "7D"]  # the backs and the empty place show no card
    with Image.open(io.BytesIO(png)) as image:
        assert image.height >= 2 * CARD  # two rows of full-size cards
    same = CardPicture("hand", tuple(rows))
    other = CardPicture("hand", (rows[0], CardRow("Held", ("7H",))))
    assert same.filename == picture.filename != other.filename
    assert picture.filename.startswith("hand-") and picture.filename.endswith(".png")


def test_a_hand_of_many_cards_is_drawn_smaller_in_two_columns_and_every_card_is_drawn() -> None:
    ranks = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    rows = tuple(CardRow(rank, tuple(f"{rank}{suit}" for suit in "SHDC")) for rank in ranks)
    png = CardPicture("hand", rows).png()
    assert len(cards_in(png)) == 48
    with Image.open(io.BytesIO(png)) as image:  # twelve rows in two columns of six
        assert 6 * SMALL_CARD <= image.height < 7 * (SMALL_CARD + 20) < image.width


def test_a_four_colour_picture_draws_blue_diamonds_and_never_takes_a_two_colour_file() -> None:
    rows = (CardRow("Held", ("7D", "7C")),)
    two, four = CardPicture("hand", rows), CardPicture("hand", rows, FOUR_COLOURS)
    assert two.filename != four.filename and two.deck == TWO_COLOURS

    def colours(picture: CardPicture) -> set[tuple[int, int, int]]:
        with Image.open(io.BytesIO(picture.png())) as image:
            return {c for _, c in image.convert("RGB").getcolors(1 << 20) or ()}

    def bluish(c: tuple[int, int, int]) -> bool:
        return c[2] > 150 and c[0] < 80 and c[1] < 150

    assert any(bluish(c) for c in colours(four))
    assert not any(bluish(c) for c in colours(two))


def test_rows_that_name_their_column_are_laid_in_it_one_below_the_other() -> None:
    left = tuple(CardRow(f"N–S · {rank}", (f"{rank}S", f"{rank}H"), column=0) for rank in "345")
    right = (CardRow("E–W · 9", ("9S", "9D"), column=1),)
    png = CardPicture("table", (*left, *right)).png()
    assert cards_in(png) == ["3S", "3H", "4S", "4H", "5S", "5H", "9S", "9D"]
    by_count = CardPicture("table", tuple(CardRow(r.label, r.cards) for r in (*left, *right)))
    with Image.open(io.BytesIO(png)) as image, Image.open(io.BytesIO(by_count.png())) as one:
        # two columns of (at most) three rows, where four rows by count are one column
        assert image.height < one.height and image.width > one.width
        assert 3 * CARD <= image.height < 4 * CARD


def test_a_picture_is_a_palette_png_of_a_third_of_its_rgb_bytes_with_its_cards_named() -> None:
    ranks = ("3", "4", "5", "6", "7", "8", "9")
    rows = tuple(CardRow(rank, (f"{rank}S", f"{rank}H")) for rank in ranks)
    png = CardPicture("hand", rows).png()
    assert len(cards_in(png)) == 14
    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "P" and len(png) < 25_000  # RGB: about 48 kB
        colours = {c for _, c in image.convert("RGB").getcolors(1 << 20) or ()}
    red = max(colours, key=lambda c: c[0] - c[1] - c[2])  # the hearts keep their red
    assert red[0] > 150 and red[1] < 60 and red[2] < 60, red


def test_every_picture_is_drawn_in_one_palette_that_looks_like_its_full_colour_drawing() -> None:
    """Mapping to a palette chosen in advance is what makes a picture cheap; it must not show."""
    table = (
        CardRow("Éloïse", ("QS", "KH", "2D", "10C"), note="12 pts"),
        CardRow("Bob", (None, None, EMPTY, None), captions=("1", "2", "3", "4")),
        CardRow("Pile", ("JK", "9D"), raised=(1,)),
    )
    hand = (CardRow("", ("7D", "7C", "AH", "AS")),)
    palettes = []
    for rows, deck in ((table, TWO_COLOURS), (hand, FOUR_COLOURS)):
        full, _ = rows_image(rows, deck)
        with Image.open(io.BytesIO(CardPicture("table", rows, deck).png())) as image:
            palettes.append(image.getpalette())
            shown = image.convert("RGB")
        difference = ImageChops.difference(full, shown).convert("L")
        histogram = difference.histogram()
        pixels = full.width * full.height
        mean = sum(level * count for level, count in enumerate(histogram)) / pixels
        off = sum(histogram[12:]) / pixels  # pixels visibly off their colour
        assert mean < 1.5 and off < 0.01, (mean, off)
    assert palettes[0] == palettes[1]


def test_a_row_writes_itself_as_the_dataclass_would_so_file_names_do_not_change() -> None:
    # A picture's file name digests its rows' repr, written out by hand for speed: it must
    # stay the generated one, field for field (a new field must be added to it too).
    row = CardRow("Ann's", ("7S", None, EMPTY), note="12", raised=(1,), captions=("1",), column=1)
    generated = ", ".join(f"{f.name}={getattr(row, f.name)!r}" for f in dataclasses.fields(row))
    assert repr(row) == f"CardRow({generated})"
    assert repr(CardRow("x", ())) == "CardRow(label='x', cards=(), note='', raised=(), " + (
        "captions=(), column=None)"
    )


def test_a_row_sent_to_a_drawing_process_arrives_field_for_field() -> None:
    # Pickled as its fields (cheaper than a slotted dataclass's own pickling): every field
    # arrives, a new one included, and the picture drawn there is the one named here.
    row = CardRow("Ann's", ("7S", None, EMPTY), note="12", raised=(1,), captions=("1",), column=1)
    arrived = pickle.loads(pickle.dumps(row, pickle.HIGHEST_PROTOCOL))
    assert arrived == row and repr(arrived) == repr(row)
    assert type(arrived) is CardRow
    assert pickle.loads(pickle.dumps(CardRow("x", ()))) == CardRow("x", ())
