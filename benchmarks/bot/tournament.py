"""`python -m benchmarks.bot.tournament`: a Swiss tournament run end to end by the real bot.

It has `--players` (256 by default) and runs on the real bot (`create_bot`, every cog) against
the local Discord (bot/local).

The admin creates the event with `/tournament create`; every player presses Sign up, then
Check in, on the event's message (real clicks through the local Discord); the fake clock is
moved to the start. Each round's tables are opened by the bot in threads; at each table the
people play what the game's simple bot would, through the table service's `act` (the call
the controller makes for a click), every table at once. Prints, for each round, the time from
the moment its last match ended (the click that ended it answered) to the moment every table
of the next round was open: seated, started and its message posted in its thread. Then the
whole event's time. `--short` is the suite's run (16 players, 2 rounds).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import SecretStr

from benchmarks.bot.latency import latency_line
from bot.clock import FakeClock
from bot.local.server import LocalDiscord, running_client, running_local_discord
from bot.snapshots import FINISHED, PLAYING, ROUND_OVER

if TYPE_CHECKING:
    from bot.app import CardTableBot

SHORT = (16, 2)  # players, rounds: the suite's run
TARGET = 10  # each Dutch match's target: a few rounds of play per match
MINUTE = 60.0


@dataclass
class Report:
    players: int
    rounds: int
    tables: int = 0
    between_rounds: list[float] = field(default_factory=list)  # seconds, one per round change
    first_round_s: float = 0.0  # from the start (clock moved) to round 1's tables open
    total_s: float = 0.0
    podium: str = ""


async def click_all(fake: LocalDiscord, users: list[str], message_id: int, custom_id: str) -> None:
    for name in users:
        clicked = await fake.click(fake.user(name), message_id, custom_id)
        await clicked.wait_answered()


async def play_table(bot: CardTableBot, table_id: int, rng: random.Random) -> None:
    """The table's people play what the simple bot would, until the match is over."""
    service = bot.service
    while True:
        snapshot = service.public_snapshot(table_id)
        if snapshot.status == FINISHED:
            return
        if snapshot.status == ROUND_OVER:
            await service.play.next_round(table_id, snapshot.host_id)
            continue
        moved = False
        for seat in snapshot.to_act:
            user = snapshot.seats[seat].user_id
            if user is None or snapshot.round_no is None:
                continue
            notation = service.bot_choice(table_id, user, rng)
            if notation is not None:
                await service.play.act(table_id, user, snapshot.round_no, notation)
                moved = True
                break
        if not moved:
            await service.followup.settle(table_id)  # the bot players' moves owed
            await asyncio.sleep(0)


async def round_open(bot: CardTableBot, tournament_id: int, number: int) -> bool:
    """Round `number` of the event has every table open: started, its message posted."""
    stored = bot.tournaments.events.get(tournament_id)
    event = stored.event if stored is not None else None
    if event is None or len(event.rounds) < number:
        return event is None  # over
    for table in event.rounds[number - 1].tables:
        if table.done:
            continue
        if table.table_id is None or not bot.service.has_table(table.table_id):
            return False
        if bot.service.public_snapshot(table.table_id).status not in (PLAYING, ROUND_OVER):
            return False
        location = await bot.locations.get(table.table_id)
        if location.message_id is None:
            return False
    return True


async def run(players: int, rounds: int, database: Path) -> Report:
    from bot.app import create_bot
    from bot.runtime.runner import InlinePolicyRunner
    from bot.settings import Settings

    names = tuple(f"p{n:03d}" for n in range(players))
    report = Report(players, rounds)
    async with running_local_discord(user_names=names) as fake:
        clock = FakeClock()
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            DISCORD_TOKEN=SecretStr("fake-token"),
            DATABASE_PATH=database,
            DEV_GUILD_ID=fake.guild_id,
        )
        bot = create_bot(
            settings,
            clock=clock,
            guild_ready_timeout=0.01,
            edit_delay=0.05,
            channel_edits=(1_000, 1.0),
            policy_runner=InlinePolicyRunner(),
            hand_pictures=False,
        )
        async with running_client(bot, timeout=60.0):
            await bot.service.restoring.wait()
            created = await fake.slash(
                fake.admin,
                "tournament create",
                game="dutch",
                rounds=rounds,
                start_in=3,
                checkin=1,
                target=TARGET,
            )
            await created.wait_answered()
            await fake.wait_for(lambda: bool(bot.tournaments.events), what="the event")
            tournament_id = max(bot.tournaments.events)
            await fake.wait_for(
                lambda: bot.tournaments.events[tournament_id].message_id is not None,
                what="the event's message",
            )
            message_id = bot.tournaments.events[tournament_id].message_id
            assert message_id is not None
            await click_all(fake, list(names), message_id, f"tn:{tournament_id}:signup")
            await clock.advance(2 * MINUTE)
            await fake.settle(quiet=0.05)
            await click_all(fake, list(names), message_id, f"tn:{tournament_id}:checkin")
            started = time.perf_counter()
            await clock.advance(MINUTE)
            await until(lambda: round_open(bot, tournament_id, 1))
            report.first_round_s = time.perf_counter() - started
            rng = random.Random(1)
            number = 1
            while tournament_id in bot.tournaments.events:
                stored = bot.tournaments.events[tournament_id]
                tables = [t.table_id for t in stored.event.rounds[number - 1].tables]
                report.tables += len(tables)
                await asyncio.gather(*(play_table(bot, t, rng) for t in tables if t is not None))
                ended = time.perf_counter()  # the round's last match is over
                number += 1
                await until(lambda n=number: round_open(bot, tournament_id, n))
                if tournament_id in bot.tournaments.events:
                    report.between_rounds.append(time.perf_counter() - ended)
            await bot.tournaments.idle()
            report.total_s = time.perf_counter() - started
            podium = [
                str(m.get("content"))
                for m in fake.channel_messages()
                if "is over!" in str(m.get("content"))
            ]
            report.podium = podium[-1] if podium else "(no podium)"
    return report


async def until(done: object) -> None:
    """Poll `done()` (an async check) until true; a bench, not a test: it measures."""
    assert callable(done)
    deadline = time.perf_counter() + 600
    while not await done():
        if time.perf_counter() > deadline:
            raise AssertionError("the next round never opened")
        await asyncio.sleep(0.005)


def print_report(report: Report) -> None:
    print(
        f"Swiss of Dutch, {report.players} players, {report.rounds} rounds, "
        f"{report.tables} tables in all (heads-up, target {TARGET})"
    )
    print(f"  round 1 open after the start: {report.first_round_s * 1e3:.0f} ms")
    if report.between_rounds:
        print(latency_line("last match to next round's tables", report.between_rounds, 34))
    print(f"  whole event: {report.total_s:.1f} s; {report.podium}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bot.tournament", description=__doc__
    )
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=0, help="default: log2 of the players")
    parser.add_argument("--short", action="store_true", help="the suite's run")
    args = parser.parse_args(argv)
    if args.short:
        args.players, args.rounds = SHORT
    rounds = args.rounds or max(1, math.ceil(math.log2(args.players)))
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(run(args.players, rounds, Path(folder) / "tournament.sqlite3"))
    print_report(report)


if __name__ == "__main__":
    main()
