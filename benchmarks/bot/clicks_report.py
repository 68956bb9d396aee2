"""What `python -m benchmarks.bot` (clicks.py) prints for one load level.

It prints the clicks of the tables of humans by game, and the tables of bot players (their
humans' clicks, the bots' moves that follow, the workers' decisions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchmarks.bot.latency import percentile
from games.registry import game_names

if TYPE_CHECKING:
    from benchmarks.bot.clicks import Bench, Level, Window
    from bot.runtime.pool_terms import PoolStats


def report(level: Level, bench: Bench, window: Window) -> list[str]:
    timed = bench.timed
    everything = sorted(x for values in timed.by_group.values() for x in values)
    answered = len(everything)
    done = bench.answered_in_window  # whenever they arrived (overload: before the window)
    lines = [
        f"  tables of humans: asked {level.rate:,.0f} clicks/s; offered "
        f"{(bench.offered - bench.missed) / level.seconds:,.1f}/s ({bench.missed} arrivals found "
        f"no player free to click), answered {answered / level.seconds:,.1f}/s "
        f"({answered:,} clicks, {timed.errors} refused, {timed.rounds} rounds over)",
        f"  CPU of this process {window.cpu / max(done, 1) * 1e3:.3f} ms per click of any "
        f"table answered in the window ({done:,}, {done / window.wall:,.1f}/s; "
        f"{window.cpu / window.wall:.0%} of a core); full collections: "
        f"{len(window.pauses)}, longest {max(window.pauses, default=0.0) * 1e3:.1f} ms, total "
        f"{sum(window.pauses) * 1e3:.1f} ms; store write p99 "
        f"{percentile(sorted(timed.store_waits), 0.99) * 1e3:.2f} ms",
        f"  {'clicks of':<12} {'clicks':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    groups = [("all", everything)]
    for name in sorted(timed.by_group, key=_group_order):
        groups.append((name, sorted(timed.by_group[name])))
    lines += _latency_rows(groups)
    return lines


def report_bots(
    level: Level,
    bench: Bench,
    window: Window,
    before: PoolStats,
    after: PoolStats,
    workers: int,
    waits: dict[str, list[float]],
) -> list[str]:
    """The tables of bot players: the human's clicks, the wait for the bots' moves after a
    click, the workers' decisions per second of CPU, the decisions played simply, and how
    busy the workers were."""
    if not level.bot_tables:
        return []
    timed = bench.bot_timed
    clicks = sorted(x for values in timed.by_group.values() for x in values)
    lines = [
        f"  tables of bots: {len(clicks):,} clicks of their humans ({timed.errors} refused, "
        f"{timed.rounds} rounds over), one every {level.bot_think:g} s "
        f"(± {level.bot_think_spread:.0%}) of a human's turn; "
        f"{workers} worker process(es)",
        f"  {'human clicks':<12} {'clicks':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    lines += _latency_rows([("all", clicks)])
    lines += _latency_rows(
        [(name, sorted(timed.by_group[name])) for name in sorted(timed.by_group, key=_group_order)]
    )
    lines.append(f"  {'bots moved':<12} {'clicks':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    follows = sorted(x for values in bench.follows.values() for x in values)
    lines += _latency_rows([("all", follows)])
    lines += _latency_rows(
        [(name, sorted(bench.follows[name])) for name in sorted(bench.follows, key=_group_order)]
    )
    if bench.hints:  # the coach's hints the humans asked before their clicks
        hints = sorted(x for values in bench.hint_times.values() for x in values)
        lines.append(
            f"  {'hints':<12} {'asked':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
            f"  ({bench.hint_refusals} refused in the whole run)"
        )
        lines += _latency_rows([("all", hints)])
        lines += _latency_rows(
            [
                (name, sorted(bench.hint_times[name]))
                for name in sorted(bench.hint_times, key=_group_order)
            ]
        )
    lines.append(f"  {'decisions':<12} {'searched':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    lines += _latency_rows(
        [(name, sorted(waits[name])) for name in sorted(waits, key=_group_order)]
    )
    games = after.decided.keys() | after.forced.keys() | after.here.keys()
    for game in sorted(games, key=_group_order):
        decided = after.decided[game] - before.decided[game]
        forced = after.forced[game] - before.forced[game]
        here = after.here[game] - before.here[game]
        cpu = after.cpu[game] - before.cpu[game]
        lines.append(
            f"  {game}: {decided / window.wall:,.1f} bot decisions/s by the workers, "
            f"{decided / cpu if cpu > 0 else 0.0:,.1f} per second of a worker's CPU "
            f"({cpu / max(decided, 1) * 1e3:.2f} ms each); {here / window.wall:,.1f}/s decided "
            f"here (a heuristic: no search), {forced / window.wall:,.1f}/s forced (one legal "
            "move)"
        )
    fallbacks = after.fallbacks - before.fallbacks
    lines.append(
        f"  played by the simple policy instead: {sum(fallbacks.values())} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(fallbacks.items())) or 'none'}); "
        f"late answers {after.late - before.late}, workers replaced "
        f"{after.replaced - before.replaced}; the workers were busy deciding "
        f"{(after.busy - before.busy) / (window.wall * workers):.0%} of the window"
    )
    sent = after.sent - before.sent
    lines.append(
        f"  sent to the workers: {sent:,} decisions, "
        f"{(after.sent_bytes - before.sent_bytes) / max(sent, 1):,.0f} bytes each on average"
    )
    return lines


def _latency_rows(groups: list[tuple[str, list[float]]]) -> list[str]:
    return [
        f"  {name:<12} {len(values):>8} {percentile(values, 0.5) * 1e3:>8.2f} "
        f"{percentile(values, 0.99) * 1e3:>8.2f} {values[-1] * 1e3:>8.2f}"
        for name, values in groups
        if values
    ]


def _group_order(name: str) -> tuple[int, str]:
    order = game_names()
    base = name.split()[0]
    return (order.index(base) if base in order else len(order), name)
