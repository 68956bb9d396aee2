"""After a restart, a table whose stored rows cannot be rebuilt says so on its message (its
buttons gone, its players free), in the server's language, and the other tables play on."""

from __future__ import annotations

import sqlite3

from bot.i18n import text
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import choices, message_text


async def test_a_table_broken_at_restart_tells_its_players_on_its_message(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        broken = await harness.open_table(alice)
        await harness.press(bob, broken, "join")
        healthy = await harness.open_table(carol, channel_id=harness.fake.other_channel_id)
        message_id = int(harness.table_message(broken)["id"])
    with sqlite3.connect(harness.database) as raw:  # its options were damaged meanwhile
        raw.execute("UPDATE tables SET options = '{bad' WHERE id = ?", (broken,))

    async with harness.running() as bot:
        await harness.fake.wait_for(
            lambda: message_text(harness.fake.messages[message_id]).strip()
            == text("en", "table.broken"),
            what="the broken table's message",
        )
        assert choices(harness.fake.messages[message_id]) == []
        assert bot.service.table_ids() == [healthy]
        assert bot.service.tables.table_of_user(harness.fake.guild_id, bob.id) is None
        reopened = await harness.open_table(alice)  # free to open another
        assert reopened in bot.service.table_ids()
