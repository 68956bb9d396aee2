"""What each player sees: their own cards, ephemerally, for as long as the rules allow."""

from __future__ import annotations

import asyncio

import pytest

from games.cards import card, shuffled, standard_deck
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.leak_checker import Exposure, LeakChecker, card_faces
from tests.bot.e2e.players import pick, use


@pytest.fixture(autouse=True)
def hands_and_tables_drawn(harness: BotUnderTest) -> None:
    """The bot draws its pictures of hands and tables here (off in other e2e tests, for speed):
    the leak checker reads the cards each picture shows."""
    harness.hand_pictures = True


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
            offered = harness.private_choices(user, round_no)
            peeks.append(next(c for c in offered if c.action.startswith("peek")))
        clicks = await asyncio.gather(
            *(
                use(harness.fake, user, c)
                for user, c in zip((alice, bob, carol), peeks, strict=True)
            )
        )
        for click in clicks:
            await click.wait_answered()
        await harness.settle()
        assert harness.actions_played(table_id) == 3
        top = bot.service.public_snapshot(table_id).view.discard_top
        for click in clicks:
            shown = [r for r in click.requests if r.shows_message]
            assert shown and all(r.ephemeral for r in shown)
            # the two peeked cards; the message that then follows the turn may offer the
            # public discard on its Take button
            assert len(card_faces([r.payload for r in shown]) - {top}) == 2
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


async def test_a_queens_look_at_an_opponents_card_is_shown_to_the_looker_alone(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    deck = shuffled(standard_deck(jokers=2), 11)
    deck.remove(card("QS"))
    deck.insert(13, card("QS"))  # 3 x 4 dealt, 1 discarded: the first card drawn
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.open_table(alice, target=10)
        bot.service.stack_deck(table_id, deck)
        for guest in (bob, carol):
            await harness.press(guest, table_id, "join")
        await harness.press(alice, table_id, "start")
        for user in (alice, bob, carol):
            await harness.act(user, table_id)
        settings = await bot.guild_settings.get(harness.fake.guild_id)
        await harness.clock.advance(settings.reveal_seconds)  # the peeks are out of view
        looker_seat = bot.service.public_snapshot(table_id).to_act[0]
        target_seat = (looker_seat + 1) % 3
        looker = harness.user_of_seat(table_id, looker_seat)
        target = harness.user_of_seat(table_id, target_seat)
        harness.choose = lambda offered: pick(offered, ("draw", "discard", f"look {target_seat}:1"))
        await harness.act(looker, table_id)  # draws the Queen
        await harness.act(looker, table_id)  # discards it: its power may be used
        look = await harness.act(looker, table_id)
        assert str(bot.service._table(table_id).round.history[-1][1]) == f"look {target_seat}:1"
        (reveal,) = bot.service._table(table_id).round.view(looker_seat).reveals
        shown = [r for r in look.requests if r.shows_message]
        assert shown and all(r.ephemeral and r.user_id == looker.id for r in shown)
        assert reveal.card in card_faces([r.payload for r in shown])
        for other in (target, harness.user_of_seat(table_id, (looker_seat + 2) % 3)):
            hand = await harness.my_cards(other, table_id)
            assert reveal.card not in card_faces([r.payload for r in hand.requests])
        await harness.settle()
        table_message = await harness.stored_table_message(table_id)
        assert reveal.card not in card_faces(table_message)
        checker.assert_clean()


async def test_a_sevens_look_and_a_nines_blind_swap_reveal_nothing_to_others(
    harness: BotUnderTest,
) -> None:
    """House rules: the first draw is a 7 (look at an own card), the second a 9 (swap with
    an opponent, neither card seen); the deck is stacked so both happen at once."""
    alice, bob, carol = players(harness.fake)
    deck = shuffled(standard_deck(), 12)
    for position, name in ((13, "7S"), (14, "9H")):
        deck.remove(card(name))
        deck.insert(position, card(name))
    harness.choose = lambda offered: pick(
        offered, ("peek", "draw", "seven 1", "nine 1", "discard", "end", "skip")
    )
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.open_table(alice, preset="house", target=10)
        bot.service.stack_deck(table_id, deck)
        for guest in (bob, carol):
            await harness.press(guest, table_id, "join")
        await harness.press(alice, table_id, "start")
        played: list[str] = []
        for _ in range(40):
            if {"seven", "nine"} <= set(played):
                break
            snapshot = bot.service.public_snapshot(table_id)
            await harness.act(harness.user_of_seat(table_id, snapshot.to_act[0]), table_id)
            played = [a.kind for _, a in bot.service._table(table_id).round.history]
        assert {"seven", "nine"} <= set(played)
        await harness.settle()
        checker.assert_clean()
