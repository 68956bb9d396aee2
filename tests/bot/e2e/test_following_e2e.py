"""A player's open "My cards" message follows the game without a click."""

from __future__ import annotations

from typing import Any

from bot.snapshots import PLAYING
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import choices, pick


async def _after_the_peeks(harness: BotUnderTest) -> tuple[int, int, int]:
    """Three players seated, everyone has peeked: (table id, round number, seat to act)."""
    alice, bob, carol = players(harness.fake)
    table_id = await harness.seat_players(alice, [bob, carol], target=1000)
    for user in (alice, bob, carol):
        await harness.act(user, table_id)
    snapshot = harness.live.service.public_snapshot(table_id)
    assert snapshot.round_no is not None
    (turn,) = snapshot.to_act
    return table_id, snapshot.round_no, turn


async def test_when_the_turn_comes_the_open_hand_moves_below_the_channels_messages(
    harness: BotUnderTest,
) -> None:
    """The hand offers the moves, posted anew (a follow-up of the same click) below the
    table message and the turn's mention, and the old message is deleted."""
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id, round_no, turn = await _after_the_peeks(harness)
        player = harness.user_of_seat(table_id, turn)
        nxt = (turn + 1) % 3
        waiting = harness.user_of_seat(table_id, nxt)
        await harness.my_cards(waiting, table_id)
        message_id = harness.last_private[waiting.id]

        def plays() -> list[str]:
            offered = harness.private_choices(waiting, round_no)
            return [c.action for c in offered if c.action.startswith("p=")]

        assert plays() == []  # not their turn: nothing to play
        edits_before = len(harness.fake.requests)
        while bot.service.public_snapshot(table_id).to_act == (turn,):
            await harness.act(player, table_id)
        await harness.settle()
        assert bot.service.public_snapshot(table_id).to_act == (nxt,)
        # the old hand is deleted once the new one is out (after the turn's mention)
        await harness.fake.wait_for(
            lambda: message_id not in harness.fake.messages, what="the old hand deleted"
        )
        moved = harness.newest_private(waiting)
        assert moved is not None and "p=draw" in plays()
        channel = [int(m["id"]) for m in harness.fake.channel_messages()]
        mention = [m for m in harness.fake.channel_messages() if "your turn" in m["content"]]
        assert mention and moved > max(channel)  # the last thing on the player's screen
        posted = [
            r
            for r in harness.fake.requests[edits_before:]
            if r.message_id == moved and r.route == "POST /webhooks/{app_id}/{token}"
        ]
        assert posted and all(r.ephemeral and r.user_id == waiting.id for r in posted)
        checker.assert_clean()


async def test_the_player_whose_turn_starts_is_mentioned_until_they_have_played(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        await harness.settle()

        def mentions() -> list[dict[str, Any]]:
            posted = harness.fake.channel_messages()
            return [m for m in posted if "your turn at table" in m["content"]]

        assert mentions() == []  # everyone peeks at once: nobody's turn yet
        for user in (alice, bob, carol):
            await harness.act(user, table_id)
        await harness.settle()
        (turn,) = bot.service.public_snapshot(table_id).to_act
        player = harness.user_of_seat(table_id, turn)
        (first,) = mentions()
        assert f"<@{player.id}>" in first["content"]
        while bot.service.public_snapshot(table_id).to_act == (turn,):
            await harness.act(player, table_id)
        await harness.settle()
        (second,) = mentions()  # the first one is deleted once the turn is played
        (nxt,) = bot.service.public_snapshot(table_id).to_act
        assert f"<@{harness.user_of_seat(table_id, nxt).id}>" in second["content"]
        assert int(first["id"]) not in harness.fake.messages


async def test_turn_mentions_can_be_turned_off(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        settings = await bot.guild_settings.get(harness.fake.guild_id)
        await bot.guild_settings.save(settings.model_copy(update={"turn_pings": False}))
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        for user in (alice, bob, carol):
            await harness.act(user, table_id)
        await harness.settle()
        assert not any("your turn" in m["content"] for m in harness.fake.channel_messages())


async def test_a_turn_that_starts_while_my_cards_is_being_answered_is_still_shown(
    harness: BotUnderTest,
) -> None:
    """My cards is drawn from a view taken before the answer goes out: when the turn passes
    to the player in between, their new message must still come to offer the moves."""
    async with harness.running() as bot:
        table_id, round_no, turn = await _after_the_peeks(harness)
        player = harness.user_of_seat(table_id, turn)
        nxt = (turn + 1) % 3
        waiting = harness.user_of_seat(table_id, nxt)
        private_view = bot.service.play.private_view

        async def a_turn_played_meanwhile(table: int, user_id: int) -> Any:
            view = await private_view(table, user_id)
            if user_id == waiting.id:
                bot.service.play.private_view = private_view
                while bot.service.public_snapshot(table_id).to_act == (turn,):
                    await harness.act(player, table_id)
            return view

        bot.service.play.private_view = a_turn_played_meanwhile
        await harness.my_cards(waiting, table_id)
        await harness.settle()
        assert bot.service.public_snapshot(table_id).to_act == (nxt,)
        offered = harness.private_choices(waiting, round_no)
        assert "p=draw" in [c.action for c in offered]


async def test_a_click_on_my_cards_edits_that_message_once(harness: BotUnderTest) -> None:
    """The click's answer shows the message's new moves: the follower does not edit it too
    (through the previous click's token) while the answer is on its way."""
    async with harness.running():
        table_id, _, turn = await _after_the_peeks(harness)
        player = harness.user_of_seat(table_id, turn)
        await harness.my_cards(player, table_id)
        await harness.settle()
        message_id = harness.last_private[player.id]
        before = len(harness.fake.requests)
        await harness.act(player, table_id)  # their draw: a new moment for their message
        await harness.settle()
        touching = [r.route for r in harness.fake.requests[before:] if r.message_id == message_id]
        assert touching == ["POST /interactions/{interaction_id}/{token}/callback"]


FOLLOW_UP = "POST /webhooks/{app_id}/{token}"  # a hand moved to the bottom: a new message


async def test_hands_moved_to_the_bottom_while_mentions_are_paced_leave_no_stale_message(
    harness: BotUnderTest,
) -> None:
    """Discord's per-channel limit on posts holds the turns' mentions while the players click
    on (each as soon as they may): every hand moved to the bottom is either the player's one
    current "My cards" or deleted, and the current one offers what they may do now. Before,
    passes piled up behind a held mention and each re-posted a hand drawn before the wait,
    left on screen (peeks that never hid) beside the current one."""
    harness.channel_edits, harness.pacing_clock = (5, 5.0), harness.clock
    harness.fake.limit_channel_edits(edits=5, per=5.0, now=harness.clock.now)
    harness.fake.limit_channel_posts(posts=5, per=5.0, now=harness.clock.now)
    harness.choose = lambda offered: pick(offered, ("peek", "draw", "discard", "skip", "end"))
    async with harness.running() as bot:
        table_id, round_no, _ = await _after_the_peeks(harness)
        people = [harness.user_of_seat(table_id, seat) for seat in range(3)]
        for user in people:  # every hand open and followed
            await harness.my_cards(user, table_id)
        for step in range(36):  # nobody calls Dutch: the round goes on
            snapshot = bot.service.public_snapshot(table_id)
            assert snapshot.status == PLAYING and snapshot.round_no == round_no
            if step % 3 == 0:  # the mention goes out and the hand moves before the click
                await harness.settle()
            (turn,) = snapshot.to_act
            await harness.act(harness.user_of_seat(table_id, turn), table_id)
        await harness.settle()
        followed = bot.tables.follower._followed.get(table_id, {})
        moved = [
            r
            for r in harness.fake.requests
            if r.route == FOLLOW_UP and r.ephemeral and r.user_id in {u.id for u in people}
        ]
        assert moved, "no hand was moved to the bottom: the test shows nothing"
        current = {user_id: f.message_key for user_id, f in followed.items()}
        stale = [
            r.message_id
            for r in moved
            if r.message_id in harness.fake.messages and current.get(r.user_id) != r.message_id
        ]
        assert stale == [], f"{len(stale)} of {len(moved)} hands moved were left behind"
        for user in people:
            legal = (await bot.service.play.follow_view(table_id, user.id)).legal  # type: ignore[union-attr]
            shown = harness.fake.message(current[user.id])
            plays = {c.action[2:] for c in choices(shown) if c.action.startswith("p=")}
            assert plays <= set(legal), f"{user.name}'s hand offers {plays}, not {legal}"
