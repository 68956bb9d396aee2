"""A stronger Dutch player: expected values from what its seat remembers.

`choose_action(round, seat, rng)` reads only `round.view(seat)` and `knowledge_of(round, seat)`
(the events the seat witnessed), like the simple player of `games.dutch.bots.policy`, and values
every card it does not know at the mean of the cards it has not seen. Then:
- **swaps**: a card goes into the own slot where it gains most (a known card worth more, or an
  unknown slot when the card is below the unknown mean); the discard pile's top is taken when
  it gains enough;
- **powers**: a Queen looks at an own unknown card, else at an opponent's, so that a later Jack
  or 9 has a target; a Jack or 9 gives away the own worst card for an opponent's known lower
  card, or for an unknown one when the worst is well above the mean; a 7 looks at an own card;
- **Dutch**: called when its estimated total is low and below every opponent's estimate by a
  margin that grows with what it does not know and with the price of a failed call (classic
  doubles the total, house adds 20), or once the round has gone on long enough.
"""

from __future__ import annotations

import random

from games.dutch import actions as act
from games.dutch.actions import DutchAction
from games.dutch.bots.policy import SimplePlayer
from games.dutch.knowledge import Knowledge, knowledge_of
from games.dutch.options import DutchOptions
from games.dutch.round import DutchRound
from games.dutch.views import DecisionView, DutchView

TAKE_GAIN = 2.5  # take the discard top when it beats the slot it would replace by this much
UNKNOWN_SWAP_GAIN = 0.5  # swap a card into an unknown slot when it is this far below the mean
BLIND_SWAP_GAIN = 3.0  # give away a known card for an unknown one when this far above the mean
CALL_MAX = 2.0  # never call with an estimated total above this
PATIENCE = 12  # after this many turns per player, call anyway (the simple player: 8)
CALL_MARGIN = 3.0  # below every opponent's estimate by this much (plus the unknown-card slack)
UNKNOWN_SLACK = 2.5  # added to the margin per own unknown card


def choose_action(round_: DutchRound, seat: int, rng: random.Random) -> DutchAction:
    """A move for `seat` from its view and what it remembers (ValueError if it may not act)."""
    view = round_.view(seat)
    if not view.legal:
        raise ValueError(f"seat {seat} may not act now")
    decision = DecisionView.of(view)
    return _Strong(decision, view, knowledge_of(round_, seat), round_.options, rng).choose()


class _Strong(SimplePlayer):
    __slots__ = ("full", "opponents", "options", "penalty")

    def __init__(
        self,
        view: DecisionView,
        full: DutchView,
        knowledge: Knowledge,
        options: DutchOptions,
        rng: random.Random,
    ) -> None:
        super().__init__(view, knowledge, options, rng)
        self.full, self.options = full, options
        self.penalty = options.failed_call  # "double" or "plus_20"
        self.mean = self._unseen_mean()
        # per opponent: (estimated total, its non-empty slots)
        self.opponents: dict[int, tuple[float, tuple[int, ...]]] = {}
        cards = knowledge.cards
        for other in range(view.n_seats):
            if other == self.seat:
                continue
            slots = tuple(s.slot for s in full.grids[other] if not s.empty)
            total = sum(
                self.values[n] if (n := cards.get((other, s))) is not None else self.mean
                for s in slots
            )
            self.opponents[other] = (total, slots)

    def _unseen_mean(self) -> float:
        """The mean value of the cards this seat has not seen in a slot or on the discard top."""
        from games.dutch.game import GAME  # the deck belongs to the game object

        remaining = [self.values[c.name] for c in GAME.deck(self.options)]
        for name in (*self.knowledge.cards.values(), self.view.discard_top, self.view.held):
            if name is not None and self.values[name] in remaining:
                remaining.remove(self.values[name])
        return sum(remaining) / len(remaining) if remaining else self.mean

    # -- estimates ---------------------------------------------------------------------------
    def slot_value(self, slot: int) -> float:
        known = self.known.get(slot)
        return self.mean if known is None else known

    def best_slot_for(self, value: int) -> tuple[int | None, float]:
        """The own slot where a card of this value gains most, and the gain."""
        best, gain = None, 0.0
        for slot in self.own_slots():
            here = self.slot_value(slot)
            margin = here - value - (UNKNOWN_SWAP_GAIN if slot not in self.known else 0.0)
            if margin > gain:
                best, gain = slot, margin
        return best, gain

    def wants_dutch(self) -> bool:
        if act.CALL_DUTCH not in self.legal:
            return False
        if self.knowledge.turns >= PATIENCE * self.view.n_seats:
            return True
        mine = self.estimate()
        if mine > CALL_MAX:
            return False
        margin = CALL_MARGIN + UNKNOWN_SLACK * len(self.unknown)
        if self.penalty == "plus_20":
            margin += 1.0
        return all(total - mine >= margin for total, _ in self.opponents.values())

    # -- decisions ---------------------------------------------------------------------------
    def takes(self, top: str) -> bool:
        _, gain = self.best_slot_for(self.value(top))
        return gain >= TAKE_GAIN

    def drawn(self) -> DutchAction:
        legal = self.legal
        power = self.view.power
        if power == "seven" and self.unknown:
            seven = act.seven(self.unknown[0])
            if seven in legal:
                return seven
        if power == "nine":
            nine = self.give_away(act.nine, legal)
            if nine is not None:
                return nine
        held = self.view.held
        if held is None:  # received unseen for a 9 given away: worth the mean
            slot, gain = self.best_slot_for(round(self.mean))
            if slot is not None and slot in self.known and gain > 0:
                return act.swap(slot)
            return act.DISCARD if act.DISCARD in legal else act.swap(self.own_slots()[0])
        slot, gain = self.best_slot_for(self.value(held))
        if slot is not None and act.swap(slot) in legal:
            return act.swap(slot)
        if act.DISCARD in legal:
            return act.DISCARD
        # Taken from the discard pile: it must go in; the slot where it loses least.
        return act.swap(max(self.own_slots(), key=self.slot_value))

    def power(self) -> DutchAction:
        if self.view.power == "queen":
            if self.unknown:
                return act.look(self.seat, self.rng.choice(self.unknown))
            return self.look_at_opponent()
        jack = self.give_away(act.jack, None)
        return jack if jack is not None else act.SKIP

    def look_at_opponent(self) -> DutchAction:
        """Look at an unknown card of the opponent with the lowest estimate (the one most
        likely to call, and the best source of low cards)."""
        cards = self.knowledge.cards
        for other, (_, slots) in sorted(self.opponents.items(), key=lambda o: o[1][0]):
            for slot in slots:
                if (other, slot) not in cards:
                    look = act.look(other, slot)
                    if look in self.legal:
                        return look
        return act.SKIP

    def give_away(self, make: object, legal: tuple[DutchAction, ...] | None) -> DutchAction | None:
        """A Jack or 9 exchange of the own worst card for a lower one (known, or unknown when the
        worst is well above the mean), or None."""
        legal = self.legal if legal is None else legal
        worst = self.worst_known()
        own_candidates: list[tuple[int, float]] = []
        if worst is not None:
            own_candidates.append((worst[0], float(worst[1])))
        own_candidates += [(slot, self.mean) for slot in self.unknown]
        cards = self.knowledge.cards
        best: tuple[float, DutchAction] | None = None
        for other, (_, slots) in self.opponents.items():
            for target in slots:
                name = cards.get((other, target))
                theirs = self.mean + BLIND_SWAP_GAIN if name is None else self.values[name]
                for slot, mine in own_candidates:
                    gain = mine - theirs
                    if gain <= 0.5:
                        continue
                    action = make(slot, other, target)  # type: ignore[operator]
                    if action in legal and (best is None or gain > best[0]):
                        best = (gain, action)
        return None if best is None else best[1]
