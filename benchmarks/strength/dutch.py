"""Dutch bot strength: `python -m benchmarks.strength dutch [--rounds N] [--jobs N]`.

For each preset, 4-player rounds where seat `i % 4` of round `i` is played by the strong player
(games.dutch.bots.strong) and the three others by the simple one (games.dutch.bots.policy), the
dealer turning with the round number; then the same rounds (same seeds) with the simple player in
that seat. Prints the mean round score of that seat in both runs (lower is better), each with its
95% interval, and the difference per round (same deals, so paired), with its interval.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from benchmarks.strength.stats import default_jobs, mean_interval, run_parallel
from games.contract import RoundSetup
from games.dutch import GAME, DutchRound
from games.dutch.bots import policy as simple
from games.dutch.bots import strong

SEATS = 4


def play_round(index: int, *, preset: str, strong_seat: bool) -> int:
    """Points scored in round `index` by seat `index % 4` (strong or simple)."""
    seat_under_test = index % SEATS
    rng = random.Random(index)
    setup = RoundSetup(n_seats=SEATS, dealer=(index // SEATS) % SEATS)
    round_ = GAME.new_round(GAME.options(preset), setup, seed=f"strength-{index}")
    assert isinstance(round_, DutchRound)
    while not round_.finished:
        seat = round_.to_act()[0]
        player = strong if strong_seat and seat == seat_under_test else simple
        round_.apply(seat, player.choose_action(round_, seat, rng))
    return round_.result().points[seat_under_test]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength dutch")
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.rounds, args.jobs = 4, 1
    print(f"dutch: {args.rounds} rounds per line, 4 players, {args.jobs} processes")
    for preset in GAME.presets:
        started = time.perf_counter()
        scores = {}
        for strong_seat in (True, False):
            work = partial(play_round, preset=preset, strong_seat=strong_seat)
            scores[strong_seat] = [
                float(p) for p in run_parallel(work, range(args.rounds), args.jobs)
            ]
        strong_mean, strong_half = mean_interval(scores[True])
        simple_mean, simple_half = mean_interval(scores[False])
        gain, gain_half = mean_interval(
            [a - b for a, b in zip(scores[True], scores[False], strict=True)]
        )
        print(
            f"{preset}: strong {strong_mean:.2f} ± {strong_half:.2f}, simple {simple_mean:.2f} ± "
            f"{simple_half:.2f} points per round (lower is better); strong minus simple on the "
            f"same deals {gain:+.2f} ± {gain_half:.2f}; {time.perf_counter() - started:.0f} s"
        )
