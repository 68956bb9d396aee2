"""The Activity bench's load run: tables of bots moving together, with and without open pages.

`--bot-tables` tables of one human and three bot players (games in turn) play on a real store
with the real clock, as in the click bench (clicks.py: the human clicks through the message
UI's path `bot_think` s after their turn comes, timed; the bot players think in worker
processes). The Activity's server runs in the same process on a local port; with pages, the
human of every table has the table open in the Activity (one WebSocket each, opened by another
process, activity_pages.py). For the measured window it gives: the time from a stored move to
the page of its table showing the table after it (p50/p99/max; each stored change is timed
when the service announces it, and a page that skipped a version shows it with the next one),
the process's CPU time per move stored (bots' and humans'; the workers' searches left out),
and the human's click p50/p99; the same run without pages gives the figures to compare with.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from benchmarks.bot.clicks import Bench
from benchmarks.bot.discord_path import BenchNotifier
from benchmarks.bot.latency import latency_line, percentile
from benchmarks.bot.set_up import HeldClock, open_tables
from bot.activity.bridge import ProcessSettings
from bot.activity.hub import ChangesNotifier, CompositeNotifier
from bot.activity.identity import DiscordIdentity, Instance, NotIdentified, Viewer
from bot.activity.process import ActivityProcess
from bot.activity.running import ActivityServer
from bot.activity.tables import ActivityTables
from bot.runtime.runner import ProcessPolicyRunner
from bot.service import SystemClock, TableService
from bot.ui.drawing import cpu_seconds
from storage import Store
from storage.pg_server import free_port

GAMES = ["dutch", "euchre", "dame"]
WHERE = {False: "in the bot's process", True: "in a process of its own"}
READY_WAIT = 300.0  # seconds the pages may take to open before the run fails
CATCH_UP = 3.0  # seconds the pages get after the window to show its last moves


class BenchIdentity(DiscordIdentity):
    """Every page signs in as the human of its table: the token `bench-<user id>`, in the
    instance `bench-<table id>` launched at the table's channel by its seated players (the
    token exchange and Discord's answer for the instance are not what is measured)."""

    def __init__(self, service: TableService) -> None:
        super().__init__("http://127.0.0.1:9", "1", "bench")
        self.service = service

    async def viewer(self, session: aiohttp.ClientSession, token: str) -> Viewer:
        if not token.startswith("bench-"):
            raise NotIdentified("not a bench token")
        user_id = int(token.removeprefix("bench-"))
        return Viewer(user_id, f"B{user_id}", "en")

    async def instance(
        self, session: aiohttp.ClientSession, instance_id: str, user_id: int
    ) -> Instance | None:
        if not instance_id.startswith("bench-"):
            return None
        public = self.service.public_snapshot(int(instance_id.removeprefix("bench-")))
        users = frozenset(seat.user_id for seat in public.seats if seat.user_id is not None)
        return Instance(instance_id, public.channel_id, users)

    async def current(self, session: aiohttp.ClientSession, instance_id: str) -> Instance | None:
        """The open pages' periodic check: answered as at entry."""
        return await self.instance(session, instance_id, 0)


@dataclass
class Changes:
    """When each stored change of each table was announced (in the window)."""

    measuring: bool = False
    moves: int = 0  # moves stored in the window
    announced: list[tuple[int, int, float]] = field(default_factory=list)  # table, version, when


class TimedActivityNotifier(ChangesNotifier):
    """The Activity's notifier (its server's, or its process's), noting when each change is
    announced, and its version."""

    def __init__(
        self, changed: Callable[[int], None], service: TableService, changes: Changes
    ) -> None:
        super().__init__(changed)
        self.service = service
        self.changes = changes

    async def table_changed(self, table_id: int) -> None:
        if self.changes.measuring:
            version = self.service.public_snapshot(table_id).version
            self.changes.announced.append((table_id, version, time.perf_counter()))
        self.changed(table_id)


class InProcessActivity:
    """The Activity's server in the bench's (the bot's) process, on a local port."""

    def __init__(self, service: TableService) -> None:
        self.server = ActivityServer(ActivityTables(service), BenchIdentity(service))
        self.changed = self.server.hub.changed
        self._runner = web.AppRunner(self.server.app, access_log=None)

    async def start(self, _instances: dict[str, dict[str, Any]], _folder: Path) -> int:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        return int(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]

    def sent(self) -> int:
        """Frames sent to the pages so far."""
        return self.server.hub.frames_sent

    def cpu(self) -> float:
        return 0.0  # its CPU is the bot's

    async def close(self) -> None:
        await self._runner.cleanup()
        await self.server.close()


class OwnProcessActivity:
    """The Activity's server in a process of its own (as the bot runs it by default), which
    asks a Discord of the bench's, in a third process, who each page is."""

    def __init__(self, service: TableService) -> None:
        self.process: ActivityProcess | None = None
        self.service = service
        self._discord: Any = None

    async def start(self, instances: dict[str, dict[str, Any]], folder: Path) -> int:
        plan = folder / "instances.json"
        plan.write_text(json.dumps(instances))
        self._discord = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.bot.activity_discord",
            str(plan),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self._discord.stdout is not None
        discord_port = int(await asyncio.wait_for(self._discord.stdout.readline(), READY_WAIT))
        settings = ProcessSettings(
            f"http://127.0.0.1:{discord_port}", "1", "bench", "bench", "WARNING", "text"
        )
        self.process = ActivityProcess(ActivityTables(self.service), settings)
        port = free_port()  # for the process to listen on
        await self.process.start("127.0.0.1", port)
        return port

    def changed(self, table_id: int) -> None:
        if self.process is not None:  # nothing to tell before it started
            self.process.changed(table_id)

    def sent(self) -> int:
        """Changes sent to the process so far (it builds the frames)."""
        return self.process.changes_sent if self.process is not None else 0

    def cpu(self) -> float:
        """The process's CPU time so far (user and system), from the kernel's accounts."""
        pid = self.process.pid if self.process is not None else None
        if pid is None:
            return 0.0
        used = cpu_seconds(pid)
        if used is None:
            raise OSError(f"the CPU time of process {pid} cannot be read (Linux's /proc)")
        return used

    async def close(self) -> None:
        if self.process is not None:
            await self.process.close()
        if self._discord is not None:
            assert self._discord.stdin is not None
            self._discord.stdin.close()
            await self._discord.wait()


def _instances(service: TableService, tables: Iterable[int]) -> dict[str, dict[str, Any]]:
    """The Activity instance of each table, as the bench's Discord answers for it."""
    found: dict[str, dict[str, Any]] = {}
    for table_id in tables:
        public = service.public_snapshot(table_id)
        users = [seat.user_id for seat in public.seats if seat.user_id is not None]
        found[f"bench-{table_id}"] = {"channel": public.channel_id, "users": users}
    return found


def count_moves(store: Store, changes: Changes) -> None:
    record = store.record_action

    async def counted(table_id: int, round_no: int, seq: int, seat: int, notation: str) -> None:
        await record(table_id, round_no, seq, seat, notation)
        changes.moves += changes.measuring

    store.record_action = counted  # type: ignore[method-assign]


@dataclass(frozen=True, slots=True)
class LoadLevel:
    bot_tables: int
    pages: bool
    seconds: float
    warmup: float
    bots: str
    bot_think: float
    workers: int | None
    own_process: bool = False  # the Activity's server in a process of its own


@dataclass
class LoadFigures:
    pages: int
    moves: int
    cpu: float
    clicks: list[float]
    shown: list[float]  # move to its page showing it
    unseen: int  # moves whose page never showed them
    pages_cpu: float
    frames: int  # frames the pages were sent in the window (own process: changes sent it)
    activity_cpu: float  # the Activity's own process's CPU in the window (0: in the bot's)


def shown_after(
    announced: list[tuple[int, int, float]], arrivals: list[tuple[int, int, float]]
) -> tuple[list[float], int]:
    """For each announced (table, version, when): the time until the table's page first had
    that version or a later one; and how many it never had."""
    by_table: dict[int, list[tuple[int, float]]] = {}
    for table_id, version, when in arrivals:
        by_table.setdefault(table_id, []).append((version, when))
    # per table, the first arrival of each version or later: a running minimum from the end
    firsts: dict[int, tuple[list[int], list[float]]] = {}
    for table_id, seen in by_table.items():
        seen.sort()
        versions = [version for version, _ in seen]
        earliest = [when for _, when in seen]
        for index in range(len(earliest) - 2, -1, -1):
            earliest[index] = min(earliest[index], earliest[index + 1])
        firsts[table_id] = (versions, earliest)
    shown: list[float] = []
    unseen = 0
    for table_id, version, when in announced:
        versions, earliest = firsts.get(table_id, ([], []))
        index = bisect.bisect_left(versions, version)
        if index == len(versions):
            unseen += 1
        else:
            shown.append(max(0.0, earliest[index] - when))
    return shown, unseen


async def _open_pages(url: str, pages: list[tuple[int, str]], folder: Path) -> Any:
    plan = folder / "pages.json"
    plan.write_text(json.dumps({"url": url, "pages": pages}))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.bot.activity_pages",
        str(plan),
        str(folder / "arrivals.json"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), READY_WAIT)
    if line.strip() != b"ready":
        raise RuntimeError(f"the pages did not open: {line!r}")
    return process


async def _close_pages(process: Any, folder: Path) -> tuple[list[tuple[int, int, float]], float]:
    process.stdin.close()
    await process.wait()
    result = json.loads((folder / "arrivals.json").read_text())
    return [tuple(item) for item in result["arrivals"]], float(result["cpu"])


async def run_load(level: LoadLevel) -> LoadFigures:
    """One run at `level`; its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = await Store.open(folder / "bench.sqlite3")
        changes = Changes()
        count_moves(store, changes)
        seeds = itertools.count(1)
        runner = ProcessPolicyRunner(level.workers)
        runner.warm()
        clock = HeldClock(SystemClock())
        clock.hold()
        messages = BenchNotifier(pictures=False)  # cards as text: the drawing processes left out
        notifier = CompositeNotifier([messages])
        service = TableService(store, clock, notifier, lambda: next(seeds), policy_runner=runner)
        messages.service = service
        activity = (OwnProcessActivity if level.own_process else InProcessActivity)(service)
        notifier.notifiers.append(TimedActivityNotifier(activity.changed, service, changes))
        bench = Bench(service, messages, 0.5, level.bot_think, 0.5)
        players: list[asyncio.Task[None]] = []
        pages: Any = None
        try:
            await open_tables(bench, 0, GAMES, 0.0, 0, level.bot_tables, level.bots)
            port = await activity.start(_instances(service, bench.tables), folder)
            if level.pages:
                plan = [(t.table_id, f"bench-{t.host_id}") for t in bench.tables.values()]
                pages = await _open_pages(f"http://127.0.0.1:{port}", plan, folder)
            clock.release()
            loop = asyncio.get_running_loop()
            players = [loop.create_task(bench.play_with_bots(t)) for t in bench.tables.values()]
            await asyncio.sleep(level.warmup)
            bench.measure_from = time.perf_counter()
            bench.measure_until = bench.measure_from + level.seconds
            changes.measuring = bench.measuring = True
            cpu, frames, its_cpu = time.process_time(), activity.sent(), activity.cpu()
            await asyncio.sleep(level.seconds)
            cpu, frames = time.process_time() - cpu, activity.sent() - frames
            its_cpu = activity.cpu() - its_cpu
            changes.measuring = bench.measuring = False
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            players = []
            # the bots' moves under way are stored before the store closes
            await asyncio.gather(*(service.followup.settle(t) for t in bench.tables))
            shown: list[float] = []
            unseen, pages_cpu = 0, 0.0
            if pages is not None:
                await asyncio.sleep(CATCH_UP)
                arrivals, pages_cpu = await _close_pages(pages, folder)
                pages = None
                shown, unseen = shown_after(changes.announced, arrivals)
            clicks = [t for group in bench.bot_timed.by_group.values() for t in group]
            return LoadFigures(
                level.bot_tables if level.pages else 0,
                changes.moves,
                cpu,
                clicks,
                shown,
                unseen,
                pages_cpu,
                frames,
                its_cpu,
            )
        finally:
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            if pages is not None:
                pages.kill()
                await pages.wait()
            await activity.close()
            await messages.close()
            await service.close()
            await store.close()
            runner.close()


def report(level: LoadLevel, figures: LoadFigures) -> list[str]:
    moves = max(1, figures.moves)
    clicks = sorted(figures.clicks)
    lines = [
        f"  {figures.pages:,} open pages: {figures.moves:,} moves in {level.seconds:.0f} s "
        f"({figures.moves / level.seconds:,.0f}/s), CPU {figures.cpu * 1e3 / moves:.3f} ms per "
        f"move ({figures.cpu / level.seconds:.0%} of a core); human's click p50 "
        f"{percentile(clicks, 0.5) * 1e3:.1f} ms, p99 {percentile(clicks, 0.99) * 1e3:.1f} ms "
        f"({len(clicks):,} clicks)",
    ]
    if figures.pages:
        if figures.shown:
            lines.append(latency_line("move to its page", figures.shown, 16))
        sent = "changes sent to its process" if level.own_process else "frames"
        lines.append(
            f"  {len(figures.shown):,} moves shown, {figures.unseen} never, in {figures.frames:,} "
            f"{sent} ({figures.frames / moves:.2f} per move); the pages' process "
            f"used {figures.pages_cpu:.1f} s of CPU in all"
        )
        if level.own_process:
            lines.append(
                f"  the Activity's own process: {figures.activity_cpu * 1e3 / moves:.3f} ms of CPU "
                f"per move ({figures.activity_cpu / level.seconds:.0%} of a core)"
            )
    return lines


async def compare(
    bot_tables: int,
    seconds: float,
    warmup: float,
    bots: str,
    bot_think: float,
    workers: int | None,
    own_process: bool = False,
) -> None:
    """The same tables without pages, then with a page open at each."""
    print(
        f"activity under load: {bot_tables:,} tables of one human and three {bots} bots "
        f"({', '.join(GAMES)} in turn), the human clicking {bot_think} s (± 50%) after their "
        f"turn comes; {warmup:.0f} s warm-up, {seconds:.0f} s measured; the Activity's server "
        f"{WHERE[own_process]}",
        flush=True,
    )
    for pages in (False, True):
        level = LoadLevel(bot_tables, pages, seconds, warmup, bots, bot_think, workers, own_process)
        print(*report(level, await run_load(level)), sep="\n", flush=True)
