"""Why the strong Dutch player plays what it plays, for a coach's hint (`games.coach`).

It gives its own estimates, from what the seat remembers (`games.dutch.knowledge`): the expected
value of the hand (known cards at their value, unknown ones at the mean of the cards not seen)
before and after the move, the card's value against the slot it replaces, the opponents'
estimates when it calls Dutch."""

from __future__ import annotations

import random

from games.coach import Reason
from games.dutch.actions import DutchAction, Match, Swap
from games.dutch.bots.strong import _Strong
from games.dutch.knowledge import knowledge_of
from games.dutch.round import DutchRound
from games.dutch.views import DecisionView

Fields = dict[str, str | int | float | tuple[str, ...]]
# every reason this module gives (the plug-in words each)
KINDS = (
    "swap_unknown",
    "swap_known",
    "swap_blind",
    "discard",
    "take",
    "draw",
    "call",
    "match",
    "power",
    "plain",
)


def advise(
    round_: DutchRound, seat: int, rng: random.Random, budget: float | None
) -> tuple[DutchAction, Reason]:
    """The strong bot's move for `seat` and why (reads only what the seat knows)."""
    view = round_.view(seat)
    player = _Strong(DecisionView.of(view), view, knowledge_of(round_, seat), round_.options, rng)
    move = player.choose()
    before = round(player.estimate(), 1)
    kind = move.kind
    fields: Fields = {"estimate": before}
    if isinstance(move, Swap):
        slot = move.slot
        held = view.held
        if held is not None:
            value = player.value(held)
            after = round(player.estimate() - player.slot_value(slot) + value, 1)
            fields |= {"card": held, "value": value, "slot": slot, "after": after}
            unknown = slot not in player.known
            return move, Reason("swap_unknown" if unknown else "swap_known", fields)
        return move, Reason("swap_blind", fields | {"slot": slot})
    if kind == "discard" and view.held is not None:
        fields |= {"card": view.held, "value": player.value(view.held)}
        return move, Reason("discard", fields)
    if kind == "take" and view.discard_top is not None:
        into, gain = player.best_slot_for(player.value(view.discard_top))
        fields |= {"card": view.discard_top, "value": player.value(view.discard_top)}
        fields |= {"gain": round(gain, 1), "slot": into or 0}
        return move, Reason("take", fields)
    if kind == "draw" and view.discard_top is not None:
        fields |= {"card": view.discard_top, "value": player.value(view.discard_top)}
        return move, Reason("draw", fields)
    if kind == "dutch":
        lowest = min((total for total, _ in player.opponents.values()), default=0.0)
        fields["opponents"] = round(lowest, 1)
        return move, Reason("call", fields)
    if isinstance(move, Match):
        fields["slot"] = move.slot
        return move, Reason("match", fields)
    return move, Reason("power" if kind in ("look", "seven", "jack", "nine") else "plain", fields)
