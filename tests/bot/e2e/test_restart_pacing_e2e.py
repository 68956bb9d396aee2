"""A restart with a thousand tables in one channel, Discord's per-channel limits enforced by the
fake (on the test's clock): the tables clicked since the restart go before the thousand
refreshes, each move shows on its table message within seconds, and nothing meets a 429."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.local.server import LocalDiscord
from bot.service import FakeClock, NullNotifier, PlayerRef, TableService
from storage import Store
from tests.bot.e2e.harness import BotUnderTest

RESTORED = 1_000
EDITS, PER = 5, 5.0
SHOWN_WITHIN = 3.0  # seconds of the test's clock from a move to its table message
THINKING = 3.0  # seconds between a move shown and the next move


async def seed_tables_in_play(harness: BotUnderTest, count: int) -> list[int]:
    """`count` tables in one channel, each two (synthetic) people in the middle of a Dutch
    round, each with a table message of the previous process: their message ids. One table
    is opened through the service; the others are copies of its rows (seconds faster)."""
    fake = harness.fake
    store = await Store.open(harness.database, synchronous="NORMAL", integrity_check_delay=None)
    service = TableService(store, FakeClock(), NullNotifier(), lambda: 1)
    try:
        host = PlayerRef(7_000_000, "P")
        template = (
            await service.open_table(fake.guild_id, fake.channel_id, host, "dutch")
        ).table_id
        await service.join(template, PlayerRef(host.user_id + 1, "Q"))
        await service.start(template, host.user_id)
        await service.close()
    finally:
        await store.close()
    messages = [
        int(fake.seed_message(fake.channel_id, {"content": "an old table message"})["id"])
        for _ in range(count)
    ]
    await asyncio.to_thread(copy_table, harness.database, template, messages)
    return messages


def copy_table(database: Path, template: int, messages: list[int]) -> None:
    """Copies of a table's rows (seats, match, round, actions), each with its own people and
    table message; the template is the first."""
    with sqlite3.connect(database) as db:
        names = {
            table: [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for table in ("tables", "seats", "matches", "rounds", "actions")
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
        (round_id,) = db.execute("SELECT id FROM rounds WHERE table_id = ?", (template,)).fetchone()
        for n, message_id in enumerate(messages[1:], start=1):
            people = 2 * n  # added to the user ids: nobody sits at two tables
            new = {"host_id": "host_id + ?", "message_id": "?"}
            table_id = copy("tables", "id", template, new, people, message_id)
            copy_all("seats", {"table_id": "?", "user_id": "user_id + ?"}, table_id, people)
            copy_all("matches", {"table_id": "?"}, table_id)
            new_round = copy("rounds", "id", round_id, {"table_id": "?"}, table_id)
            db.execute(
                "INSERT INTO actions (round_id, seq, seat, notation, at) "
                "SELECT ?, seq, seat, notation, at FROM actions WHERE round_id = ?",
                (new_round, round_id),
            )


def shows(fake: LocalDiscord, message_id: int, embed: dict[str, object]) -> bool:
    return fake.message(message_id)["embeds"] == [embed]


async def test_after_a_restart_moves_at_two_tables_show_within_seconds_among_a_thousand(
    harness: BotUnderTest,
) -> None:
    fake = harness.fake
    alice, bob, carol, dave = (fake.user(name) for name in ("alice", "bob", "carol", "dave"))
    async with harness.running():
        played = [
            await harness.seat_players(alice, [bob]),
            await harness.seat_players(carol, [dave]),
        ]
    restored = await seed_tables_in_play(harness, RESTORED)
    harness.channel_edits, harness.pacing_clock = (EDITS, PER), harness.clock
    fake.limit_channel_edits(edits=EDITS, per=PER, now=harness.clock.now)

    async with harness.running() as bot:
        await fake.settle(quiet=0.05)
        for step in range(6):  # a move at one table, then at the other
            table_id = played[step % 2]
            turn = bot.service.public_snapshot(table_id).to_act[0]
            moved_at = harness.clock.now()
            await harness.act(harness.user_of_seat(table_id, turn), table_id)
            rendered = await bot.notifier.render(table_id)
            assert rendered is not None
            message_id = (await bot.locations.get(table_id)).message_id
            assert message_id is not None
            while not shows(fake, message_id, rendered.embed.to_dict()):
                assert harness.clock.now() - moved_at < SHOWN_WITHIN, (
                    f"move {step} did not show on its table message within {SHOWN_WITHIN} s"
                )
                await harness.clock.advance(0.5)
                await fake.settle(quiet=0.02)
            await harness.clock.advance(THINKING)
            await fake.settle(quiet=0.02)
        refreshed = [m for m in restored if fake.message(m)["embeds"]]
        assert refreshed, "the restored tables were not refreshed meanwhile"
        assert fake.refused_channel_edits == 0
        await bot.notifier.coalescer.close()  # the refreshes still waiting are not waited for
