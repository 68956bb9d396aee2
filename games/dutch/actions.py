"""Dutch actions and their notation (every action is listed in games/dutch/README.md).

Seats are the engine's seat indices (0 to n-1); slots are numbered from 1 (1 top-left,
2 top-right, 3 bottom-left, 4 bottom-right; penalty cards get 5, 6, …; an emptied slot keeps its
number). `seat:slot` names a card on someone else's grid: `jack 2 1:3` swaps own slot 2 with
seat 1's slot 3. Parsing is case-insensitive and returns interned action objects;
`parse_action(str(a)) == a`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from games.errors import NotationError


@dataclass(frozen=True, slots=True)
class Peek:
    kind: ClassVar[str] = "peek"
    first: int
    second: int

    def __str__(self) -> str:
        return f"peek {self.first} {self.second}"


@dataclass(frozen=True, slots=True)
class CallDutch:
    kind: ClassVar[str] = "dutch"

    def __str__(self) -> str:
        return "dutch"


@dataclass(frozen=True, slots=True)
class Draw:
    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take:
    kind: ClassVar[str] = "take"

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Swap:
    kind: ClassVar[str] = "swap"
    slot: int

    def __str__(self) -> str:
        return f"swap {self.slot}"


@dataclass(frozen=True, slots=True)
class Discard:
    kind: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return "discard"


@dataclass(frozen=True, slots=True)
class Look:
    kind: ClassVar[str] = "look"
    seat: int
    slot: int

    def __str__(self) -> str:
        return f"look {self.seat}:{self.slot}"


@dataclass(frozen=True, slots=True)
class JackSwap:
    kind: ClassVar[str] = "jack"
    slot: int
    seat: int
    target_slot: int

    def __str__(self) -> str:
        return f"jack {self.slot} {self.seat}:{self.target_slot}"


@dataclass(frozen=True, slots=True)
class Seven:
    kind: ClassVar[str] = "seven"
    slot: int

    def __str__(self) -> str:
        return f"seven {self.slot}"


@dataclass(frozen=True, slots=True)
class Nine:
    """`slot` None: the drawn 9 itself goes to the opponent."""

    kind: ClassVar[str] = "nine"
    slot: int | None
    seat: int
    target_slot: int

    def __str__(self) -> str:
        own = "drawn" if self.slot is None else str(self.slot)
        return f"nine {own} {self.seat}:{self.target_slot}"


@dataclass(frozen=True, slots=True)
class Skip:
    kind: ClassVar[str] = "skip"

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Match:
    kind: ClassVar[str] = "match"
    slot: int

    def __str__(self) -> str:
        return f"match {self.slot}"


@dataclass(frozen=True, slots=True)
class End:
    kind: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


DutchAction = (
    Peek
    | CallDutch
    | Draw
    | Take
    | Swap
    | Discard
    | Look
    | JackSwap
    | Seven
    | Nine
    | Skip
    | Match
    | End
)

ACTION_TYPES = (
    Peek, CallDutch, Draw, Take, Swap, Discard, Look, JackSwap, Seven, Nine, Skip, Match, End,
)  # fmt: skip

# Interned instances: the engine's legal-action lists hold these, so membership tests are
# identity checks in the hot path.
CALL_DUTCH = CallDutch()
DRAW = Draw()
TAKE = Take()
DISCARD = Discard()
SKIP = Skip()
END = End()
peek = lru_cache(maxsize=4096)(Peek)
swap = lru_cache(maxsize=4096)(Swap)
look = lru_cache(maxsize=4096)(Look)
jack = lru_cache(maxsize=4096)(JackSwap)
seven = lru_cache(maxsize=4096)(Seven)
nine = lru_cache(maxsize=4096)(Nine)
match = lru_cache(maxsize=4096)(Match)

_SIMPLE: dict[str, DutchAction] = {
    "dutch": CALL_DUTCH,
    "draw": DRAW,
    "take": TAKE,
    "discard": DISCARD,
    "skip": SKIP,
    "end": END,
}


def _number(token: str, text: str) -> int:
    # at most three digits: bounds the numbers a parser accepts (and the interning caches)
    # ASCII only: str.isdigit() also accepts "²", which int() refuses.
    if not (token.isascii() and token.isdigit()) or len(token) > 3:
        raise NotationError(text, f"{token!r} is not a number")
    return int(token)


def _seat_slot(token: str, text: str) -> tuple[int, int]:
    seat, sep, slot = token.partition(":")
    if not sep:
        raise NotationError(text, f"{token!r} should be seat:slot")
    return _number(seat, text), _number(slot, text)


def parse_action(text: str) -> DutchAction:
    """The action written as `text` (raises NotationError, an IllegalAction, if it is not one)."""
    if not isinstance(text, str):
        raise NotationError(repr(text), "not text")
    words = text.strip().lower().split()
    if not words:
        raise NotationError(text, "empty")
    head, args = words[0], words[1:]
    if head in _SIMPLE and not args:
        return _SIMPLE[head]
    if head == "peek" and len(args) == 2:
        a, b = _number(args[0], text), _number(args[1], text)
        return peek(min(a, b), max(a, b))
    if head in ("swap", "seven", "match") and len(args) == 1:
        slot = _number(args[0], text)
        return swap(slot) if head == "swap" else seven(slot) if head == "seven" else match(slot)
    if head == "look" and len(args) == 1:
        return look(*_seat_slot(args[0], text))
    if head == "jack" and len(args) == 2:
        return jack(_number(args[0], text), *_seat_slot(args[1], text))
    if head == "nine" and len(args) == 2:
        own = None if args[0] == "drawn" else _number(args[0], text)
        return nine(own, *_seat_slot(args[1], text))
    raise NotationError(text, "see the Dutch notation")
