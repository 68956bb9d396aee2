"""Cards in messages: as the card pictures the bot uploaded as application emojis when they
are available, else as text (face-up cards by name with their suit symbol, face-down ones as a
card back).

The running bot hands its emojis over with `use_pictures` once their upload is complete, and
takes them back when it closes; none (tests, the local table, an upload Discord refused) means
text. Button and select labels are plain text, so they use `pretty`; a component shows the
picture through its `emoji` field (`card_emoji`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.pictures.cards import BACK
from games.cards import card

CARD_BACK = "🂠"
EMPTY_SLOT = "▫️"
NO_CARD = "—"

_pictures: dict[str, str] = {}  # card name, or `back`, -> `<:name:id>`


def use_pictures(markup: Mapping[str, str]) -> None:
    """Show cards as these emojis from now on (an empty mapping: as text)."""
    _pictures.clear()
    _pictures.update(markup)


def pretty(name: str | None) -> str:
    """`QS` -> `Q♠`, `JK` -> `🃏`; None (unknown to this viewer) -> the card back."""
    if name is None:
        return CARD_BACK
    try:
        return card(name).pretty
    except ValueError:
        return name


def card_emoji(name: str | None) -> str | None:
    """The card's emoji markup (None: the back), or None when pictures are unavailable."""
    return _pictures.get(BACK if name is None else name)


def shown(name: str | None) -> str:
    """A card inside a sentence: its picture, else its text."""
    return card_emoji(name) or pretty(name)


def face(name: str | None, *, empty: bool = False) -> str:
    """One slot of a grid: an empty slot, a card back, or the card."""
    if empty:
        return EMPTY_SLOT
    emoji = card_emoji(name)
    if emoji is not None:
        return emoji
    return CARD_BACK if name is None else f"`{pretty(name)}`"
