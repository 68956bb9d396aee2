"""Why the strong Dame de Pique bot plays what it plays, for a coach's hint (`games.coach`).

It speaks in the rules' terms and from the seat's view: the points a pack lays and the cards it
leaves in hand, the points in the pile a take brings, what a discard costs, the danger an
opponent's knock holds."""

from __future__ import annotations

import random

from games.cards import Card, card
from games.coach import Reason
from games.dame.actions import (
    ADD,
    ANNOUNCE,
    DISCARD,
    DRAW,
    MELD,
    RANK,
    TAKE,
    DameAction,
    token,
)
from games.dame.bots.strong import _in_danger, choose_action
from games.dame.round import DameRound
from games.dame.rules import IS_WILD, VALUE

# every reason this module gives (the plug-in words each)
KINDS = (
    "pack",
    "pack_wild",
    "pack_danger",
    "add",
    "empties_hand",
    "take",
    "draw_rather",
    "draw_cannot_take",
    "knock",
    "discard",
    "discard_danger",
    "move",
)


def _card(text: str) -> Card:
    """A card a move or a view names (`QS#1`, `QS`, a rank alone: one of that rank)."""
    found = token(text)
    if found.kind == RANK:
        return card(found.key + ("" if found.key == "JK" else "S"))
    return card(found.key)


def _points(texts: tuple[str, ...]) -> int:
    return sum(VALUE[_card(text)] for text in texts)


def _names(texts: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_card(text).name for text in texts)


def advise(
    round_: DameRound, seat: int, rng: random.Random, budget: float | None
) -> tuple[DameAction, Reason]:
    """The strong bot's move for `seat` and why (reads only what the seat may know)."""
    move = choose_action(round_, seat, rng)
    view = round_.view(seat)
    left = len(view.hand) - len(move.cards)
    danger = _in_danger(round_, seat)
    if move.kind in (MELD, ADD):
        wild = sum(1 for text in move.cards if IS_WILD[_card(text)])
        fields: dict[str, str | int | float | tuple[str, ...]] = {
            "cards": _names(move.cards),
            "value": _points(move.cards),
            "left": left,
            "count": len(move.cards),
        }
        if move.kind == ADD:
            fields["rank"] = move.rank
        if left == 0:
            kind = "empties_hand"
        elif danger:
            kind = "pack_danger"  # an opponent may go out first: lay what scores now
        elif move.kind == ADD:
            kind = "add"
        else:
            kind = "pack_wild" if wild else "pack"
        return move, Reason(kind, fields)
    if move.kind == TAKE:
        pile = view.discard
        return move, Reason(
            "take",
            {
                "count": len(pile),
                "value": _points(pile),
                "card": _card(pile[-1]).name if pile else "",
            },
        )
    if move.kind == DRAW:
        pile = view.discard
        may_take = any(a.kind == TAKE for a in round_.legal_actions(seat))
        fields = {"count": len(pile), "value": _points(pile)}
        return move, Reason("draw_rather" if may_take else "draw_cannot_take", fields)
    if move.kind == ANNOUNCE:
        return move, Reason("knock", {"left": len(view.hand)})
    if move.kind == DISCARD:
        dropped = _card(move.cards[0])
        fields = {"card": dropped.name, "value": VALUE[dropped], "left": left}
        return move, Reason("discard_danger" if danger else "discard", fields)
    return move, Reason("move", {})
