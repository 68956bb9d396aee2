"""Euchre bot strength: `python -m games.strength euchre [--matches N] [--samples N] [--jobs N]`.

Plays whole matches to 10 (`standard` preset) between
1. two search bots (games.euchre.strong) and two simple bots (games.euchre.policy),
2. a mixed team (one search bot, one simple bot) and two simple bots,
and prints each team's match win rate with its Wilson 95% interval. The search team sits at
seats 0+2 in even matches and 1+3 in odd ones, and the first dealer turns with the match
number, so neither seat order nor the deal favours a side.

So that thousands of matches finish in minutes, the search bots here stop at `--samples`
sampled deals per decision instead of the time budget they have at a table (the budget lets
them use several times more), and matches run in `--jobs` processes. `--timing N` instead
times N search decisions at the table's default budget in this process, and prints the
percentiles (p99 must stay under 250 ms on one core).
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from games.euchre import GAME, EuchreRound, strong
from games.euchre import policy as simple
from games.match import Match
from games.strength.stats import default_jobs, percentile, run_parallel, wilson

TARGET = 10


def play_match(index: int, *, searchers: tuple[int, ...], samples: int | None) -> tuple[bool, int]:
    """One match; (the searching team won, number of search decisions). Searchers are given
    for the team at seats 0+2 and moved to 1+3 in odd matches."""
    shift = index & 1
    seats = {(s + shift) & 3 for s in searchers}
    rng = random.Random(index)
    match = Match(GAME, GAME.options(target=TARGET), 4, first_dealer=index % 4)
    decisions = 0
    while not match.finished:
        round_ = match.new_round(seed=f"strength-{index}-{match.round_no}")
        assert isinstance(round_, EuchreRound)
        while not round_.finished:
            (seat,) = round_.to_act()
            if seat in seats:
                action = strong.choose_action(round_, seat, rng, budget=None, max_samples=samples)
                decisions += 1
            else:
                action = simple.choose_action(round_, seat, rng)
            round_.apply(seat, action)
        match.add_round(round_.result())
    assert match.winners is not None
    return shift in match.winners, decisions


def _report(title: str, results: list[object], seconds: float) -> None:
    wins = sum(1 for won, _ in results if won)  # type: ignore[misc]
    decisions = sum(d for _, d in results)  # type: ignore[misc]
    rate, low, high = wilson(wins, len(results))
    print(
        f"{title}: won {wins} of {len(results)} matches to {TARGET}: "
        f"{rate:.1%} (95% interval {low:.1%} to {high:.1%}); "
        f"{decisions:,} search decisions, {seconds:.0f} s"
    )


def _timing(decisions: int) -> None:
    """Decision times of one search bot at the default budget, in this process."""
    times: list[float] = []
    rng = random.Random(0)
    index = 0
    while len(times) < decisions:
        match = Match(GAME, GAME.options(target=TARGET), 4, first_dealer=index % 4)
        while not match.finished and len(times) < decisions:
            round_ = match.new_round(seed=f"timing-{index}-{match.round_no}")
            assert isinstance(round_, EuchreRound)
            while not round_.finished:
                (seat,) = round_.to_act()
                if seat == 0 and len(round_.legal_actions(seat)) > 1:
                    started = time.perf_counter()
                    action = strong.choose_action(round_, seat, rng)
                    times.append(time.perf_counter() - started)
                else:
                    action = simple.choose_action(round_, seat, rng)
                round_.apply(seat, action)
            match.add_round(round_.result())
        index += 1
    print(
        f"search decisions with a choice, budget {strong.DEFAULT_BUDGET * 1000:.0f} ms: "
        f"{len(times)}; p50 {percentile(times, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(times, 0.99) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.strength euchre")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=40, help="sampled deals per decision")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--timing", type=int, default=0, help="time N decisions instead")
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.matches, args.samples, args.jobs = 1, 2, 1
    if args.timing:
        _timing(args.timing)
        return
    print(
        f"euchre: {args.matches} matches per line, search bots at {args.samples} sampled "
        f"deals per decision, {args.jobs} processes"
    )
    for title, searchers in (
        ("two search bots vs two simple bots", (0, 2)),
        ("one search + one simple vs two simple bots", (0,)),
    ):
        started = time.perf_counter()
        work = partial(play_match, searchers=searchers, samples=args.samples)
        results = run_parallel(work, range(args.matches), args.jobs)
        _report(title, results, time.perf_counter() - started)
