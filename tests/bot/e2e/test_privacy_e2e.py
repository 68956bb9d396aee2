"""What each player sees: their own cards, ephemerally, for as long as the rules allow."""

from __future__ import annotations

import asyncio

from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.leak_checker import Exposure, LeakChecker, card_faces


async def test_private_views_are_ephemeral_and_show_the_players_own_peek(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        peek = await harness.act(alice, table_id)
        table = bot.service._table(table_id)
        assert table.round is not None
        seat = table.seat_of(alice.id)
        assert seat is not None
        own = {s.card for s in table.round.view(seat).grids[seat] if s.card is not None}
        assert len(own) == 2  # the two bottom cards, just peeked
        shown = [r for r in peek.requests if r.shows_message]
        assert shown and all(r.ephemeral for r in shown)
        assert own <= card_faces([r.payload for r in shown])
        checker.assert_clean()


async def test_the_leak_checker_reads_the_cards_the_real_bot_renders(harness: BotUnderTest) -> None:
    """Guard against a silent checker: if alice's own view were not hers to see, her peek's
    answer would be a leak of exactly her two bottom cards."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        blind = LeakChecker(lambda: Exposure(public=harness.exposure().public)).attach(harness.fake)
        await harness.act(alice, table_id)
        table = bot.service._table(table_id)
        assert table.round is not None
        seat = table.seat_of(alice.id)
        assert seat is not None
        own = {s.card for s in table.round.view(seat).grids[seat] if s.card is not None}
        assert {face for leak in blind.leaks for face in leak.faces} == own


async def test_three_players_peeking_at_once_each_see_only_their_own_cards(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        for user in (alice, bob, carol):
            await harness.my_cards(user, table_id)
        peeks = []
        for user in (alice, bob, carol):
            (choice,) = [c for c in harness.private_choices(user, round_no) if c.notation]
            peeks.append(choice)
        clicks = await asyncio.gather(
            *(
                harness.fake.click(user, c.message_id, c.custom_id)
                for user, c in zip((alice, bob, carol), peeks, strict=True)
            )
        )
        for click in clicks:
            await click.wait_answered()
        await harness.settle()
        assert harness.actions_played(table_id) == 3
        for click in clicks:
            shown = [r for r in click.requests if r.shows_message]
            assert shown and all(r.ephemeral for r in shown)
            assert len(card_faces([r.payload for r in shown])) == 2
        checker.assert_clean()


async def test_a_peeked_card_is_hidden_again_after_the_reveal_delay(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        peek = await harness.act(alice, table_id)
        message_id = harness.last_private[alice.id]
        assert len(card_faces(harness.fake.message(message_id))) == 2
        settings = await bot.guild_settings.get(harness.fake.guild_id)
        await harness.clock.advance(settings.reveal_seconds)
        await harness.settle()
        assert card_faces(harness.fake.message(message_id)) == set()
        hide = peek.requests[-1]
        assert hide.route.startswith("PATCH /webhooks/") and hide.ephemeral
        checker.assert_clean()


async def test_an_absent_player_is_played_for_when_the_turn_times_out_and_sees_it_later(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.act(alice, table_id)
        await harness.act(bob, table_id)  # carol does not peek: her time runs out
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.turn_deadline is not None
        await harness.clock.advance(snapshot.turn_deadline - harness.clock.now())
        await harness.settle()
        assert harness.actions_played(table_id) == 3  # the timeout peeked for her
        await harness.assert_table_message_converged(table_id)
        hand = await harness.my_cards(carol, table_id)  # carol is back: her peek, for her only
        assert hand.requests[0].ephemeral
        assert len(card_faces([r.payload for r in hand.requests])) == 2
        await harness.my_cards(alice, table_id)
        checker.assert_clean()
