"""Euchre bot strength: `python -m benchmarks.strength euchre [--matches N] [--jobs N]`.

Plays whole matches to 10 (`standard` preset), two search bots (games.euchre.bots.strong) against
two simple bots (games.euchre.bots.policy), once for each version of the search bot (`versions`)
on the same matches (same seeds, seats and dealers), each without the wall-time cap so the run
is reproducible, and prints each version's match win rate with its Wilson 95% interval, the CPU
time its bots spent per decision (forced ones included) and the deals per searched decision
(sampled afresh, carried from an earlier decision). The search team sits at 0+2 in even
matches and 1+3 in odd ones, and the first dealer turns with the match number, so neither
seat order nor the deal favours a side. `--mixed` adds a team of one search bot and one simple
bot; `--timing N` instead times N decisions at the table's defaults; `--positions N` instead
has every version decide at the same positions of N hands, in turn: a comparison the
machine's load does not skew.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial
from typing import Any

from benchmarks.strength.stats import default_jobs, percentile, run_parallel, wilson
from games.contract import RoundSetup
from games.euchre import GAME, EuchreRound
from games.euchre.bots import policy as simple
from games.euchre.bots import strong
from games.match import Match

TARGET = 10


def versions(samples: int) -> dict[str, dict[str, Any]]:
    """The search bot's versions, as keyword arguments of strong.choose_action:

    - `first`: every legal move tried on a fixed number of sampled deals (`--samples`), with no
      shortcut;
    - `sequential`: no search when nothing is to decide, a sequential test stops the sampling;
    - `inferred`: today's bot at its table defaults: as `sequential`, deals drawn within what
      the bids make likely;
    - `reused`: as `inferred`, and the deals of the hand's earlier decisions carried to the
      next ones;
    - `minimal`: as `inferred`, stopped at `MIN_SAMPLES` deals: what the smallest budget gives,
      as the bot workers' pool gives under load.
    """
    return {
        "first": {"budget": None, "max_samples": samples, "sequential": False, "bids": False},
        "sequential": {"budget": None, "bids": False, "reuse": False},
        "inferred": {"budget": None},
        "reused": {"budget": None, "reuse": True},
        "minimal": {"budget": None, "max_samples": strong.MIN_SAMPLES},
    }


def play_match(
    index: int, *, searchers: tuple[int, ...], options: dict[str, Any]
) -> tuple[bool, int, float, int, int, int]:
    """One match; (the searching team won, its bots' decisions, their CPU seconds, searched
    decisions, deals sampled, deals carried). Searchers are given for the team at seats 0+2
    and moved to 1+3 in odd matches."""
    shift = index & 1
    seats = {(s + shift) & 3 for s in searchers}
    rng = random.Random(index)
    match = Match(GAME, GAME.options(target=TARGET), 4, first_dealer=index % 4)
    decisions = searched = sampled = carried = 0
    cpu = 0.0
    while not match.finished:
        round_ = match.new_round(seed=f"strength-{index}-{match.round_no}")
        assert isinstance(round_, EuchreRound)
        while not round_.finished:
            (seat,) = round_.to_act()
            if seat in seats:
                started = time.process_time()
                decision = strong.search(round_, seat, rng, **options)
                cpu += time.process_time() - started
                decisions += 1
                action = decision.action
                if decision.sampled or decision.carried:
                    searched += 1
                    sampled += decision.sampled
                    carried += decision.carried
            else:
                action = simple.choose_action(round_, seat, rng)
            round_.apply(seat, action)
        match.add_round(round_.result())
    assert match.winners is not None
    return shift in match.winners, decisions, cpu, searched, sampled, carried


def _report(title: str, results: list[Any], seconds: float) -> None:
    wins = sum(1 for r in results if r[0])
    decisions, cpu, searched, sampled, carried = (sum(r[i] for r in results) for i in range(1, 6))
    rate, low, high = wilson(wins, len(results))
    print(
        f"{title}: won {wins} of {len(results)} matches to {TARGET}: "
        f"{rate:.1%} (95% interval {low:.1%} to {high:.1%}); {decisions:,} search bot "
        f"decisions, {cpu / max(1, decisions) * 1000:.2f} ms CPU each; {searched:,} searched, "
        f"deals per searched decision: {sampled / max(1, searched):.1f} sampled, "
        f"{carried / max(1, searched):.1f} carried; {seconds:.0f} s"
    )


def _timing(decisions: int) -> None:
    """Decision times of one search bot at the table's defaults, in this process."""
    times: list[float] = []
    cpu = 0.0
    rng = random.Random(0)
    index = 0
    while len(times) < decisions:
        match = Match(GAME, GAME.options(target=TARGET), 4, first_dealer=index % 4)
        while not match.finished and len(times) < decisions:
            round_ = match.new_round(seed=f"timing-{index}-{match.round_no}")
            assert isinstance(round_, EuchreRound)
            while not round_.finished:
                (seat,) = round_.to_act()
                if seat == 0:
                    started, cpu_started = time.perf_counter(), time.process_time()
                    action = strong.choose_action(round_, seat, rng)
                    times.append(time.perf_counter() - started)
                    cpu += time.process_time() - cpu_started
                else:
                    action = simple.choose_action(round_, seat, rng)
                round_.apply(seat, action)
            match.add_round(round_.result())
        index += 1
    print(
        f"search bot decisions (all of one seat's), wall-time cap "
        f"{strong.DEFAULT_BUDGET * 1000:.0f} ms: {len(times)}; CPU {cpu / len(times) * 1000:.2f} "
        f"ms each on average; wall p50 {percentile(times, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(times, 0.99) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
    )


def same_positions(hands: int, chosen: list[str], known: dict[str, dict[str, Any]]) -> None:
    """Every version decides at the same positions: hands of two search bots (the last version
    of `chosen` plays) against two simple bots, each search decision taken by every version in
    turn (in alternating order, each with the same seed), so CPU and deals compare on equal
    footing whatever else the machine runs meanwhile."""
    totals = {name: [0, 0.0, 0, 0, 0] for name in chosen}  # decisions, CPU, searched, deals
    for index in range(hands):
        rng = random.Random(index)
        round_ = GAME.new_round(
            GAME.options(), RoundSetup(n_seats=4, dealer=index % 4), seed=f"positions-{index}"
        )
        assert isinstance(round_, EuchreRound)
        while not round_.finished:
            (seat,) = round_.to_act()
            if seat & 1:
                round_.apply(seat, simple.choose_action(round_, seat, rng))
                continue
            order = chosen if len(round_.history) % 2 else chosen[::-1]
            taken = {}
            for name in order:
                started = time.process_time()
                seed = random.Random(f"{index}-{len(round_.history)}")
                decision = strong.search(round_, seat, seed, **known[name])
                row = totals[name]
                row[0] += 1
                row[1] += time.process_time() - started
                if decision.sampled or decision.carried:
                    row[2] += 1
                    row[3] += decision.sampled
                    row[4] += decision.carried
                taken[name] = decision.action
            round_.apply(seat, taken[chosen[-1]])
    print(f"euchre: the same positions for every version, {hands} hands ({chosen[-1]} plays)")
    for name, (decisions, cpu, searched, sampled, carried) in totals.items():
        print(
            f"{name}: {decisions} decisions, {cpu / max(1, decisions) * 1000:.2f} ms CPU each; "
            f"{searched} searched, deals per searched decision: "
            f"{sampled / max(1, searched):.1f} sampled, {carried / max(1, searched):.1f} carried"
        )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength euchre")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument(
        "--samples", type=int, default=40, help="sampled deals per decision of the first version"
    )
    parser.add_argument("--versions", default="first,sequential,inferred", help="comma-separated")
    parser.add_argument("--mixed", action="store_true", help="also one search + one simple bot")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--timing", type=int, default=0, help="time N decisions instead")
    parser.add_argument(
        "--positions", type=int, default=0, help="instead, every version on the same N hands"
    )
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.matches, args.samples, args.jobs = 1, 2, 1
    if args.timing:
        _timing(args.timing)
        return
    known = versions(args.samples)
    chosen = args.versions.split(",")
    unknown = [name for name in chosen if name not in known]
    if unknown:
        parser.error(f"unknown version {', '.join(unknown)}: choose among {', '.join(known)}")
    if args.positions:
        same_positions(args.positions, chosen, known)
        return
    print(
        f"euchre: {args.matches} matches per line (the same ones on every line), {args.jobs} "
        f"processes; first version at {args.samples} sampled deals per decision"
    )
    teams: list[tuple[str, tuple[int, ...]]] = [("two search bots vs two simple bots", (0, 2))]
    if args.mixed:
        teams.append(("one search + one simple vs two simple bots", (0,)))
    for team, searchers in teams:
        for name in chosen:
            started = time.perf_counter()
            work = partial(play_match, searchers=searchers, options=known[name])
            results = run_parallel(work, range(args.matches), args.jobs)
            _report(f"{name}, {team}", results, time.perf_counter() - started)
