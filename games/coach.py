"""A coach's hint: the move the strong bot would make now for a seat, and why (issue #40).

The move is the game's strong bot's for the seat, from the seat's view alone (the same
information the bot uses for its own seat: every strong bot reads only what its seat may
know). The why is a `Reason`, a kind and its fields (cards by code, values), found by the
game's own `games.<game>.bots.explain.advise` from what its search or its rules weighed; the
bot's plug-in words it in the player's language. A game with no `explain` module gives the
strong bot's move with no reason.

`HintStep` is the hint as a piece a bot worker runs (`run(budget)`, a JSON-ready answer).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from games.contract import Round, RoundRecord
from games.registry import bots_module_name, get_game

Field = str | int | float | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move: its `kind` (a key of the game's texts) and the values it names."""

    kind: str
    fields: dict[str, Field] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong bot's move for the seat now (notation), and why (None: no reason found)."""

    move: str
    reason: Reason | None


def advise(
    round_: Round[Any, Any, Any], seat: int, rng: random.Random, budget: float | None
) -> Hint:
    """The hint for `seat`, to act now (ValueError when it may not)."""
    if seat not in round_.to_act() or not round_.legal_actions(seat):
        raise ValueError(f"seat {seat} may not act now")
    game = round_.game.name
    explain = _module(f"games.{game}.bots.explain")
    if explain is not None:
        move, reason = explain.advise(round_, seat, rng, budget)
        return Hint(str(move), reason)
    bot = _module(bots_module_name(game, "strong")) or _module(bots_module_name(game, "simple"))
    if bot is None:
        return Hint(str(round_.legal_actions(seat)[0]), None)
    return Hint(str(bot.choose_action(round_, seat, rng)), None)


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and not name.startswith(error.name):
            raise  # a module it imports is missing: a bug, not a game without it
        return None


def hint_to_json(hint: Hint) -> dict[str, Any]:
    reason = None if hint.reason is None else {"kind": hint.reason.kind, **hint.reason.fields}
    return {"move": hint.move, "reason": reason}


def hint_from_json(data: dict[str, Any]) -> Hint:
    raw = data.get("reason")
    if raw is None:
        return Hint(str(data["move"]), None)
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k != "kind"}
    return Hint(str(data["move"]), Reason(str(raw["kind"]), fields))


@dataclass(frozen=True, slots=True)
class HintStep:
    """`advise` for the round as recorded (its actions so far), run by a bot worker."""

    record: RoundRecord
    seat: int
    seed: int

    def run(self, budget: float | None) -> dict[str, Any]:
        round_ = get_game(self.record.game).replay(self.record)
        return hint_to_json(advise(round_, self.seat, random.Random(self.seed), budget))
