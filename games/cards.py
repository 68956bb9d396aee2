"""Cards with the short names of docs/rules/: rank `A 2 … 10 J Q K`, suit `S H D C`, joker `JK`.

Every card is an interned object: there is exactly one `Card` per (rank, suit, copy), so
comparison and hashing are by identity and cost nothing in hot loops. Two-deck games tell
copies apart by `copy`; `code` is the unique name (`QS`, `QS#1`, `JK#3`) used to store deck
orders, and `name` (`QS`) is what players read. Never call `Card(...)`: use `card()` or a deck.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER = "JK"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})
MAX_COPIES = 4  # enough for two 54-card decks (4 jokers)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    rank: str  # one of RANKS, or JOKER
    suit: str  # one of SUITS, or "" for a joker
    copy: int  # 0 for the first copy of this name in the deck, 1 for the second, …
    name: str  # short name shown to players: "QS", "10H", "JK"
    code: str  # unique name within any deck: name, plus "#copy" when copy > 0

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def pretty(self) -> str:
        """The name with a suit symbol, e.g. `Q♠`, `10♥`, `🃏`."""
        return "🃏" if self.is_joker else f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<{self.code}>"

    # Interned: copies of a card are the card itself.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.code,))


def _make_all() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for copy in range(MAX_COPIES):
        for rank_suit in [*((r, s) for s in SUITS for r in RANKS), (JOKER, "")]:
            rank, suit = rank_suit
            name = f"{rank}{suit}"
            code = name if copy == 0 else f"{name}#{copy}"
            cards[code] = Card(rank, suit, copy, name, code)
    return cards


_ALL: dict[str, Card] = _make_all()


def card(code: str) -> Card:
    """The card with this code (`QS`, `qs`, `Q♠`, `QS#1`). Raises ValueError for an unknown one."""
    found = _ALL.get(code)  # a code as the engines write it: renders look up every card shown
    if found is not None:
        return found
    text = code.strip().upper()
    for suit, symbol in SUIT_SYMBOLS.items():
        text = text.replace(symbol, suit)
    found = _ALL.get(text)
    if found is None:
        raise ValueError(f"unknown card {code!r}")
    return found


def standard_deck(*, jokers: int = 0, copies: int = 1, ranks: Iterable[str] = RANKS) -> list[Card]:
    """`copies` full packs of the given ranks in four suits, plus `jokers` jokers in all."""
    rank_list = list(ranks)
    deck = [_ALL[_code(f"{r}{s}", c)] for c in range(copies) for s in SUITS for r in rank_list]
    deck += [_ALL[_code(JOKER, c)] for c in range(jokers)]
    return deck


def _code(name: str, copy: int) -> str:
    return name if copy == 0 else f"{name}#{copy}"


def shuffled(deck: Sequence[Card], seed: int | str) -> list[Card]:
    """A new list: the deck shuffled by a generator seeded with `seed`, never the global one."""
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    return cards


def deck_codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def deck_from_codes(codes: Iterable[str]) -> list[Card]:
    return [card(c) for c in codes]


def cards(text: str) -> list[Card]:
    """Cards from a space-separated list of codes: `cards("QS 10H JK#1")` (handy in tests)."""
    return [card(c) for c in text.split()]
