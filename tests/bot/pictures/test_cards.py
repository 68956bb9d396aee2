from __future__ import annotations

import io

from PIL import Image

from bot.pictures.cards import BACK, CARD_NAMES, RED, face_image, face_png
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
