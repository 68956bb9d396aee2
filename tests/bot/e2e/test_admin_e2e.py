"""`/admin status`: the owner's view of the running bot, refused to everyone else."""

from __future__ import annotations

import json

from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import answer_message


async def test_the_owner_sees_the_bots_status_and_others_are_refused(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for player in (alice, bob, carol):
            await harness.my_cards(player, table_id)

        refused = await harness.fake.slash(bob, "admin status")
        await refused.wait_answered()
        await harness.settle()
        assert "owner" in assert_one_short_private_sentence(refused)

        bot.settings.owner_ids = frozenset({alice.id})  # OWNER_IDS, besides the app's owner
        for owner in (harness.fake.owner, alice):
            asked, _ = await harness.ask(owner, "admin status")
            assert answer_message(harness.fake, asked) is not None
        message = answer_message(harness.fake, asked)
        assert message is not None and message["flags"] & 64  # ephemeral
        (embed,) = message["embeds"]
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["Tables by game"] == "dutch 1"
        assert fields["Store"].startswith("SQLite") and "MB" in fields["Store"]
        clicks = fields["Clicks, last 5 minutes"]
        assert clicks.split(" · ")[0] != "0" and "p99" in clicks
        assert fields["Health"]  # ok, or what is wrong
        assert {"Version", "Up for", "Shards", "Memory (resident)", "Last backup"} <= set(fields)
        assert "Bot players' workers" in fields
        assert "token" not in json.dumps(embed).lower()
