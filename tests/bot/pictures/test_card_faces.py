from __future__ import annotations

import io

from PIL import Image

from bot.pictures.card_faces import (
    BACK,
    CARD_NAMES,
    FOUR_COLOUR_NAMES,
    FOUR_COLOURS,
    RED,
    WHITE,
    face_image,
    face_png,
    suit_colour,
)
from bot.pictures.round_end import RoundEndRow, cards_in, round_end_png


def has_colour(image: Image.Image, colour: tuple[int, int, int, int]) -> bool:
    return colour in {found for _, found in image.getcolors(maxcolors=1 << 16) or ()}


def test_every_card_and_the_back_is_a_distinct_128px_png_emoji_discord_accepts() -> None:
    pictures = {name: face_png(name) for name in (*CARD_NAMES, BACK)}
    assert len(set(pictures.values())) == len(pictures) == 54
    for picture in pictures.values():
        assert len(picture) <= 256 * 1024
        with Image.open(io.BytesIO(picture)) as image:
            assert image.format == "PNG" and image.size == (128, 128)


def test_hearts_and_diamonds_are_red_spades_and_clubs_black() -> None:
    for name in CARD_NAMES[:-1]:
        assert has_colour(face_image(name), RED) == (name[-1] in "HD"), name


def test_the_round_end_picture_lists_the_cards_it_draws() -> None:
    rows = (
        RoundEndRow("Ann", ("AS", "10H", "JK"), 5, 12),
        RoundEndRow("Bob le très long nom de joueur", (), -3, -3),
    )
    picture = round_end_png(rows, "round", "total")
    assert cards_in(picture) == ["AS", "10H", "JK"]
    with Image.open(io.BytesIO(picture)) as image:
        assert image.width > 400 and image.height > 100


def suit_pixel(image: Image.Image) -> tuple[int, int, int]:
    """The colour at the centre of the suit drawn under the rank."""
    red, green, blue, _ = image.convert("RGBA").getpixel((64, 94))  # type: ignore[misc]
    return red, green, blue


def is_reddish(colour: tuple[int, int, int]) -> bool:
    red, green, blue = colour
    return red > 150 and green < 80 and blue < 80


def is_blueish(colour: tuple[int, int, int]) -> bool:
    red, green, blue = colour
    return blue > 150 and red < 80 and green < 150


def is_greenish(colour: tuple[int, int, int]) -> bool:
    red, green, blue = colour
    return green > 100 and red < 60 and blue < 80


def is_blackish(colour: tuple[int, int, int]) -> bool:
    return max(colour) < 60


def test_the_four_colour_deck_draws_diamonds_blue_and_clubs_green() -> None:
    assert is_reddish(suit_pixel(face_image("7D")))  # the two-colour deck, as before
    assert is_blueish(suit_pixel(face_image("7D", FOUR_COLOURS)))
    assert is_blackish(suit_pixel(face_image("KC")))
    assert is_greenish(suit_pixel(face_image("KC", FOUR_COLOURS)))
    for name in ("AH", "QS"):  # hearts and spades keep their colours
        assert suit_pixel(face_image(name, FOUR_COLOURS)) == suit_pixel(face_image(name))
    four = {name: face_png(name, FOUR_COLOURS) for name in (*CARD_NAMES, BACK)}
    changed = {name for name in four if four[name] != face_png(name)}
    assert changed == set(FOUR_COLOUR_NAMES) and len(changed) == 26


def luminance(colour: tuple[int, int, int, int]) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue, _ = colour
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def test_every_suit_colour_reads_on_the_white_card_and_no_two_suits_share_one() -> None:
    colours = [suit_colour(suit, FOUR_COLOURS) for suit in "SHDC"]
    assert len(set(colours)) == 4
    for colour in colours:  # WCAG's contrast for normal text: 4.5:1 at least
        assert (luminance(WHITE) + 0.05) / (luminance(colour) + 0.05) >= 4.5, colour


def test_the_round_end_picture_draws_the_four_colour_deck_when_asked() -> None:
    rows = (RoundEndRow("Ann", ("7D",), 5, 12),)
    two = Image.open(io.BytesIO(round_end_png(rows, "round", "total"))).convert("RGB")
    four = Image.open(io.BytesIO(round_end_png(rows, "round", "total", FOUR_COLOURS)))
    colours = {c for _, c in four.convert("RGB").getcolors(1 << 16) or ()}
    assert any(is_blueish(c) for c in colours)
    assert not any(is_blueish(c) for _, c in two.getcolors(1 << 16) or ())


def test_a_round_end_row_of_many_cards_goes_on_below_and_a_note_replaces_points() -> None:
    """A Dame hand of 20 cards is two lines of cards, every card drawn; a pack's row says its
    points in a note instead of the round's points and total."""
    hand = tuple(["7S"] * 20)
    rows = (
        RoundEndRow("Ann", hand, None, None, "−100"),
        RoundEndRow("N–S · 7", ("7D",), None, None, "5 points"),
    )
    one_line = round_end_png((RoundEndRow("Ann", ("7S",), 1, 2),), "round", "total")
    picture = round_end_png(rows, "round", "total")
    assert cards_in(picture) == [*hand, "7D"]
    with Image.open(io.BytesIO(picture)) as image, Image.open(io.BytesIO(one_line)) as single:
        assert image.height > 2 * single.height  # three lines: the hand's two, the pack's
        assert image.width == single.width + 15 * (72 + 6)  # 16 cards a line, not 20
