"""`python -m benchmarks.bot`: clicks at a steady rate on many tables, timed as Discord sees them.

Does the bot keep its targets (below) on a small machine? Two kinds of tables play at once on a
real store (a temporary SQLite file, synchronous=FULL) with the real clock, games in turn:
tables of four "humans" clicking at a fixed rate (`--tables`, `--rate`), and tables of one
human and three bot players thinking in worker processes as in the real bot (`--bot-tables`).
A click is timed from its arrival time until its answer is ready to send, so a click that
waits behind another (or behind a garbage collection) counts the wait. What a click does is
what the bot does for a Discord click, short of the network: the table service's `act`, then
the clicker's "My cards" answer (a table verb: the table message) rendered into a Discord view
and payload; the glue's background work runs on the same loop (discord_path.py). Left out:
Discord's HTTP calls and discord.py's parsing of the interaction. The figures measured with
it, each with its date, machine and command, are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import random
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.bot.clicks_report import report, report_bots
from benchmarks.bot.discord_path import LANGUAGE, BenchNotifier, payload
from benchmarks.bot.hints import HINTS_HELP, ask_hint
from benchmarks.bot.latency import percentile
from benchmarks.bot.set_up import BIG_HAND, PLAYERS_PER_TABLE, HeldClock, Table, open_tables
from bot.render.private import render_private
from bot.render.table import render_table
from bot.runtime import priority
from bot.runtime.pool_terms import SEARCHED
from bot.runtime.runner import ProcessPolicyRunner
from bot.service import (
    FINISHED,
    PLAYING,
    ROUND_OVER,
    SystemClock,
    TableError,
    TableService,
)
from bot.ui.message_pictures import DRAWERS
from games.registry import game_names, get_game
from storage import Store

PLAYED_ONCE_SECONDS = 600.0  # the window opens then even if some table was never clicked
SET_UP, WARM_UP, WINDOW = PHASES = ("set-up", "warm-up", "window")


@dataclass(slots=True)
class Click:
    """The next click of a table, chosen when its previous click was answered."""

    table_id: int
    user_id: int
    verb: str  # "act", "next", "rematch"
    round_no: int | None = None
    notation: str = ""
    ready_at: float = 0.0  # the player may click from then on (reading time after an answer)


@dataclass(slots=True)
class Timed:
    """Latencies of the measured window, by group."""

    by_group: dict[str, list[float]] = field(default_factory=dict)
    store_waits: list[float] = field(default_factory=list)
    errors: int = 0
    rounds: int = 0

    def add(self, group: str, latency: float) -> None:
        self.by_group.setdefault(group, []).append(latency)


EPILOG = """\
It prints, per count of tables of humans: the rate asked, offered (issued) and answered;
p50/p99/max per click for all clicks and per game (Dame clicks with a hand of 40 cards or more
also apart); the p99 of the durable write alone (`store99`: fsync jitter shows there); the full
(generation 2) collections in the measured window, their count, longest and total time; CPU per
click answered in the window, whenever it arrived (under overload the clicks arriving in the
window are answered after it, and its CPU goes to earlier ones), of this whole process
(service, engine, renders, notifier, SQLite thread, the policy choosing the clicks, sending
rounds to the bot workers). For the tables of bots: the human's click p50/p99, the time from a
click to the last of the bots' moves that follow it (p50/p99), the time from a decision's
asking to its answer by a worker (p50/p99 per game: its waits in the pool's and the worker's
queues and its search), bot decisions per second and per second of a worker's CPU for each
game, and those decided in this process (a heuristic, no search) or forced (one legal move),
the decisions the simple policy played instead (by reason: `overload`, `deadline`, ...) and the
share of the window the workers spent deciding (wall time, as they report it). Then the turns
that timed out in the set-up (none: the clock is held), the warm-up and the window, and apart
from them the seats of the humans' tables handed to bots after two timeouts, when the window
opens and at its end; and what the service's occasional full collection
(`bot/runtime/long_lived.py`) costs with that many tables.

Targets: at 10,000 tables of humans and 1,000 clicks/s, p99 < 25 ms and max < 100 ms on one
core (`taskset -c 0 python -m benchmarks.bot --tables 10000 --bot-tables 0 --seconds 60`); on
two cores, 1,000 tables of bots (a third each game) with their humans at a 5 s pace: click p99
< 25 ms, bots' moves after a click p99 < 1 s, no fallback (`python -m benchmarks.bot --tables 0
--bot-tables 1000`).
"""


class Bench:
    """The tables and their clicks.

    The humans' load is open-loop: a scheduler issues clicks at exactly `--rate` clicks per
    second (the arrival times are fixed in advance), each on the table waiting longest among
    those whose player may click (a table is clickable again `think` s after its last click is
    answered); their clicks are the simple bot policy's choices, chosen when the table's
    previous click is answered, outside the timing. The human of a table of bots clicks
    `bot_think` s after their turn comes, which is once the bots' moves that follow their last
    click are all played; each wait is drawn within ±`bot_think_spread` of it, as people do not
    click in step.
    """

    def __init__(
        self,
        service: TableService,
        notifier: BenchNotifier,
        think: float,
        bot_think: float = 5.0,
        bot_think_spread: float = 0.0,
    ) -> None:
        self.service = service
        self.notifier = notifier
        self.think = think
        self.bot_think = bot_think  # the human's pace at a table of bot players
        # each of their waits drawn within bot_think * (1 ± spread): people do not click in step
        self.bot_think_spread = bot_think_spread
        self.tables: dict[int, Table] = {}
        self.ready: deque[Click] = deque()
        self.measuring = False
        # clicks answered while the window lasts, whenever they arrived: what its CPU did (under
        # overload most arrived before it, and those arriving in it are answered after it)
        self.answered_in_window = 0
        self.timed = Timed()  # clicks at the tables of four humans
        self.bot_timed = Timed()  # the human's clicks at the tables of bot players
        self.follows: dict[str, list[float]] = {}  # game -> click to the bots' last move
        self.hints = 0.0  # `--hints`: the share of the moves of a bot table's human (hints.py)
        self.hint_times: dict[str, list[float]] = {}  # game -> asked to answered, in the window
        self.hint_refusals = 0
        self.rng = random.Random(1)
        self.in_flight: set[asyncio.Task[None]] = set()
        self.measure_from = float("inf")  # clicks arriving from then on are measured
        self.measure_until = float("inf")  # and until then
        self.offered = 0  # arrivals in the measured window
        self.missed = 0  # of which found no player free to click
        self.unplayed: set[int] = set()  # tables not clicked yet: the window waits for them
        self.played = asyncio.Event()  # set once every table was clicked
        self.phase = SET_UP  # then WARM_UP, then WINDOW
        self.timeouts = dict.fromkeys(PHASES, 0)  # turns timed out, by phase

    def measured(self, arrival: float) -> bool:
        return self.measure_from <= arrival < self.measure_until

    def _clicked(self, table_id: int) -> None:
        self.unplayed.discard(table_id)
        if not self.unplayed:
            self.played.set()

    def next_click(self, table: Table) -> Click | None:
        service = self.service
        try:
            snapshot = service.public_snapshot(table.table_id)
        except TableError:
            return None
        if snapshot.status == ROUND_OVER:
            return Click(table.table_id, snapshot.host_id, "next")
        if snapshot.status == FINISHED:
            return Click(table.table_id, snapshot.host_id, "rematch")
        if snapshot.status != PLAYING or not snapshot.to_act or snapshot.round_no is None:
            return None
        seat = next((s for s in snapshot.to_act if snapshot.seats[s].user_id is not None), None)
        if seat is None:
            return None  # the bot players' turn
        user_id = snapshot.seats[seat].user_id
        assert user_id is not None
        notation = service.bot_choice(
            table.table_id, user_id, self.rng, choose=table.chooser.get(seat)
        )
        if notation is None:
            return None
        return Click(table.table_id, user_id, "act", snapshot.round_no, notation)

    def requeue(self, table_id: int) -> None:
        click = self.next_click(self.tables[table_id])
        if click is None:  # nothing to click now (a timer's move pending): look again soon
            asyncio.get_running_loop().call_later(0.05, self.requeue, table_id)
            return
        click.ready_at = time.perf_counter() + self.think
        self.ready.append(click)

    async def click(self, click: Click, arrival: float) -> None:
        """A click at a table of four humans, from its arrival; then its next one waits."""
        await self.answer(click, arrival, self.timed)
        self.requeue(click.table_id)

    async def answer(self, click: Click, arrival: float, timed: Timed) -> None:
        """Answer a click as the bot does, timed from its arrival if it is in the window."""
        service, table = self.service, self.tables[click.table_id]
        group = table.game
        measured = self.measured(arrival)
        try:
            # as the controller: the player's followed message is left to the answer
            with self.notifier.follower.answering(click.table_id, click.user_id):
                if click.verb == "act":
                    assert click.round_no is not None
                    result = await service.play.act(
                        click.table_id, click.user_id, click.round_no, click.notation
                    )
                    public = service.public_snapshot(click.table_id)
                    rendered = render_private(result.private, public, LANGUAGE)
                    payload(rendered)
                    message = self.notifier.message_of(click.table_id, click.user_id)
                    self.notifier.answered(message, rendered)
                    self.notifier.follow(result.private, click.user_id)
                    view = result.private.view
                    hand = getattr(view, "hand", ())
                    if group == "dame" and len(hand) >= BIG_HAND:
                        group = f"dame {BIG_HAND}+"
                    if result.round_over and measured:
                        timed.rounds += 1
                else:
                    if click.verb == "next":
                        await service.play.next_round(click.table_id, click.user_id)
                    else:
                        await service.seating.rematch(click.table_id, click.user_id)
                        await service.seating.start(click.table_id, click.user_id)
                    rendered = render_table(service.public_snapshot(click.table_id), LANGUAGE)
                    payload(rendered)
                    self.notifier.pictures.answer(click.table_id, rendered)
        except TableError:  # a timer was first (a Dutch peek's time ran out): refused
            timed.errors += measured  # in one sentence, timed like any other answer
        if measured:
            timed.add(group, time.perf_counter() - arrival)
        self.answered_in_window += self.measuring
        self._clicked(click.table_id)

    async def play_with_bots(self, table: Table) -> None:
        """The human of a table of bot players: clicks `bot_think` s after their turn comes
        (the bots' moves that follow each click all played), for as long as the run lasts."""
        service = self.service
        while True:
            await service.followup.settle(table.table_id)  # the bots' moves owed, if any
            spread = self.bot_think_spread
            await asyncio.sleep(self.bot_think * self.rng.uniform(1 - spread, 1 + spread))
            click = self.next_click(table)
            if click is None:  # not the human's turn yet (a timer's move pending)
                continue
            if self.hints and click.verb == "act" and self.rng.random() < self.hints:
                await ask_hint(self, table.table_id, table.game, click.user_id, click.round_no)
            arrival = time.perf_counter()
            await self.answer(click, arrival, self.bot_timed)
            if service.followup.pending(table.table_id):
                await service.followup.settle(table.table_id)
                if self.measured(arrival):
                    follows = self.follows.setdefault(table.game, [])
                    follows.append(time.perf_counter() - arrival)

    async def offer(self, rate: float) -> None:
        """Issue clicks at `rate` per second until the window ends (open loop)."""
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        issued = 0
        while True:
            arrival = start + issued / rate
            if arrival >= self.measure_until:
                return
            now = time.perf_counter()
            if arrival > now:
                await asyncio.sleep(arrival - now)
                continue
            issued += 1
            measured = arrival >= self.measure_from
            self.offered += measured
            if not self.ready or self.ready[0].ready_at > now:
                self.missed += measured  # no player may click now: the offered load falls short
                continue
            task = loop.create_task(self.click(self.ready.popleft(), arrival))
            self.in_flight.add(task)
            task.add_done_callback(self.in_flight.discard)


def time_record_action(store: Store, timed: Callable[[], Timed], measuring: Any) -> None:
    """Measure the durable write inside each click, to tell the store's share of the tail."""
    record = store.record_action

    async def timed_record(
        table_id: int, round_no: int, seq: int, seat: int, notation: str
    ) -> None:
        started = time.perf_counter()
        await record(table_id, round_no, seq, seat, notation)
        if measuring():
            timed().store_waits.append(time.perf_counter() - started)

    store.record_action = timed_record  # type: ignore[method-assign]


class FullCollections:
    """Times every generation-2 collection while active (gc.callbacks)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __enter__(self) -> FullCollections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)


@dataclass(frozen=True, slots=True)
class Level:
    tables: int
    rate: float
    seconds: float
    warmup: float
    think: float
    games: tuple[str, ...]
    hoarders: float
    grown: int
    bot_tables: int = 0
    bot_think: float = 5.0
    bot_think_spread: float = 0.0
    bots: str = "strong"
    workers: int | None = None
    pictures: bool = True
    hints: float = 0.0  # the tables of bots are coached: the share of moves asked a hint first


def count_timeouts(service: TableService, bench: Bench) -> None:
    """Count the turns that time out (a seat the timer plays), by phase of the run."""
    time_out = service.timers._time_out

    async def counted(table: Any, seat: int) -> None:
        bench.timeouts[bench.phase] += 1
        await time_out(table, seat)

    service.timers._time_out = counted  # type: ignore[method-assign]


class DecisionWaits:
    """The pool's observer: how long each decision a worker answered in the window took from
    being asked (its wait in the queues and its search), per game."""

    def __init__(self) -> None:
        self.measuring = False
        self.by_game: dict[str, list[float]] = {}

    def decision(self, game: str, seconds: float, how: str = SEARCHED) -> None:
        if self.measuring and how == SEARCHED:
            self.by_game.setdefault(game, []).append(seconds)

    def worker_restarted(self) -> None:
        pass


async def run_level(level: Level, store_dir: Path | None) -> list[str]:
    """One run at `level`, its report's lines.

    Every table is seated first and all are started in one pass (set_up.py), the service's
    clock held meanwhile: no timer fires during the set-up, however long seating 10,000 tables
    takes, and every turn's timer counts from the moment the clicks begin; the notifier is quiet
    meanwhile (the set-up's renders are not measured). The measured window opens once every
    table has been clicked once, and at least the warm-up after the clicks began.
    """
    with tempfile.TemporaryDirectory(dir=store_dir) as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        seeds = itertools.count(1)
        notifier = BenchNotifier(pictures=level.pictures)
        # as the bot: bot players think in worker processes (started now, not in the window)
        waits = DecisionWaits()
        runner = ProcessPolicyRunner(level.workers, observer=waits)
        runner.warm()
        # time stands still for the service while the tables are set up: no turn times out
        clock = HeldClock(SystemClock())
        clock.hold()
        service = TableService(store, clock, notifier, lambda: next(seeds), policy_runner=runner)
        notifier.service = service
        bench = Bench(service, notifier, level.think, level.bot_think, level.bot_think_spread)
        bench.hints = level.hints
        time_record_action(store, lambda: bench.timed, lambda: bench.measuring)
        count_timeouts(service, bench)
        players: list[asyncio.Task[None]] = []
        loop = asyncio.get_running_loop()
        try:
            set_up = time.perf_counter()
            await open_tables(
                bench,
                level.tables,
                list(level.games),
                level.hoarders,
                level.grown,
                level.bot_tables,
                level.bots,
                coach=level.hints > 0,
            )
            seated = time.perf_counter() - set_up
            bench.phase = WARM_UP
            clock.release()  # the turns' timers count from now
            players = [
                loop.create_task(bench.play_with_bots(table))
                for table in bench.tables.values()
                if table.bots
            ]
            offer = loop.create_task(bench.offer(level.rate)) if level.tables else None
            # the window opens once every table was clicked once, after the warm-up
            started = time.perf_counter()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(bench.played.wait(), PLAYED_ONCE_SECONDS)
            await asyncio.sleep(max(0.0, started + level.warmup - time.perf_counter()))
            unplayed = len(bench.unplayed)
            warm = time.perf_counter() - started
            away_before = away_seats(bench)
            bench.phase = WINDOW
            bench.measure_from = time.perf_counter()
            until = bench.measure_until = bench.measure_from + level.seconds
            before = runner.stats.copy()
            waits.measuring = True
            window = await _measure_window(bench, until)
            waits.measuring = False
            after = runner.stats.copy()
            if offer is not None:
                await offer
            pictures = notifier.pictures
            drawn, draws = pictures.draws, sorted(notifier.draw_times)
            uploads, kept = pictures.uploads, pictures.kept
            await asyncio.gather(*bench.in_flight)
            away = away_seats(bench)
            full_collection = time_full_collection()
            lines = [
                f"{level.tables:,} tables of four humans and {level.bot_tables:,} of one human "
                f"and three {level.bots} bots: seated and started in {seated:.1f} s, every "
                f"table clicked once {warm:.1f} s later ({unplayed} not), then "
                f"{level.seconds:.0f} s measured",
                *report(level, bench, window),
                *report_bots(level, bench, window, before, after, runner.size, waits.by_game),
                f"  turns timed out: {bench.timeouts[WINDOW]} in the window, "
                f"{bench.timeouts[WARM_UP]} in the warm-up, {bench.timeouts[SET_UP]} in the set-up "
                f"(the service's clock held); seats of the tables of humans played by bots (away "
                f"after two timeouts): {away_before} when the window opened, {away} at its end",
                f"  pictures (hands and tables, whole run): {drawn:,} drawn in {DRAWERS} drawing "
                f"processes, p50 {percentile(draws, 0.5) * 1e3:.1f} ms, p99 "
                f"{percentile(draws, 0.99) * 1e3:.1f} ms each; {uploads:,} sent, {kept:,} kept "
                "unchanged",
                f"  a full collection of everything, frozen included (the service's unfreeze and "
                f"collect, about daily under load): {full_collection * 1e3:.0f} ms",
            ]
            print(*lines, sep="\n", flush=True)  # before the teardown of 10,000 tables
        finally:
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            await notifier.close()
            # no table is stopped one by one (10,000 durable writes): the file is thrown away
            await service.close()
            await store.close()
            runner.close()
    return lines


def away_seats(bench: Bench) -> int:
    """Seats of the tables of humans that the bot policy plays (away after two timeouts)."""
    return sum(
        info.away
        for table in bench.tables.values()
        if not table.bots
        for info in bench.service.public_snapshot(table.table_id).seats
    )


def time_full_collection() -> float:
    """What `bot.runtime.long_lived`'s occasional full collection costs with these tables."""
    started = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - started


@dataclass(frozen=True, slots=True)
class Window:
    wall: float
    cpu: float
    pauses: tuple[float, ...]


async def _measure_window(bench: Bench, until: float) -> Window:
    await asyncio.sleep(max(0.0, bench.measure_from - time.perf_counter()))
    bench.measuring = True
    cpu0, wall0 = time.process_time(), time.perf_counter()
    with FullCollections() as collections:
        await asyncio.sleep(max(0.0, until - time.perf_counter()))
    bench.measuring = False
    return Window(
        time.perf_counter() - wall0, time.process_time() - cpu0, tuple(collections.pauses)
    )


SHORT = {  # --short: a few seconds, for the test suite
    "tables": "6",
    "bot_tables": 3,
    "seconds": 1.5,
    "warmup": 0.0,
    "rate": 40.0,
    "think": 0.2,
    "bot_think": 0.1,
    "grown": 1,
    "workers": 1,
}


async def main_async(args: argparse.Namespace) -> None:
    if args.short:
        for name, value in SHORT.items():
            setattr(args, name, value)
    games = tuple(g for g in args.games.split(",") if g)
    print(
        f"tables of {PLAYERS_PER_TABLE} humans ({', '.join(games)} in turn; a hoarder in "
        f"{args.hoarders:.0%} of Dame tables) and {args.bot_tables:,} tables of one human and "
        f"three {args.bots} bots (games in turn), real store (temp file, synchronous=FULL); "
        f"the window opens once every table was clicked once, after {args.warmup:.0f} s at "
        f"least, and lasts {args.seconds:.0f} s; clicks at the tables of humans arrive at the "
        f"asked rate, a table at most once per {args.think} s after its last answer; the human "
        f"of a table of bots clicks {args.bot_think} s (± {args.bot_think_spread:.0%}) after "
        "their turn comes",
        flush=True,
    )
    for count in (int(x) for x in args.tables.split(",") if x):
        rate = min(args.rate, count / args.think) if count else 0.0
        level = Level(
            count,
            rate,
            args.seconds,
            args.warmup,
            args.think,
            games,
            args.hoarders,
            args.grown,
            args.bot_tables,
            args.bot_think,
            args.bot_think_spread,
            args.bots,
            args.workers,
            not args.no_pictures,
            args.hints,
        )
        await run_level(level, args.store_dir)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bot",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--tables",
        default="500,10000",
        help="comma-separated counts of tables of four humans, one run each",
    )
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=1000,
        help="tables of one human and three bot players, beside them (games in turn)",
    )
    parser.add_argument(
        "--bots", choices=("simple", "strong"), default="strong", help="the bot players' level"
    )
    parser.add_argument(
        "--bot-think",
        type=float,
        default=5.0,
        help="seconds the human of a table of bots takes once their turn comes, on average",
    )
    parser.add_argument(
        "--bot-think-spread",
        type=float,
        default=0.5,
        help="each of those waits is drawn uniformly within bot-think * (1 ± this): people do "
        "not click in step, and tables that did would move in waves (0: every wait the same)",
    )
    parser.add_argument(
        "--workers", type=int, help="bot worker processes (default: BOT_WORKERS' default)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=30.0,
        help="measured time per run (the window opens once every table was clicked once)",
    )
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="least unmeasured time before the window"
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=1000.0,
        help="clicks/s in total by the humans' tables, issued at fixed arrival times",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="least time a table of humans waits between its click's answer and its next click",
    )
    parser.add_argument(
        "--store-dir",
        type=Path,
        help="where the store's temporary file goes (default: the system's temp directory; "
        "a tmpfs such as /dev/shm takes the disk's fsync out of the figures and of the "
        "set-up's minutes)",
    )
    parser.add_argument(
        "--games",
        default=",".join(
            n
            for n in game_names()
            if get_game(n).min_seats <= PLAYERS_PER_TABLE <= get_game(n).max_seats
        ),
        help="played in turn",
    )
    parser.add_argument(
        "--hoarders",
        type=float,
        default=0.5,
        help="share of Dame tables with a hoarder, who takes the discard pile whenever they may "
        "and never lays a pack: hands of 40 cards and more are in the mix",
    )
    parser.add_argument(
        "--grown",
        type=int,
        default=50,
        help=f"hoarders' tables played to a hand of {BIG_HAND} cards before the run",
    )
    parser.add_argument(
        "--no-pictures",
        action="store_true",
        help="messages without card pictures (cards as text), as a bot made with "
        "card_pictures=False: what the pictures cost is the difference (at 10,000 tables the "
        "first clicks ask for tens of thousands of pictures, which starve a small machine's "
        "event loop for minutes)",
    )
    parser.add_argument(
        "--plain-loop",
        action="store_true",
        help="asyncio's own event loop, every callback in arrival order, instead of the bot's "
        "(bot moves after clicks, bot/runtime/priority.py): what the priority brings is the "
        "difference",
    )
    parser.add_argument("--hints", type=float, default=0.0, help=HINTS_HELP)
    parser.add_argument(
        "--short", action="store_true", help="a few tables for a few seconds (the test suite)"
    )
    args = parser.parse_args(argv)
    if args.plain_loop:
        asyncio.run(main_async(args))
    else:
        priority.run(main_async(args))


if __name__ == "__main__":
    main()
