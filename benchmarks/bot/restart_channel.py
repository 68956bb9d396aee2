"""`python -m benchmarks.bot.restart_channel`: a restart with many tables in one channel.

Does a restart keep within Discord's per-channel limits? Builds a store of `--tables` Dutch
tables in one channel of the local Discord (bot/local), each two people in the middle of a
round with one of them to play, each with its table message and the mention of that player
posted by the previous process (seeded in the local Discord and kept in the store; the guild's
turn timer is an hour, so no reminder or timeout falls within the run). Then starts the real
bot (`create_bot`) on it against the local Discord, which answers 429 past 5 edits, and past 5
posts and deletes, in any `--per` seconds of a channel (Discord's limit is 5 per 5 s; the bot
paces itself to the same figures), and plays `--moves` moves at two of the tables (the last
two restored: the last refreshed) as the controller does (the click noted, then the service's
act), one every `--think` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import SecretStr

from benchmarks.bot.latency import latency_line
from bot.local.payloads import with_string_ids
from bot.local.server import LocalDiscord, running_client, running_local_discord
from bot.service import FakeClock, NullNotifier, PlayerRef, TableService
from bot.ui.discord_notifier import turn_of
from bot.ui.layout import shown_as
from storage import Store

if TYPE_CHECKING:
    from bot.app import CardTableBot

EDITS = 5  # edits, and posts and deletes, per window in a channel (Discord's figure)
FIRST_USER = 7_000_000  # the seeded tables' people: two ids per table from here
TURN_SECONDS = 3600  # the guild's turn timer: no reminder or timeout falls within a run
SHORT = (100, 6, 0.1, 0.5, 0.05)  # tables, moves, think, window, edit delay: the suite's run


@dataclass
class Seeded:
    table_ids: list[int]
    messages: list[int]  # each table's message
    mentions: list[int]  # each table's turn mention


async def seed_tables(fake: LocalDiscord, database: Path, count: int) -> Seeded:
    """`count` tables in the fake's channel, each two people in the middle of a Dutch round,
    one of them to play, each with a table message and the mention of that player posted by
    the previous process (the guild's turn timer an hour: no reminder or timeout comes). One
    table is played through the service to that point; the others are copies of its rows (a
    thousand in well under a second)."""
    store = await Store.open(database, synchronous="NORMAL", integrity_check_delay=None)
    service = TableService(store, FakeClock(), NullNotifier(), lambda: 1)
    try:
        settings = await store.get_guild_settings(fake.guild_id)  # no turn times out meanwhile
        await store.save_guild_settings(settings.model_copy(update={"turn_seconds": TURN_SECONDS}))
        host = PlayerRef(FIRST_USER, "P")
        template = (
            await service.seating.open_table(fake.guild_id, fake.channel_id, host, "dutch")
        ).table_id
        await service.seating.join(template, PlayerRef(host.user_id + 1, "Q"))
        await service.seating.start(template, host.user_id)
        while (view := service.public_snapshot(template).view) is not None and view.phase == "peek":
            snapshot = service.public_snapshot(template)
            user = snapshot.seats[snapshot.to_act[0]].user_id
            assert user is not None and snapshot.round_no is not None
            legal = (await service.play.private_view(template, user)).legal
            await service.play.act(template, user, snapshot.round_no, legal[0])
        turn = turn_of(service.public_snapshot(template))
        assert turn is not None
        await service.close()
    finally:
        await store.close()
    messages = [
        int(fake.seed_message(fake.channel_id, {"content": "a table message"})["id"])
        for _ in range(count)
    ]
    mentions = [
        int(fake.seed_message(fake.channel_id, {"content": "<@0>, your turn"})["id"])
        for _ in range(count)
    ]
    table_ids = await asyncio.to_thread(_copy_table, database, template, messages, mentions, turn)
    return Seeded(table_ids, messages, mentions)


def _copy_table(
    database: Path, template: int, messages: list[int], mentions: list[int], turn: tuple[int, int]
) -> list[int]:
    """The template's rows (table, seats, match, round, actions, turn mention) copied, each
    copy with its own people, table message and mention: every table's id, the template's
    first."""
    with sqlite3.connect(database) as db:
        names = {
            table: [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for table in ("tables", "seats", "matches", "rounds", "turn_mentions")
        }

        def copy(table: str, key: str, old: int, new: dict[str, str], *params: int) -> int:
            """Copy the row of `table` whose `key` is `old`, the columns in `new` set to these
            expressions (of the row's own columns and `params`): the new row's id."""
            kept = [name for name in names[table] if name not in ("id", *new)]
            returning = " RETURNING id" if "id" in names[table] else " RETURNING 0"
            row = db.execute(
                f"INSERT INTO {table} ({', '.join([*kept, *new])}) "
                f"SELECT {', '.join([*kept, *new.values()])} FROM {table} WHERE {key} = ?"
                f"{returning}",
                (*params, old),
            ).fetchone()
            return int(row[0])

        def copy_all(table: str, new: dict[str, str], *params: int) -> None:
            """Copy every row of `table` of the template, as `copy` does."""
            kept = [name for name in names[table] if name not in new]
            db.execute(
                f"INSERT INTO {table} ({', '.join([*kept, *new])}) "
                f"SELECT {', '.join([*kept, *new.values()])} FROM {table} WHERE table_id = ?",
                (*params, template),
            )

        db.execute("UPDATE tables SET message_id = ? WHERE id = ?", (messages[0], template))
        (channel_id,) = db.execute(
            "SELECT channel_id FROM tables WHERE id = ?", (template,)
        ).fetchone()
        db.execute(
            "INSERT INTO turn_mentions (table_id, channel_id, message_id, seat, round_no) "
            "VALUES (?, ?, ?, ?, ?)",
            (template, channel_id, mentions[0], *turn),
        )
        (round_id,) = db.execute("SELECT id FROM rounds WHERE table_id = ?", (template,)).fetchone()
        table_ids = [template]
        for n in range(1, len(messages)):
            people = 2 * n  # added to the user ids: nobody sits at two tables
            new = {"host_id": "host_id + ?", "message_id": "?"}
            table_id = copy("tables", "id", template, new, people, messages[n])
            copy_all("seats", {"table_id": "?", "user_id": "user_id + ?"}, table_id, people)
            copy_all("matches", {"table_id": "?"}, table_id)
            copy_all("turn_mentions", {"table_id": "?", "message_id": "?"}, table_id, mentions[n])
            new_round = copy("rounds", "id", round_id, {"table_id": "?"}, table_id)
            db.execute(
                "INSERT INTO actions (round_id, seq, seat, notation, at) "
                "SELECT ?, seq, seat, notation, at FROM actions WHERE round_id = ?",
                (new_round, round_id),
            )
            table_ids.append(table_id)
    return table_ids


@dataclass
class Report:
    restored_s: float  # from the start to every table restored
    shown: list[float]  # per move: from the click until its table message shows it
    mentions_posted: int  # since the restart
    mentions_of_restored_turns: int  # of those, for a turn restored (announced before)
    old_mentions_deleted: int  # the restored tables' mentions deleted (their turns not played)
    refreshed: int  # restored tables whose message was refreshed by the end
    refused: int  # 429s answered by the local Discord


async def run(
    tables: int, moves: int, think: float, per: float, database: Path, edit_delay: float = 1.0
) -> Report:
    from bot.app import create_bot
    from bot.runtime.runner import InlinePolicyRunner
    from bot.settings import Settings

    async with running_local_discord() as fake:
        seeded = await seed_tables(fake, database, tables)
        fake.limit_channel_edits(edits=EDITS, per=per)
        fake.limit_channel_posts(posts=EDITS, per=per)
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            DISCORD_TOKEN=SecretStr("fake-token"),
            DATABASE_PATH=database,
            DEV_GUILD_ID=fake.guild_id,
        )
        bot = create_bot(
            settings,
            guild_ready_timeout=0.01,
            edit_delay=edit_delay,
            channel_edits=(EDITS, per),
            policy_runner=InlinePolicyRunner(),
            sync_commands=False,
        )
        started = time.perf_counter()
        posts_before = len(fake.requests)
        async with running_client(bot, timeout=60.0):
            await bot.service.restoring.wait()
            restored_s = time.perf_counter() - started
            played = seeded.table_ids[-2:]
            rng = random.Random(1)
            shown = []
            for move in range(moves):
                table_id = played[move % 2]
                snapshot = bot.service.public_snapshot(table_id)
                user = snapshot.seats[snapshot.to_act[0]].user_id
                assert user is not None and snapshot.round_no is not None
                notation = bot.service.bot_choice(table_id, user, rng)
                assert notation is not None
                clicked = time.perf_counter()
                bot.notifier.clicked(table_id)  # what the controller does at every click
                await bot.service.play.act(table_id, user, snapshot.round_no, notation)
                while not await _shows(bot, fake, table_id):
                    if time.perf_counter() - clicked > 120:
                        raise AssertionError(f"move {move} never showed on its table message")
                    await asyncio.sleep(0.005)
                shown.append(time.perf_counter() - clicked)
                await asyncio.sleep(think)
            playing = {
                f"<@{user}>"
                for table_id in played
                for user in (FIRST_USER + 2 * seeded.table_ids.index(table_id) + k for k in (0, 1))
            }
            posted = [
                str((r.payload or {}).get("content") or "")
                for r in fake.requests[posts_before:]
                if r.method == "POST" and r.ok and "<@" in str((r.payload or {}).get("content"))
            ]
            restored_turns = [w for w in posted if not any(p in w for p in playing)]
            gone = [m for m in seeded.mentions[:-2] if m not in fake.messages]
            refreshed = sum(1 for m in seeded.messages[:-2] if fake.message(m)["components"])
        return Report(
            restored_s,
            shown,
            len(posted),
            len(restored_turns),
            len(gone),
            refreshed,
            fake.refused_channel_edits + fake.refused_channel_posts,
        )


async def _shows(bot: CardTableBot, fake: LocalDiscord, table_id: int) -> bool:
    """The table's message shows what the bot would render now."""
    rendered = await bot.notifier.render(table_id)
    location = await bot.locations.get(table_id)
    message = None if location.message_id is None else fake.messages.get(location.message_id)
    if rendered is None or message is None:
        return False
    sent = with_string_ids(shown_as(rendered)["view"].to_components())
    return bool(message["components"] == json.loads(json.dumps(sent)))


def print_report(report: Report, tables: int, per: float) -> None:
    print(
        f"{tables:,} tables in one channel restored in {report.restored_s:.1f} s; limits "
        f"{EDITS} edits and {EDITS} posts/deletes per {per:g} s per channel"
    )
    print(latency_line("move shown on its table", report.shown, 24))
    print(
        f"mentions posted since the restart: {report.mentions_posted} "
        f"({report.mentions_of_restored_turns} for turns announced before it); "
        f"restored tables' mentions deleted: {report.old_mentions_deleted}; "
        f"restored tables refreshed meanwhile: {report.refreshed}; "
        f"429 answered: {report.refused}"
    )


EPILOG = """\
It prints the time to restore every table; each move's time from the click until its table
message shows it (p50/p99/max); the mentions posted since the restart (none may be for a
restored turn: those were announced before), the restored tables' mentions deleted (none
should be: their turns were not played); the restored tables refreshed meanwhile; and the
429s the local Discord answered (none should be).
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bot.restart_channel", description=__doc__, epilog=EPILOG
    )
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=10, help="at two of the tables, in turn")
    parser.add_argument("--think", type=float, default=2.0, help="seconds between two moves")
    parser.add_argument("--per", type=float, default=5.0, help="the limit's window, seconds")
    parser.add_argument(
        "--edit-delay", type=float, default=1.0, help="the bot's coalescing of table edits"
    )
    parser.add_argument(
        "--short",
        action="store_true",
        help="the suite's run: 100 tables, the limit's window shrunk to half a second, edits "
        "coalesced for 50 ms instead of 1 s",
    )
    args = parser.parse_args()
    if args.short:
        args.tables, args.moves, args.think, args.per, args.edit_delay = SHORT
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "restart-channel.sqlite3"
        report = asyncio.run(
            run(args.tables, args.moves, args.think, args.per, database, args.edit_delay)
        )
    print_report(report, args.tables, args.per)


if __name__ == "__main__":
    main()
