"""A deep search: how far a game's strong bot is from the best the machine can compute.

The figures are in docs/performance.md. Hints and reviews keep the strong bots' moves: no game's
search has yet been measured clearly ahead of its strong bot.

`search(...)` tries each of the seat's offered moves on worlds sampled from what the seat knows
(the game's reference player builds them from the seat's information alone), plays every world
out to the end of the round with a rollout policy for all seats, and keeps the move of best
mean value. The worlds are shared by every move (common random numbers: the same deal of the
hidden cards and the same random draws of the rollouts), so the moves are compared on the same
luck. Moves are eliminated by sequential halving: each round gives the survivors the same number
of new worlds and keeps the better half, so the budget goes to the moves that matter; the
strong bot's move always survives, and the search leaves it only for a move with a better mean
on the same worlds.
"""

from __future__ import annotations

import math
import pickle
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.contract import Round

AnyRound = Round[Any, Any, Any]
Policy = Callable[..., Any]  # (round, seat, rng) -> move
WorldMaker = Callable[[random.Random], AnyRound]
Value = Callable[[AnyRound, int], float]

ROLLOUT_CAP = 5000  # actions played out at most per rollout (a guard: a round ends far sooner)
MIN_WORLDS = 2  # worlds per surviving move in each halving round, at least
SWITCH_Z = 2.0  # standard errors by which a move must beat the strong bot's to be chosen


@dataclass(frozen=True, slots=True)
class Searched:
    """A search's answer: the move, the strong bot's move, their mean values over the same
    worlds, and the rollouts played (0: nothing to search, the strong bot's move)."""

    move: Any
    baseline: Any
    value: float
    baseline_value: float
    rollouts: int


def play_out(
    world: AnyRound, seat: int, move: Any, policy: Policy, value: Value, seed: int
) -> float:
    """`seat` plays `move` in `world` (changed in place), then every seat plays `policy` to the
    end of the round; the round's value for `seat`."""
    world.apply(seat, move)
    rng = random.Random(seed)
    for _ in range(ROLLOUT_CAP):
        if world.finished:
            return value(world, seat)
        who = world.to_act()[0]
        world.apply(who, policy(world, who, rng))
    raise RuntimeError("a rollout did not end")


def search(
    seat: int,
    moves: Sequence[Any],
    baseline: Any,
    make_world: WorldMaker,
    policy: Policy,
    value: Value,
    rng: random.Random,
    *,
    budget: float | None,
    rollouts: int | None = None,
) -> Searched:
    """The move of best mean value among `moves` (distinct; `baseline`, the strong bot's move,
    among them) within `budget` CPU seconds (measured with `time.process_time`) or about
    `rollouts` rollouts, for a deterministic result (tests, reproducible runs); with both None,
    or a single move, no search: the baseline. How it searches is in the module's doc."""
    if len(moves) <= 1 or (budget is None and rollouts is None):
        return Searched(baseline, baseline, 0.0, 0.0, 0)
    started = time.process_time()
    outcomes: list[list[float]] = [[] for _ in moves]  # per move, per world played on it
    base = next(i for i, m in enumerate(moves) if m == baseline)
    alive = list(range(len(moves)))
    rounds = max(1, math.ceil(math.log2(len(moves))))
    played = 0
    planned = rollouts  # rollouts in all: known at once, or from the first world's cost
    for round_no in range(rounds):
        worlds = MIN_WORLDS
        if planned is not None:
            left = max(0, planned - played)
            least = 1 if rollouts is not None else MIN_WORLDS
            worlds = max(least, left // (len(alive) * (rounds - round_no)))
        for _ in range(worlds):
            if budget is not None and played and time.process_time() - started >= budget:
                break
            if rollouts is not None and played >= rollouts:
                break
            world = make_world(rng)
            seed = rng.getrandbits(32)
            for i in alive:
                outcomes[i].append(play_out(_clone(world), seat, moves[i], policy, value, seed))
            played += len(alive)
            if planned is None and budget is not None:
                cost = (time.process_time() - started) / played
                planned = max(played, int(budget / max(cost, 1e-9)))
        if len(alive) > 2:  # keep the better half (and the baseline)
            ranked = sorted(alive, key=lambda i: -sum(outcomes[i]))
            alive = sorted(set(ranked[: math.ceil(len(alive) / 2)]) | {base})
    # the survivors were played on every world so far: their sums compare
    best = max(alive, key=lambda i: (sum(outcomes[i]), i == base))
    if not _clearly_better(outcomes[best], outcomes[base]):
        best = base
    n = max(1, len(outcomes[base]))
    return Searched(moves[best], baseline, sum(outcomes[best]) / n, sum(outcomes[base]) / n, played)


def _clearly_better(move: list[float], baseline: list[float]) -> bool:
    """Does `move` beat `baseline` on the same worlds by more than `SWITCH_Z` standard errors of
    the paired difference? (The strong bot's move is a good prior: a few noisy worlds must not
    turn the search away from it.)"""
    diffs = [a - b for a, b in zip(move, baseline, strict=True)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and mean > SWITCH_Z * math.sqrt(variance / n)


def _clone(world: AnyRound) -> AnyRound:
    return pickle.loads(pickle.dumps(world))  # type: ignore[no-any-return]
