"""The table message is a Components V2 message, as Discord accepts it, in every state; and a
table message posted as an embed before the bot was upgraded keeps answering its buttons and
turns into the V2 layout in place at its next edit (Discord sets the V2 flag on an edit that
clears the message's content and embeds)."""

from __future__ import annotations

from bot.local.layout import IS_COMPONENTS_V2
from bot.local.limits import message_errors
from bot.local.records import iter_components
from bot.render import colors
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import choices, message_text


def is_v2(message: dict[str, object]) -> bool:
    return bool(int(message["flags"]) & IS_COMPONENTS_V2)  # type: ignore[call-overload]


async def test_the_table_message_is_a_components_v2_message_in_every_state(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.open_table(alice)
        lobby = await harness.stored_table_message(table_id)
        assert is_v2(lobby) and lobby["embeds"] == [] and not lobby["content"]
        (container,) = lobby["components"]
        assert container["type"] == 17 and container["accent_color"] == colors.LOBBY
        await harness.press(bob, table_id, "join")
        await harness.press(carol, table_id, "join")
        await harness.press(alice, table_id, "start")
        await harness.play_round(table_id)
        await harness.settle()
        ended = await harness.stored_table_message(table_id)
        assert int(ended["id"]) == int(lobby["id"])  # one message, edited
        assert is_v2(ended) and ended["embeds"] == [] and choices(ended)
        assert message_errors(ended, creating=True) == []


async def test_an_embed_table_message_from_before_the_upgrade_answers_and_becomes_v2(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        table_id = await harness.open_table(alice)
        message = await harness.stored_table_message(table_id)
        rows = [c for c in iter_components(message) if c.get("type") == 1]
        # The message as the bot sent it before: an embed, its buttons in action rows.
        message.update(
            flags=0,
            embeds=[{"title": "Dutch — table #1", "description": "Waiting for players."}],
            components=rows,
        )
        await harness.press(bob, table_id, "join")
        upgraded = harness.fake.message(int(message["id"]))
        assert is_v2(upgraded) and upgraded["embeds"] == []
        assert "Bob" in message_text(upgraded)
        seated = harness.live.service.public_snapshot(table_id).seats
        assert [s.name for s in seated] == ["Alice", "Bob"]
