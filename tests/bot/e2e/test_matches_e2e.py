"""Whole matches of the real bot through a fake Discord: every player clicks what it is
shown, and every payload is checked for leaked cards."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.snapshots import FINISHED
from games.cards import card, shuffled, standard_deck
from tests.bot.e2e.harness import (
    DUTCH_PREFERENCE,
    EIGHT,
    BotUnderTest,
    assert_one_short_private_sentence,
    players,
)
from tests.bot.e2e.players import (
    Choice,
    answer_text,
    choices,
    pick,
    pick_at_random,
    use,
    verb_choice,
)


async def test_three_players_play_a_whole_short_match_and_no_card_leaks(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_to_the_end(table_id)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == FINISHED and snapshot.winners
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()
        assert checker.checked > 20  # the checker did read the game's messages
        assert all(r.status != 400 for r in harness.fake.requests)


@pytest.mark.parametrize("preset", ["classic", "house"])
async def test_players_clicking_any_offered_move_reach_every_menu_and_no_card_leaks(
    harness: BotUnderTest, preset: str
) -> None:
    """Seeded random clicks: powers (Queen looks at others' cards, Jack swaps, 7s, 9s),
    matching discards, selects and their navigation, all checked for leaks."""
    rng = random.Random(f"e2e-{preset}")
    harness.choose = lambda offered: pick_at_random(offered, rng)
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], preset=preset, target=10)
        await harness.play_to_the_end(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()
        plain = {"join", "start", "hand", "peek", "draw", "take", "discard", "swap", "dutch", "end"}
        moves = [_verb_of(i.custom_id or "") for i in harness.fake.interactions.values()]
        assert set(moves) - plain, f"no power, match or select was used: {moves}"


def _verb_of(custom_id: str) -> str:
    """`ct:1:0:p=swap 2` -> `swap`; `ct:1:0:s=jack 3` -> `s=jack`; `ct:1:0:hand` -> `hand`."""
    action = custom_id.split(":", 3)[-1]
    kind, _, rest = action.partition("=")
    if kind == "p":
        return rest.split(" ")[0]
    return f"{kind}={rest.split(' ')[0]}" if rest else kind


async def test_eight_players_reach_a_jack_and_a_queen_through_menus_of_over_25_choices(
    eight_players: BotUnderTest,
) -> None:
    """With 8 seats a Jack has 4 x 28 targets and a Queen 32: past a select's 25 options the
    menu narrows one piece at a time. The deck puts a Jack, then a Queen, on top of the stock."""
    harness = eight_players
    users = [harness.fake.user(name) for name in EIGHT]
    deck = shuffled(standard_deck(jokers=2), 7)
    for position, name in ((33, "JS"), (34, "QH")):  # 8 x 4 dealt, 1 discarded, then the stock
        deck.remove(card(name))
        deck.insert(position, card(name))
    used: set[str] = set()

    def choose(offered: Sequence[Choice]) -> Choice | None:
        table = harness.live.service._table(table_id)
        used.update(action.kind for _, action in table.round.history if table.round)
        if {"jack", "look"} <= used:
            return pick(offered, DUTCH_PREFERENCE)
        return pick(offered, ("peek", "jack", "look", "draw", "discard", "skip"))

    harness.choose = choose
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(users[0], users[1:], decks=[deck], target=10)
        await harness.play_to_the_end(table_id)
        assert {"jack", "look"} <= used
        narrowing = [
            i for i in harness.fake.interactions.values() if i.kind == "select" and i.data["values"]
        ]
        assert any(len(str(i.data["values"][0]).split(" ")) < 3 for i in narrowing)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        checker.assert_clean()


async def test_two_friends_and_a_bot_player_finish_a_match_without_seeing_its_cards(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.open_table(alice, target=10)
        harness.stack_decks(table_id, range(201, 211))
        await harness.press(bob, table_id, "join")
        await harness.press(alice, table_id, "addbot")
        seats = bot.service.public_snapshot(table_id).seats
        assert [info.is_bot for info in seats] == [False, False, True]
        await harness.press(alice, table_id, "start")
        await harness.play_to_the_end(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_two_tables_in_two_channels_played_in_turns_keep_their_cards_apart(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    fake = harness.fake
    first = [fake.user(name) for name in EIGHT[:3]]
    second = [fake.user(name) for name in EIGHT[3:6]]
    async with harness.running() as bot:
        checker = harness.leak_checker()
        here = await harness.seat_players(first[0], first[1:], target=10)
        there = await harness.seat_players(
            second[0], second[1:], target=10, channel_id=fake.other_channel_id
        )
        assert int(harness.table_message(there)["channel_id"]) == fake.other_channel_id
        playing = [here, there]
        for _ in range(400):  # a step at each table in turn, until both matches are over
            playing = [table_id for table_id in playing if await harness.step(table_id)]
            if not playing:
                break
        for table_id in (here, there):
            assert bot.service.public_snapshot(table_id).status == FINISHED
            await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_finished_matches_feed_the_leaderboard_and_stats_commands(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for match in range(3):
            if match:
                await harness.press(alice, table_id, "rematch")
                await harness.press(bob, table_id, "join")
                await harness.press(carol, table_id, "join")
                await harness.press(alice, table_id, "start")
            await harness.play_to_the_end(table_id)
            assert bot.service.public_snapshot(table_id).status == FINISHED
        guild_id = harness.fake.guild_id
        rows = await bot.store.leaderboard(guild_id, "dutch", min_matches=3)
        assert {row.user_id for row in rows} == {alice.id, bob.id, carol.id}
        board, _ = await harness.ask(carol, "leaderboard")
        shown = answer_text(harness.fake, board)
        positions = [shown.index(row.display_name) for row in rows]
        assert positions == sorted(positions), "the board lists the store's ranking in order"
        stats, _ = await harness.ask(carol, "stats", member=bob)
        bob_stats = await bot.store.player_stats(guild_id, bob.id)
        (dutch,) = bob_stats.games
        assert dutch.matches == 3
        assert "Bob" in answer_text(harness.fake, stats)


async def test_a_player_who_leaves_mid_match_is_played_for_and_cannot_act_any_more(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for user in (alice, bob, carol):
            await harness.act(user, table_id)
        leave = await harness.fake.slash(carol, "dutch leave")
        await leave.wait_answered()
        await harness.settle()
        assert_one_short_private_sentence(leave)
        assert bot.service.public_snapshot(table_id).seats[2].left
        hand = verb_choice(harness.table_message(table_id), "hand")
        assert hand is not None
        assert_one_short_private_sentence(await use(harness.fake, carol, hand))
        await harness.play_to_the_end(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_a_host_who_cancels_the_lobby_closes_the_table_and_its_buttons(
    harness: BotUnderTest,
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running():
        table_id = await harness.open_table(alice, target=10)
        await harness.press(bob, table_id, "join")
        await harness.press(alice, table_id, "cancel")
        assert table_id not in harness.table_ids()
        final = await harness.stored_table_message(table_id)
        assert not choices(final), "a cancelled table keeps no buttons"


async def test_a_slow_player_is_reminded_once_by_a_mention_of_them_alone(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for user in (alice, bob, carol):
            await harness.act(user, table_id)
        # the mention of the turn that starts is posted by then (on a loaded machine it could
        # come after the count below and pass for a second reminder)
        await harness.settle()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.turn_deadline is not None
        slow = harness.user_of_seat(table_id, snapshot.to_act[0])
        posts_before = len(harness.fake.channel_messages())
        halfway = (snapshot.turn_deadline - harness.clock.now()) / 2
        await harness.clock.advance(halfway + 1)
        await harness.settle()
        reminders = harness.fake.channel_messages()[posts_before:]
        assert len(reminders) == 1 and f"<@{slow.id}>" in reminders[0]["content"]
        reminder_post = next(
            r for r in harness.fake.requests if r.message_id == int(reminders[0]["id"])
        )
        assert [int(u) for u in reminder_post.payload["allowed_mentions"]["users"]] == [slow.id]
        assert harness.actions_played(table_id) == 3  # a reminder, not yet a timeout
