"""`python -m benchmarks.bot.activity`: how long an Activity page waits to see a move.

Opens `--tables` Dutch tables of two players on a real store in a temporary directory, the
Activity's server on a local port (sign-in and Activity instances answered by the local
Discord), and three open pages per table over real WebSockets: both players' and a
watcher's. Then `--moves` times a
player, at a table chosen at random, sends the simple policy's move from their page; it
prints p50/p99/max of the time from sending the move to the mover's answer, and to every page
of that table showing the table after it. Then the load run (activity_load.py): `--bot-tables`
tables of bots moving together, without and then with a page open at each: the time from a
move to its page showing it, the CPU per move and the message UI's click p99, compared.
`--short` runs a few moves at a few tables.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from benchmarks.bot.activity_load import compare
from benchmarks.bot.latency import latency_line
from bot.activity.hub import ActivityNotifier, CompositeNotifier
from bot.activity.identity import DiscordIdentity
from bot.activity.running import ActivityServer
from bot.activity.tables import ActivityTables
from bot.local.server import LocalDiscord
from bot.runtime import priority
from bot.service import FINISHED, PLAYING, ROUND_OVER, PlayerRef, SystemClock, TableService
from storage import Store

GUILD = 1
WAIT = 30.0  # seconds a page may take to show a move before the run fails


class BenchPage:
    """One open page: when each table version reached it."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.version = -1
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            data = json.loads(message.data)
            if data["type"] == "table":
                version = int(data["table"]["version"])
                self.arrived.setdefault(version, time.perf_counter())
                self.version = max(self.version, version)
                self.changed.set()

    async def reached(self, version: int) -> float:
        """When the page first showed the table at `version` or later."""
        while self.version < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), WAIT)
        return min(at for seen, at in self.arrived.items() if seen >= version)


async def _page(
    session: aiohttp.ClientSession,
    fake: LocalDiscord,
    base: str,
    name: str,
    table_id: int,
    channel_id: int,
) -> BenchPage:
    """The user's page, signed in, in the Activity instance they launch in the channel."""
    user = fake.user(name)
    code = fake.oauth.authorize(user)
    async with session.post(f"{base}/api/token", json={"code": code}) as answer:
        token = (await answer.json())["access_token"]
    instance = fake.activities.launch(user, channel_id).instance_id
    where = f"instance={instance}&channel={channel_id}&table={table_id}"
    socket = await session.ws_connect(f"{base}/ws?{where}&token={token}")
    return BenchPage(socket)


async def _playable(service: TableService, table_id: int, host: int) -> None:
    """Start the next round or match at once if the last one is over."""
    snapshot = service.public_snapshot(table_id)
    if snapshot.status == ROUND_OVER:
        await service.play.next_round(table_id, host)
    elif snapshot.status == FINISHED:
        await service.seating.rematch(table_id, host)
        await service.seating.start(table_id, host)


async def run(tables: int, moves: int, seed: int) -> None:
    names = [f"p{n}" for n in range(2 * tables)] + ["watcher"]
    fake = LocalDiscord(user_names=tuple(names))
    await fake.start()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(Path(directory) / "activity.sqlite3")
        seeds = itertools.count(1)
        notifier = CompositeNotifier([])
        service = TableService(store, SystemClock(), notifier, lambda: next(seeds))
        identity = DiscordIdentity(
            fake.base_url,
            str(fake.application_id),
            fake.oauth.client_secret,
            bot_token=lambda: fake.bot_token,
        )
        server = ActivityServer(ActivityTables(service), identity)
        notifier.notifiers.append(ActivityNotifier(server.hub))
        runner = web.AppRunner(server.app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        base = f"http://127.0.0.1:{port}"
        answers: list[float] = []
        everyone: list[float] = []
        limits = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=limits) as session:
            table_ids: list[int] = []
            pages: dict[int, dict[int, BenchPage]] = {}
            for n in range(tables):
                first, second = fake.user(names[2 * n]), fake.user(names[2 * n + 1])
                host = PlayerRef(first.id, first.name)
                opened = await service.seating.open_table(GUILD, 10 + n, host, "dutch")
                await service.seating.join(opened.table_id, PlayerRef(second.id, second.name))
                await service.seating.start(opened.table_id, host.user_id)
                table_ids.append(opened.table_id)
                channel = 10 + n
                pages[opened.table_id] = {
                    user.id: await _page(session, fake, base, user.name, opened.table_id, channel)
                    for user in (first, second)
                }
                pages[opened.table_id][0] = await _page(
                    session, fake, base, "watcher", opened.table_id, channel
                )
            for _ in range(moves):
                table_id = rng.choice(table_ids)
                public = service.public_snapshot(table_id)
                host_id = public.seats[0].user_id
                assert host_id is not None
                await _playable(service, table_id, host_id)
                public = service.public_snapshot(table_id)
                assert public.status == PLAYING
                user_id = public.seats[public.to_act[0]].user_id
                assert user_id is not None
                choice = service.bot_choice(table_id, user_id, rng)
                assert choice is not None
                mover = pages[table_id][user_id]
                await mover.reached(public.version)
                started = time.perf_counter()
                await mover.socket.send_json(
                    {"act": choice, "round": public.round_no, "version": public.version}
                )
                answered = await mover.reached(public.version + 1)
                answers.append(answered - started)
                shown = [
                    await page.reached(public.version + 1) for page in pages[table_id].values()
                ]
                everyone.append(max(shown) - started)
            for table in pages.values():
                for page in table.values():
                    await page.socket.close()
        await runner.cleanup()
        await server.close()
        await service.close()
        await store.close()
    await fake.stop()
    print(f"activity: {tables} tables, {3 * tables} open pages, {moves} moves")
    print(latency_line("mover's frame", answers, 16))
    print(latency_line("every page", everyone, 16))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--moves", type=int, default=1000, help="0: no moves from pages")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=1000,
        help="the load run (activity_load.py): tables of one human and three bot players, "
        "without then with a page open at each (0: no load run)",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="the load run's window")
    parser.add_argument("--warmup", type=float, default=10.0, help="before the window")
    parser.add_argument("--bots", choices=("simple", "strong"), default="simple")
    parser.add_argument("--bot-think", type=float, default=5.0)
    parser.add_argument("--workers", type=int, help="bot worker processes")
    parser.add_argument(
        "--own-process",
        action="store_true",
        help="the load run's Activity server in a process of its own (the bot's default)",
    )
    parser.add_argument("--short", action="store_true", help="a few moves at a few tables")
    arguments: Any = parser.parse_args(argv)
    if arguments.short:
        arguments.tables, arguments.moves = 3, 30
        arguments.bot_tables, arguments.seconds, arguments.warmup = 4, 2.0, 0.5
        arguments.bot_think, arguments.workers = 0.2, 1
    if arguments.moves:
        asyncio.run(run(arguments.tables, arguments.moves, arguments.seed))
    if arguments.bot_tables:
        priority.run(
            compare(
                arguments.bot_tables,
                arguments.seconds,
                arguments.warmup,
                arguments.bots,
                arguments.bot_think,
                arguments.workers,
                arguments.own_process,
            )
        )


if __name__ == "__main__":
    main()
