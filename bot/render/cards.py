"""Cards as text: face-up cards by name with their suit symbol, face-down ones as a card back."""

from __future__ import annotations

from games.cards import card

CARD_BACK = "🂠"
EMPTY_SLOT = "▫️"
NO_CARD = "—"


def pretty(name: str | None) -> str:
    """`QS` -> `Q♠`, `JK` -> `🃏`; None (unknown to this viewer) -> the card back."""
    if name is None:
        return CARD_BACK
    try:
        return card(name).pretty
    except ValueError:
        return name


def face(name: str | None, *, empty: bool = False) -> str:
    """One slot of a grid: an empty slot, a card back, or the card."""
    if empty:
        return EMPTY_SLOT
    return CARD_BACK if name is None else f"`{pretty(name)}`"
