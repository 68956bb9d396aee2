"""`python -m benchmarks.strength gap GAME`: how far a strong bot is from a much deeper search.

Duplicate deals: each deal (the same shuffled deck, dealer and random draws) is played twice,
once with the reference player (`games.<game>.bots.reference`, a sampled-deal rollout search)
at the even seats and the strong bot at the odd ones, once with the sides swapped, so the cards
favour neither side. A deal's figure is the reference side's advantage per hand over the two
plays, in the game's points: Dutch, the strong seats' mean round score minus the reference
seats' (lower is better there); Dame de Pique, the reference team's hand points minus the
strong team's. Prints its mean over the deals with the 95% interval: above 0, the reference
plays better. The reference's budget is CPU seconds per decision (`--factor`, `--budget`) or
a number of rollouts (`--rollouts`, deterministic); progress goes to stderr, so a long run may
be stopped.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from typing import Any

from benchmarks.strength.stats import default_jobs, mean_interval, run_parallel
from games.contract import RoundSetup
from games.registry import bots_module_name, get_game

GAMES = ("dutch", "dame")
SEATS = 4
PRESETS = {"dutch": "classic", "dame": "standard"}
MAX_ACTIONS = 20_000  # per hand: a guard, not a rule


def seat_players(swapped: bool) -> tuple[str, ...]:
    """Who plays each seat: the reference at the even seats (Dame: team 0) and the strong bot
    at the odd ones, or the other way round in the swapped play."""
    return tuple("reference" if (seat % 2 == 0) != swapped else "strong" for seat in range(SEATS))


def advantage(game: str, points: tuple[int, ...], players: tuple[str, ...]) -> float:
    """The reference side's advantage in one play, in the game's points per hand."""
    if game == "dame":  # points per team; team = seat % 2
        ref_team = players.index("reference") % 2
        return float(points[ref_team] - points[1 - ref_team])
    ref = [p for p, who in zip(points, players, strict=True) if who == "reference"]
    other = [p for p, who in zip(points, players, strict=True) if who == "strong"]
    return sum(other) / len(other) - sum(ref) / len(ref)  # lower is better in Dutch


@dataclass(frozen=True, slots=True)
class Play:
    """One play of a deal: the points, the reference side's advantage, and the CPU seconds and
    count of each side's decisions."""

    points: tuple[int, ...]
    advantage: float
    reference_cpu: float
    reference_decisions: int
    strong_cpu: float
    strong_decisions: int


Chooser = Callable[[Any, int, random.Random], Any]


def play(
    game: str,
    index: int,
    swapped: bool,
    reference: Chooser,
    strong: Chooser,
    preset: str | None = None,
) -> Play:
    """Deal `index` played once, the sides as `seat_players(swapped)` says."""
    rules = get_game(game)
    players = seat_players(swapped)
    rng = random.Random(f"gap-{index}")
    setup = RoundSetup(n_seats=SEATS, dealer=index % SEATS)
    round_ = rules.new_round(rules.options(preset or PRESETS[game]), setup, seed=f"gap-{index}")
    cpu = {"reference": 0.0, "strong": 0.0}
    decisions = {"reference": 0, "strong": 0}
    for _ in range(MAX_ACTIONS):
        if round_.finished:
            break
        seat = round_.to_act()[0]
        who = players[seat]
        started = time.process_time()
        action = (reference if who == "reference" else strong)(round_, seat, rng)
        cpu[who] += time.process_time() - started
        decisions[who] += 1
        round_.apply(seat, action)
    else:
        raise RuntimeError(f"deal {index}: the hand did not end")
    points = tuple(round_.result().points)
    return Play(
        points,
        advantage(game, points, players),
        cpu["reference"],
        decisions["reference"],
        cpu["strong"],
        decisions["strong"],
    )


def _players(game: str, budget: float | None, rollouts: int | None) -> tuple[Chooser, Chooser]:
    reference = import_module(f"games.{game}.bots.reference")
    strong = import_module(bots_module_name(game, "strong"))
    return (
        partial(reference.choose_action, budget=budget, rollouts=rollouts),
        strong.choose_action,
    )


def play_deal(
    index: int, *, game: str, budget: float | None, rollouts: int | None, preset: str | None
) -> tuple[Play, Play]:
    """Deal `index` played twice, the sides swapped."""
    reference, strong = _players(game, budget, rollouts)
    return (
        play(game, index, False, reference, strong, preset),
        play(game, index, True, reference, strong, preset),
    )


def strong_cpu(game: str, hands: int, preset: str | None) -> float:
    """The strong bot's mean CPU seconds per decision (every one, forced ones included), all
    four seats played by it, in this process."""
    _, strong = _players(game, None, None)
    plays = [play(game, -1 - i, False, strong, strong, preset) for i in range(hands)]
    cpu = sum(p.reference_cpu + p.strong_cpu for p in plays)
    return cpu / sum(p.reference_decisions + p.strong_decisions for p in plays)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength gap", description=__doc__)
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--preset", default=None)
    parser.add_argument(
        "--factor",
        type=float,
        default=100.0,
        help="the reference's budget: this times the strong bot's mean CPU per decision, "
        "measured first in this process on --calibrate hands",
    )
    parser.add_argument("--budget", type=float, default=None, help="CPU seconds per decision")
    parser.add_argument(
        "--rollouts", type=int, default=None, help="rollouts per decision instead (deterministic)"
    )
    parser.add_argument("--calibrate", type=int, default=40, help="hands timing the strong bot")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument(
        "--every", type=int, default=10, help="deals between progress lines (to stderr)"
    )
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.deals, args.rollouts, args.calibrate, args.jobs = 1, 4, 1, 1
    started = time.perf_counter()
    per_decision = strong_cpu(args.game, args.calibrate, args.preset)
    budget = args.budget
    if budget is None and args.rollouts is None:
        budget = args.factor * per_decision
    how = f"{args.rollouts} rollouts" if budget is None else f"{budget * 1000:.2f} ms CPU"
    print(
        f"{args.game}: {args.deals} duplicate deals ({args.preset or PRESETS[args.game]}), "
        f"reference ({how} per decision) against the strong bot "
        f"({per_decision * 1000:.3f} ms CPU per decision), {args.jobs} processes"
    )
    work = partial(
        play_deal, game=args.game, budget=budget, rollouts=args.rollouts, preset=args.preset
    )
    deals: list[tuple[Play, Play]] = []
    for first in range(0, args.deals, args.every):
        chunk = range(first, min(args.deals, first + args.every))
        deals += run_parallel(work, chunk, args.jobs)
        if len(deals) < args.deals:  # the figure so far: a long run may be stopped at any time
            print(f"  so far: {_figure(deals, started)}", file=sys.stderr, flush=True)
    print(f"  reference minus strong: {_figure(deals, started)}")


def _figure(deals: list[tuple[Play, Play]], started: float) -> str:
    gaps = [(a.advantage + b.advantage) / 2 for a, b in deals]
    mean, half = mean_interval(gaps)
    plays = [p for pair in deals for p in pair]
    decisions = sum(p.reference_decisions for p in plays)
    ref_cpu = sum(p.reference_cpu for p in plays) / max(1, decisions)
    return (
        f"{mean:+.2f} ± {half:.2f} points per hand (95% interval, {len(gaps)} deals, "
        f"{len(plays)} hands); reference CPU {ref_cpu * 1000:.2f} ms per decision; "
        f"{time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
