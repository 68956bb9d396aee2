"""The table message is a Components V2 message, as Discord accepts it, in every state; and a
table message posted as an embed before the bot was upgraded keeps answering its buttons and
turns into the V2 layout in place at its next edit (Discord sets the V2 flag on an edit that
clears the message's content and embeds). So is "My cards": sent, clicked, followed and
moved as an ephemeral V2 message, and one sent as an embed before the upgrade becomes V2 on
the click that edits it, ephemeral still."""

from __future__ import annotations

from typing import Any

from bot.local.layout import IS_COMPONENTS_V2
from bot.local.limits import message_errors
from bot.local.records import EPHEMERAL, iter_components
from bot.render import colors
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import answer_message, choices, message_text


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


def private_messages(harness: BotUnderTest, user_id: int) -> list[dict[str, Any]]:
    """The user's ephemeral messages the bot sent or edited, as the fake holds them now."""
    ids = {
        r.message_id
        for r in harness.fake.requests
        if r.ephemeral and r.user_id == user_id and r.message_id in harness.fake.messages
    }
    return [harness.fake.message(i) for i in sorted(ids)]


def is_ephemeral_v2(message: dict[str, Any]) -> bool:
    flags = int(message["flags"])
    return bool(flags & EPHEMERAL) and bool(flags & IS_COMPONENTS_V2)


async def test_my_cards_stays_an_ephemeral_components_v2_message_through_a_round(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol])
        answer = answer_message(harness.fake, await harness.my_cards(alice, table_id))
        assert answer is not None and is_ephemeral_v2(answer)
        assert answer["embeds"] == [] and not answer["content"] and choices(answer)
        await harness.play_round(table_id)  # clicks' answers, the follower's edits and moves
        await harness.settle()
        for user in (alice, bob, carol):
            shown = private_messages(harness, user.id)
            assert shown, f"{user.name} was shown no hand"
            for message in shown:
                assert is_ephemeral_v2(message), message_text(message)
                assert message["embeds"] == [] and not message["content"]
                assert message_errors(message, creating=True) == []


def as_before_the_upgrade(message: dict[str, Any]) -> None:
    """Make a stored "My cards" what the bot sent before it was V2: an ephemeral embed, its
    buttons and menus in action rows."""
    items = [c for c in iter_components(message) if c.get("type") in (2, 3)]
    buttons = [c for c in items if c["type"] == 2]
    rows = [{"type": 1, "components": buttons[i : i + 5]} for i in range(0, len(buttons), 5)]
    rows += [{"type": 1, "components": [c]} for c in items if c["type"] == 3]
    assert 0 < len(rows) <= 5
    message.update(
        flags=EPHEMERAL,
        content="",
        embeds=[{"title": "Your cards", "description": "Your turn."}],
        components=rows,
    )


async def test_an_embed_my_cards_from_before_the_upgrade_answers_and_becomes_v2(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol])
        answer = answer_message(harness.fake, await harness.my_cards(alice, table_id))
        assert answer is not None
        as_before_the_upgrade(answer)
        assert not is_v2(harness.fake.message(int(answer["id"])))
        clicked = await harness.act(alice, table_id)  # a click on the old message
        edited = answer_message(harness.fake, clicked)
        assert edited is not None and int(edited["id"]) == int(answer["id"])  # edited in place
        assert is_ephemeral_v2(edited)  # the V2 flag set, the ephemeral one kept
        assert edited["embeds"] == [] and not edited["content"]
        assert message_errors(edited, creating=True) == []
        assert "Your cards" not in message_text(edited)
