"""The card pictures as the running bot hands them to the renderers, for rendering tests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from bot.pictures.card_faces import BACK, CARD_NAMES, FOUR_COLOUR_NAMES
from bot.render.card_text import use_pictures

MARKUP = {name: f"<:ct1_{name}:{1000 + i}>" for i, name in enumerate((*CARD_NAMES, BACK))}
FOUR_MARKUP = {name: f"<:ct4_{name}:{2000 + i}>" for i, name in enumerate(FOUR_COLOUR_NAMES)}
CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")  # a card written as text


@contextmanager
def card_pictures() -> Iterator[None]:
    """Cards render as the emojis of `MARKUP` within the block (`FOUR_MARKUP` for ♦ ♣ in the
    four-colour deck)."""
    use_pictures(MARKUP, FOUR_MARKUP)
    try:
        yield
    finally:
        use_pictures({})
