"""Euchre actions and their notation.

    pass            pass (either bidding round)
    order           order up the turned card's suit (round 1)
    order alone     order up and play alone
    call H          name hearts as trump (round 2; S H D C, or ♠ ♥ ♦ ♣)
    call H alone    name and play alone
    discard 9C      the dealer's discard after picking up
    play JD         play a card

Text is case-insensitive. Every action is an interned object, so `legal_actions` costs no
allocation and `GAME.parse_action(str(action)) == action`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import SUIT_SYMBOLS, SUITS, Card, card
from games.errors import NotationError
from games.euchre.ranking import DECK

PASS_KIND, ORDER_KIND, CALL_KIND, DISCARD_KIND, PLAY_KIND = (
    "pass",
    "order",
    "call",
    "discard",
    "play",
)


@dataclass(frozen=True, slots=True)
class EuchreAction:
    kind: str  # pass | order | call | discard | play
    suit: str | None = None  # call
    card: Card | None = None  # discard, play
    alone: bool = False  # order, call

    def __str__(self) -> str:
        if self.kind == PASS_KIND:
            return "pass"
        if self.kind == ORDER_KIND:
            return "order alone" if self.alone else "order"
        if self.kind == CALL_KIND:
            return f"call {self.suit} alone" if self.alone else f"call {self.suit}"
        assert self.card is not None
        return f"{self.kind} {self.card.name}"


PASS = EuchreAction(PASS_KIND)
ORDER = EuchreAction(ORDER_KIND)
ORDER_ALONE = EuchreAction(ORDER_KIND, alone=True)
CALL: dict[str, EuchreAction] = {s: EuchreAction(CALL_KIND, suit=s) for s in SUITS}
CALL_ALONE: dict[str, EuchreAction] = {
    s: EuchreAction(CALL_KIND, suit=s, alone=True) for s in SUITS
}
DISCARD: dict[Card, EuchreAction] = {c: EuchreAction(DISCARD_KIND, card=c) for c in DECK}
PLAY: dict[Card, EuchreAction] = {c: EuchreAction(PLAY_KIND, card=c) for c in DECK}

_SUIT_WORDS = {s: s for s in SUITS} | {sym: s for s, sym in SUIT_SYMBOLS.items()}


def parse_action(text: str) -> EuchreAction:
    """The action written as `text` (raises NotationError)."""
    words = text.strip().upper().split()
    if not words:
        raise NotationError(text, "empty")
    head, rest = words[0], words[1:]
    if head == "PASS" and not rest:
        return PASS
    if head == "ORDER" and rest in ([], ["ALONE"]):
        return ORDER_ALONE if rest else ORDER
    if head == "CALL" and len(rest) in (1, 2) and rest[1:] in ([], ["ALONE"]):
        suit = _SUIT_WORDS.get(rest[0])
        if suit is None:
            raise NotationError(text, f"unknown suit {rest[0]!r}; use S, H, D or C")
        return CALL_ALONE[suit] if len(rest) == 2 else CALL[suit]
    if head in ("DISCARD", "PLAY") and len(rest) == 1:
        found = _euchre_card(text, rest[0])
        return DISCARD[found] if head == "DISCARD" else PLAY[found]
    raise NotationError(
        text, "write pass, order [alone], call S|H|D|C [alone], discard CARD or play CARD"
    )


def _euchre_card(text: str, word: str) -> Card:
    try:
        found = card(word)
    except ValueError:
        raise NotationError(text, f"unknown card {word!r}") from None
    if found not in DISCARD:
        raise NotationError(text, f"{found.name} is not in the Euchre deck (9 to A)")
    return found
