"""Dame de Pique bot strength: `python -m benchmarks.strength dame [--matches N] [--jobs N]`.

Plays whole matches to `--target` (1000) between two strong bots (games.dame.bots.strong) and two
simple bots (games.dame.bots.simple, the policy the strong one replaced) and prints the strong
team's match win rate with its Wilson 95% interval, the mean hands per match, and the CPU time
of the strong bots' decisions (every one of them, forced ones included): mean and p99. The strong
team sits at seats 0+2 in even matches and 1+3 in odd ones, and the first dealer turns with the
match number, so neither seat order nor the deal favours a side.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from functools import partial

from benchmarks.strength.stats import default_jobs, percentile, run_parallel, wilson
from games.dame import GAME, DameRound
from games.dame.bots import simple, strong
from games.match import Match

TARGET = 1000
MAX_ACTIONS = 20_000  # per hand: bots always end a hand far sooner (a guard, not a rule)


def play_match(index: int, *, target: int) -> tuple[bool, int, list[float]]:
    """One match; (the strong team won, hands played, the CPU seconds of each of the strong
    bots' decisions)."""
    shift = index & 1
    rng = random.Random(index)
    match = Match(GAME, GAME.options(target=target), 4, first_dealer=index % 4)
    hands = 0
    cpu: list[float] = []
    while not match.finished:
        round_ = match.new_round(seed=f"strength-{index}-{match.round_no}")
        assert isinstance(round_, DameRound)
        for _ in range(MAX_ACTIONS):
            if round_.finished:
                break
            (seat,) = round_.to_act()
            if seat % 2 == shift:
                started = time.process_time()
                action = strong.choose_action(round_, seat, rng)
                cpu.append(time.process_time() - started)
            else:
                action = simple.choose_action(round_, seat, rng)
            round_.apply(seat, action)
        else:
            raise RuntimeError(f"match {index}: a hand did not end")
        match.add_round(round_.result())
        hands += 1
    assert match.winners is not None
    return shift in match.winners, hands, cpu


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength dame")
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--target", type=int, default=TARGET)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.matches, args.target, args.jobs = 1, 50, 1
    started = time.perf_counter()
    work = partial(play_match, target=args.target)
    results = run_parallel(work, range(args.matches), args.jobs)
    wins = sum(1 for won, _, _ in results if won)
    hands = sum(h for _, h, _ in results)
    cpu = [t for _, _, times in results for t in times]
    rate, low, high = wilson(wins, len(results))
    print(
        f"dame: {args.matches} matches to {args.target}, two strong bots against two simple "
        f"bots, {args.jobs} processes, {time.perf_counter() - started:.1f} s"
    )
    print(
        f"  strong team wins {wins}/{len(results)} = {rate:.1%} "
        f"(95% interval {low:.1%} to {high:.1%}); {hands / len(results):.1f} hands per match"
    )
    print(
        f"  strong bots: {len(cpu):,} decisions, CPU {sum(cpu) / len(cpu) * 1000:.3f} ms each "
        f"on average, p99 {percentile(cpu, 0.99) * 1000:.3f} ms, max {max(cpu) * 1000:.3f} ms"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
