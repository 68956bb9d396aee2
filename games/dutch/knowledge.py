"""What one seat knows of a Dutch round, derived only from the events that seat witnessed.

Following every public move (swaps, Jack and 9 exchanges, matching discards) and its own private
sights (peek, Queen, 7, the card it drew), a seat knows which card lies in which slot. Bot players
and the optional memory aid use this; it never reads the round's hidden state.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import cast

from games.contract import Event
from games.dutch.round import DutchRound

Place = tuple[int, int]  # (seat, slot)


@dataclass(slots=True)
class Knowledge:
    seat: int
    cards: dict[Place, str] = field(default_factory=dict)  # what this seat knows is where
    held: str | None = None  # the turn player's held card, if this seat knows it
    turns: int = 0  # turns begun so far this round
    processed: int = 0  # round events already read

    def known(self, seat: int, slot: int) -> str | None:
        return self.cards.get((seat, slot))

    def update(self, event: Event) -> None:
        """Learn from one event this seat witnessed."""
        kind, data, cards = event.kind, event.data, self.cards
        # the most frequent kinds first; a swap, a Jack, a 9 and a match have an acting seat
        if kind == "turn":
            self.turns += 1
            self.held = None
        elif kind == "draw" or kind == "discard":
            self.held = None
        elif kind == "swap":
            place = (cast(int, event.seat), data["slot"])
            if self.held is None:
                cards.pop(place, None)
            else:
                cards[place] = self.held
            self.held = None
        elif kind == "drawn" or kind == "take" or kind == "seven":
            self.held = data["card"]
        elif kind == "see":
            cards[(data["seat"], data["slot"])] = data["card"]
        elif kind == "jack":
            self._exchange(
                (cast(int, event.seat), data["slot"]), (data["seat"], data["target_slot"])
            )
        elif kind == "nine":
            target = (data["seat"], data["target_slot"])
            if data["slot"] is None:
                received = cards.pop(target, None)
                cards[target] = data["card"]
                self.held = received
            else:
                self._exchange((cast(int, event.seat), data["slot"]), target)
        elif kind == "match":
            place = (cast(int, event.seat), data["slot"])
            if data["ok"]:
                cards.pop(place, None)
            else:
                cards[place] = data["card"]
        elif kind == "round_end":
            for seat, grid in enumerate(data["cards"]):
                for index, name in enumerate(grid):
                    if name is not None:
                        cards[(seat, index + 1)] = name

    def _exchange(self, a: Place, b: Place) -> None:
        cards = self.cards
        first, second = cards.pop(a, None), cards.pop(b, None)
        if second is not None:
            cards[a] = second
        if first is not None:
            cards[b] = first


_CACHE: weakref.WeakKeyDictionary[DutchRound, dict[int, Knowledge]] = weakref.WeakKeyDictionary()


# the event kinds `Knowledge.update` learns from; the others (deal, peek, dutch, look, skip, end,
# penalty, no_penalty, reshuffle) change nothing a seat knows, so the hot loop skips them
_LEARNED_FROM = frozenset((
    "see", "turn", "draw", "drawn", "take", "seven", "swap", "discard", "jack", "nine", "match",
    "round_end",
))  # fmt: skip


def knowledge_of(round_: DutchRound, seat: int) -> Knowledge:
    """What `seat` knows now, from the events visible to it (kept up to date incrementally)."""
    per_seat = _CACHE.get(round_)
    if per_seat is None:
        per_seat = _CACHE[round_] = {}
    knowledge = per_seat.get(seat)
    if knowledge is None:
        knowledge = per_seat[seat] = Knowledge(seat)
    events = round_.events
    if knowledge.processed < len(events):
        update, learned_from = knowledge.update, _LEARNED_FROM
        for event in events[knowledge.processed :]:
            if event.kind in learned_from and (event.to is None or seat in event.to):
                update(event)
        knowledge.processed = len(events)
    return knowledge


def knowledge_from(events: list[Event], seat: int) -> Knowledge:
    """What `seat` knows after these events (those it may not see are ignored)."""
    knowledge = Knowledge(seat)
    for event in events:
        if event.visible_to(seat):
            knowledge.update(event)
    knowledge.processed = len(events)
    return knowledge
