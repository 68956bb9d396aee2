"""Why the strong Euchre bot plays what it plays, for a coach's hint (`games.coach`).

It gives its search's estimate of the move (the side's points minus the other side's for the
hand, over the deals it sampled from the seat's view) against the next best move's, and what the
move does to the trick on the table."""

from __future__ import annotations

import random

from games.cards import card
from games.coach import Reason
from games.euchre.actions import EuchreAction
from games.euchre.bots.strong import MAX_SAMPLES, search
from games.euchre.ranking import trick_winner
from games.euchre.round import EuchreRound

BID_KINDS = {"pass": "pass", "order": "order", "call": "call"}
# every reason this module gives (the plug-in words each): what the card does to the trick,
# the bid or discard, each with the search's estimate against the next best move ("_only":
# no other move to weigh), or every card of equal effect
KINDS = (
    "lead",
    "take_trick",
    "partner_holds",
    "cannot_take",
    "same_effect",
    "discard",
    "discard_only",
    "pass",
    "pass_only",
    "order",
    "order_only",
    "order_alone",
    "order_alone_only",
    "call",
    "call_only",
    "call_alone",
    "call_alone_only",
)


def advise(
    round_: EuchreRound, seat: int, rng: random.Random, budget: float | None
) -> tuple[EuchreAction, Reason]:
    """The strong bot's move for `seat` and why (reads only the seat's view)."""
    decision = search(round_, seat, rng, budget=budget, max_samples=MAX_SAMPLES)
    move = decision.action
    view = round_.view(seat)
    fields: dict[str, str | int | float | tuple[str, ...]] = {}
    if len(decision.means) >= 2:
        (_, value), (next_move, next_value) = decision.means[:2]
        fields |= {
            "value": round(value, 2),
            "next": next_move,
            "margin": round(value - next_value, 2),
        }
    elif decision.means:
        fields["value"] = round(decision.means[0][1], 2)
    if move.kind == "play" and move.card is not None:
        fields |= {"card": move.card.code, "trick": len(view.tricks) + 1}
        kind = _play_kind(view.trick, seat, move.card.code, view.trump or "")
    elif move.kind == "discard" and move.card is not None:
        fields["card"] = move.card.code
        kind = "discard"
    else:
        kind = BID_KINDS.get(move.kind, "bid") + ("_alone" if move.alone else "")
    if "next" not in fields:
        kind = "same_effect" if move.kind == "play" else kind + "_only"
    return move, Reason(kind, fields)


def _play_kind(trick: tuple[tuple[int, str], ...], seat: int, code: str, trump: str) -> str:
    """What the card does to the trick on the table: leads it, takes it as it stands, leaves
    it to the partner who holds it, or cannot take it (a card kept back)."""
    if not trick:
        return "lead"
    plays = [(s, card(c)) for s, c in trick] + [(seat, card(code))]
    winner = trick_winner(plays, trump)
    if winner == seat:
        return "take_trick"
    if winner == (seat + 2) % 4:
        return "partner_holds"
    return "cannot_take"
