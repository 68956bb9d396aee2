"""Which turns the channel mentions, through the real bot against the local Discord: none
while everyone peeks at once, none below the hand of a player whose own click started their
turn, and a reminder that says where to play."""

from __future__ import annotations

from typing import Any

from tests.bot.e2e.harness import BotUnderTest, players


def mentions(harness: BotUnderTest) -> list[dict[str, Any]]:
    """The channel's messages that mention someone (turns and reminders), oldest first."""
    return [m for m in harness.fake.channel_messages() if "<@" in str(m.get("content") or "")]


async def test_nobody_is_told_it_is_their_turn_while_everyone_peeks(
    harness: BotUnderTest,
) -> None:
    """Two of three players have peeked: the third, left to peek, is not mentioned as if it
    were their turn. The last peek starts the first turn: mentioned above that player's hand,
    or, when the last to peek plays first, shown by their click's answer alone."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        seat = bot.service.public_snapshot(table_id).view.first_player
        first = harness.user_of_seat(table_id, seat)
        order = [user for user in (alice, bob, carol) if user is not first] + [first]
        for user in order:
            await harness.my_cards(user, table_id)
        for user in order[:2]:
            await harness.act(user, table_id)
        await harness.settle()
        assert bot.service.public_snapshot(table_id).to_act == (seat,)
        assert mentions(harness) == []  # the one left to peek: not "your turn"
        await harness.act(first, table_id)  # their peek starts their own turn
        await harness.settle()
        assert mentions(harness) == []  # their answer shows their moves where they look
        while bot.service.public_snapshot(table_id).to_act == (seat,):
            await harness.act(first, table_id)
        await harness.settle()
        (mention,) = mentions(harness)
        (turn,) = bot.service.public_snapshot(table_id).to_act
        nxt = harness.user_of_seat(table_id, turn)
        assert mention["content"].startswith(f"<@{nxt.id}>, your turn")
        moved = harness.newest_private(nxt)
        assert moved is not None and moved > int(mention["id"])  # the hand below the mention


async def test_the_half_time_reminder_of_a_player_whose_hand_is_open_says_so(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        for user in (alice, bob, carol):
            await harness.my_cards(user, table_id)
            await harness.act(user, table_id)
        await harness.settle()
        (turn,) = bot.service.public_snapshot(table_id).to_act
        player = harness.user_of_seat(table_id, turn)
        before = len(mentions(harness))
        settings = await bot.guild_settings.get(harness.fake.guild_id)
        await harness.clock.advance(settings.turn_seconds / 2 + 1)
        await harness.settle()
        reminder = mentions(harness)[before:][-1]["content"]
        assert reminder.startswith(f"<@{player.id}>")
        assert "press" not in reminder and "in your **My cards** message" in reminder
