"""A simple, sensible Dutch player, using only the seat's view and knowledge.

`choose_action` plays for bot players, away seats and the benchmark; `default_action` is the
safe move for a timed-out turn (peek the default slots, draw, discard what was drawn, skip
powers, end the turn). Neither reads the round's hidden state: only the seat's
`round.decision_view(seat)` (the part of `round.view(seat)` a decision needs) and
`knowledge_of(round, seat)` (built from the events that seat witnessed).
"""

from __future__ import annotations

import random

from games.cards import JOKER
from games.dutch import actions as act
from games.dutch.actions import DutchAction
from games.dutch.knowledge import Knowledge, knowledge_of
from games.dutch.options import DutchOptions, card_value
from games.dutch.round import DutchRound
from games.dutch.views import DecisionView

CALL_MARGIN = 4  # call Dutch when the estimated total is at most this
LOW_CARD = 3  # a known card this low is worth keeping / taking
HIGH_CARD = 8  # a known own card this high is worth giving away
PATIENCE = 8  # after this many turns per player, call Dutch to finish the round


_TABLES: dict[int, tuple[DutchOptions, dict[str, int], float]] = {}
_TABLES_BY_VALUE: dict[DutchOptions, tuple[dict[str, int], float]] = {}


def _table(options: DutchOptions) -> tuple[dict[str, int], float]:
    """Card values by name, and the deck's mean value, for these options (cached by identity:
    hashing a pydantic model on every lookup would cost more than the policy itself; a new but
    equal options object, e.g. one per round, hashes once)."""
    entry = _TABLES.get(id(options))
    if entry is None or entry[0] is not options:
        table = _TABLES_BY_VALUE.get(options)
        if table is None:
            from games.dutch.game import GAME  # the deck belongs to the game object

            deck = GAME.deck(options)
            values = {c.name: card_value(c, options) for c in deck}
            mean = sum(card_value(c, options) for c in deck) / len(deck)
            if len(_TABLES_BY_VALUE) > 64:
                _TABLES_BY_VALUE.clear()
            table = _TABLES_BY_VALUE[options] = (values, mean)
        if len(_TABLES) > 64:
            _TABLES.clear()
        entry = _TABLES[id(options)] = (options, *table)
    return entry[1], entry[2]


def _rank(name: str) -> str:
    return name if name == JOKER else name[:-1]


def default_action(round_: DutchRound, seat: int) -> DutchAction:
    """The safe move for a timed-out seat (raises ValueError if the seat may not act)."""
    legal = round_.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} may not act now")
    for preferred in (act.peek(3, 4), act.DRAW, act.DISCARD, act.SKIP, act.END):
        if preferred in legal:
            return preferred
    return legal[0]


def choose_action(round_: DutchRound, seat: int, rng: random.Random) -> DutchAction:
    """A sensible move for `seat`, from its view and what it knows (raises ValueError if the
    seat may not act)."""
    view = round_.decision_view(seat)
    if not view.legal:
        raise ValueError(f"seat {seat} may not act now")
    return SimplePlayer(view, knowledge_of(round_, seat), round_.options, rng).choose()


class SimplePlayer:
    """One decision of the simple player, from a seat's decision view and knowledge: `choose()`.
    Public because the strong player (`games.dutch.bots.strong`) is this player with some of its
    judgements replaced: its steps (`value`, `estimate`, `worst_known`, …) are what it builds
    on."""

    __slots__ = (
        "knowledge", "known", "legal", "mean", "rng", "seat", "unknown", "values", "view", "worst",
    )  # fmt: skip

    def __init__(
        self, view: DecisionView, knowledge: Knowledge, options: DutchOptions, rng: random.Random
    ) -> None:
        self.view, self.knowledge, self.rng = view, knowledge, rng
        values, self.mean = _table(options)
        self.values = values
        self.seat = seat = view.viewer
        self.legal = view.legal
        self.known: dict[int, int] = {}  # own slot -> value
        self.unknown: list[int] = []
        self.worst: tuple[int, int] | None = None  # worst_known(), once computed
        cards = knowledge.cards
        for slot in view.own_slots:
            name = cards.get((seat, slot))
            if name is None:
                self.unknown.append(slot)
            else:
                self.known[slot] = values[name]

    def value(self, name: str) -> int:
        return self.values[name]

    def estimate(self) -> float:
        return sum(self.known.values()) + len(self.unknown) * self.mean

    def wants_dutch(self) -> bool:
        if act.CALL_DUTCH not in self.legal:
            return False
        if self.knowledge.turns >= PATIENCE * self.view.n_seats:
            return True
        return len(self.unknown) <= 1 and self.estimate() <= CALL_MARGIN

    def worst_known(self) -> tuple[int, int] | None:
        if not self.known:
            return None
        if self.worst is None:  # asked up to three times per decision
            slot = max(self.known, key=self.known.__getitem__)
            self.worst = slot, self.known[slot]
        return self.worst

    def matching_slot(self) -> DutchAction | None:
        top = self.view.discard_top
        if top is None:
            return None
        rank = _rank(top)
        cards, seat = self.knowledge.cards, self.seat
        for slot in self.known:
            name = cards.get((seat, slot))
            if name is not None and _rank(name) == rank:
                action = act.match(slot)
                if action in self.legal:
                    return action
        return None

    def choose(self) -> DutchAction:
        phase = self.view.phase
        if phase == "peek":
            default = act.peek(3, 4)
            return default if default in self.legal else self.legal[0]
        if phase == "start":
            return self.start()
        if phase == "drawn":
            return self.drawn()
        if phase == "power":
            return self.power()
        return self.end()

    def start(self) -> DutchAction:
        if self.wants_dutch():
            return act.CALL_DUTCH
        laid = self.matching_slot()
        if laid is not None:
            return laid
        top = self.view.discard_top
        if act.TAKE in self.legal and top is not None and self.takes(top):
            return act.TAKE
        if act.DRAW in self.legal:
            return act.DRAW
        return self.legal[0]

    def takes(self, top: str) -> bool:
        """Take the discard's top card (by name) rather than draw? A low card, with a card
        unknown or a worse one known to swap it for."""
        worst = self.worst_known()
        top_value = self.value(top)
        return top_value <= LOW_CARD and bool(self.unknown or (worst and worst[1] > top_value))

    def drawn(self) -> DutchAction:
        legal = self.legal
        power = self.view.power  # a 7 or 9 action is legal only with its power pending
        if power == "seven" and self.unknown and act.seven(self.unknown[0]) in legal:
            return act.seven(self.rng.choice(self.unknown))
        nine = self.nine() if power == "nine" else None
        if nine is not None:
            return nine
        held = self.view.held
        worst = self.worst_known()
        if held is None:  # received unseen for a 9 given away
            return act.DISCARD if act.DISCARD in legal else act.swap(self.own_slots()[0])
        held_value = self.value(held)
        if worst is not None and worst[1] > held_value:
            return act.swap(worst[0])
        if self.unknown and held_value <= LOW_CARD:
            return act.swap(self.rng.choice(self.unknown))
        if act.DISCARD in legal:
            return act.DISCARD
        if self.unknown:
            return act.swap(self.rng.choice(self.unknown))
        return act.swap(worst[0] if worst else self.own_slots()[0])

    def own_slots(self) -> tuple[int, ...]:
        return self.view.own_slots

    def nine(self) -> DutchAction | None:
        worst = self.worst_known()
        if worst is None or worst[1] < HIGH_CARD:
            return None
        for (seat, slot), name in self.knowledge.cards.items():
            if seat != self.seat and self.value(name) <= LOW_CARD:
                action = act.nine(worst[0], seat, slot)
                if action in self.legal:
                    return action
        return None

    def power(self) -> DutchAction:
        if self.view.power == "queen":
            if self.unknown:
                return act.look(self.seat, self.rng.choice(self.unknown))
            return act.SKIP
        worst = self.worst_known()
        if worst is None or worst[1] < HIGH_CARD:
            return act.SKIP
        targets = [a for a in self.legal if isinstance(a, act.JackSwap) and a.slot == worst[0]]
        low = [
            a
            for a in targets
            if (name := self.knowledge.known(a.seat, a.target_slot)) and self.value(name) < worst[1]
        ]
        unknown = [a for a in targets if self.knowledge.known(a.seat, a.target_slot) is None]
        pool = low or unknown
        return self.rng.choice(pool) if pool else act.SKIP

    def end(self) -> DutchAction:
        laid = self.matching_slot()
        if laid is not None:
            return laid
        if self.wants_dutch():
            return act.CALL_DUTCH
        return act.END if act.END in self.legal else self.legal[0]
