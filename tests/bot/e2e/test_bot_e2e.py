"""The real bot, end to end: slash commands and clicks of three players through a fake Discord,
with every payload checked for leaked cards."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.i18n import catalog
from bot.service.snapshots import FINISHED, PLAYING, ROUND_OVER
from games.cards import card, shuffled, standard_deck
from tests.bot.e2e.fake_discord import FakeDiscord, running_fake_discord
from tests.bot.e2e.fake_records import FakeInteraction, FakeUser
from tests.bot.e2e.harness import DUTCH_PREFERENCE, BotUnderTest
from tests.bot.e2e.leak_checker import Exposure, LeakChecker, card_faces
from tests.bot.e2e.players import Choice, answer_text, pick, pick_at_random, use, verb_choice

ONE_SENTENCE_MAX = 200  # characters: "one short sentence"


@pytest.fixture
async def harness(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[BotUnderTest]:
    caplog.set_level(logging.WARNING)
    yield BotUnderTest(fake_discord, tmp_path / "cardtable.sqlite3")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "the bot logged errors:\n" + "\n".join(r.getMessage() for r in errors)


def players(fake: FakeDiscord) -> tuple[FakeUser, FakeUser, FakeUser]:
    return fake.user("alice"), fake.user("bob"), fake.user("carol")


def assert_one_short_private_sentence(interaction: FakeInteraction) -> str:
    """The answer is a single ephemeral message of one short line, with nothing to click."""
    (answer,) = [r for r in interaction.requests if r.shows_message]
    assert answer.ephemeral and answer.user_id == interaction.user.id
    data = answer.payload.get("data", answer.payload)
    content = str(data.get("content") or "")
    assert content and "\n" not in content and len(content) <= ONE_SENTENCE_MAX
    assert not data.get("embeds") and not data.get("components")
    assert all(r.ok for r in interaction.requests)
    return content


async def test_three_players_play_a_whole_short_match_and_no_card_leaks(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        await harness.play_match(table_id)
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
        await harness.play_match(table_id)
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


async def test_a_restarted_bot_resumes_the_round_and_old_buttons_still_work(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for user in (alice, bob, carol):
            await harness.act(user, table_id)  # everyone peeks
        turn = bot.service.public_snapshot(table_id).to_act[0]
        mover = harness.user_of_seat(table_id, turn)
        await harness.my_cards(mover, table_id)
        played_before = harness.actions_played(table_id)
        old_table_message = harness.table_message(table_id)
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        old_private = harness.private_choices(mover, round_no)

    async with harness.running() as bot:
        checker = harness.leak_checker()
        assert bot.service.public_snapshot(table_id).status == PLAYING
        assert harness.actions_played(table_id) == played_before
        # A button of the player's ephemeral message, made by the previous process.
        choice = pick(old_private, ("draw",))
        assert choice is not None and choice.notation == "draw"
        await use(harness.fake, mover, choice)
        await harness.settle()
        assert harness.actions_played(table_id) == played_before + 1
        # The old table message's "My cards" still answers.
        hand = verb_choice(old_table_message, "hand")
        assert hand is not None
        answer = await use(harness.fake, bob, hand)
        assert answer.requests[0].ephemeral
        await harness.play_match(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_a_click_by_someone_not_seated_gets_one_short_private_sentence(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    dave = harness.fake.user("dave")
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        version = bot.service.public_snapshot(table_id).version
        table_message = harness.table_message(table_id)
        hand = verb_choice(table_message, "hand")
        assert hand is not None
        click = await use(harness.fake, dave, hand)
        await harness.settle()
        assert_one_short_private_sentence(click)
        assert bot.service.public_snapshot(table_id).version == version
        assert harness.table_message(table_id) == table_message


async def test_a_french_speaking_user_is_answered_in_french(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)
    dave = harness.fake.user("dave")
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        hand = verb_choice(harness.table_message(table_id), "hand")
        assert hand is not None
        click = await harness.fake.click(dave, hand.message_id, hand.custom_id, locale="fr")
        await click.wait_answered()
        await harness.settle()
        sentence = assert_one_short_private_sentence(click)
        assert sentence == catalog("fr")["error.not_seated"] != catalog("en")["error.not_seated"]


async def test_a_button_of_an_earlier_round_is_refused_as_stale(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        first_round = bot.service.public_snapshot(table_id).round_no
        assert first_round is not None
        await harness.my_cards(alice, table_id)
        old_peek = pick(harness.private_choices(alice, first_round), ("peek",))
        assert old_peek is not None and (old_peek.notation or "").startswith("peek")
        await harness.my_cards(alice, table_id)  # she plays from a newer message
        await harness.play_round(table_id)
        assert bot.service.public_snapshot(table_id).status == ROUND_OVER
        await harness.next_round(table_id)
        assert bot.service.public_snapshot(table_id).round_no != first_round
        # The same move is legal in the new round, but this button belongs to the old one.
        click = await use(harness.fake, alice, old_peek)
        await harness.settle()
        assert_one_short_private_sentence(click)
        assert harness.actions_played(table_id) == 0


async def test_two_clicks_at_once_on_the_same_button_play_once(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for user in (alice, bob, carol):
            await harness.act(user, table_id)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.round_no is not None
        mover = harness.user_of_seat(table_id, snapshot.to_act[0])
        await harness.my_cards(mover, table_id)
        draw = pick(harness.private_choices(mover, snapshot.round_no), ("draw",))
        assert draw is not None and draw.notation == "draw"
        played = harness.actions_played(table_id)
        first, second = await asyncio.gather(
            harness.fake.click(mover, draw.message_id, draw.custom_id),
            harness.fake.click(mover, draw.message_id, draw.custom_id),
        )
        await first.wait_answered()
        await second.wait_answered()
        await harness.settle()
        assert harness.actions_played(table_id) == played + 1
        for click in (first, second):
            assert [r.ok for r in click.requests] == [True] * len(click.requests)
            assert all(r.ephemeral for r in click.requests if r.shows_message)
        refused = [c for c in (first, second) if c.requests[0].payload["type"] == 4]
        assert len(refused) == 1
        assert_one_short_private_sentence(refused[0])


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


async def test_forged_custom_ids_get_one_short_private_sentence(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        round_no = bot.service.public_snapshot(table_id).round_no
        table_message = harness.table_message(table_id)
        forged_ids = (
            "not-ours",
            f"ct:{table_id}:{round_no}:explode",
            f"ct:{table_id}:{round_no}:p=peek 3 4",  # a play on the public message
            f"ct:{table_id + 99}:{round_no}:hand",  # no such table
        )
        version = bot.service.public_snapshot(table_id).version
        for custom_id in forged_ids:
            click = await harness.fake.click(
                alice, int(table_message["id"]), custom_id, forged=True
            )
            await click.wait_answered()
            await harness.settle()
            assert_one_short_private_sentence(click)
        assert harness.actions_played(table_id) == 0
        assert bot.service.public_snapshot(table_id).version == version


async def test_the_table_message_converges_when_discord_rate_limits_its_edits(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        # Longer than discord.py's own five retries: the bot's coalescer must retry later.
        harness.fake.rate_limit_table_edits(seconds=0.5, retry_after=0.05)
        await harness.play_match(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        refused = [r for r in harness.fake.requests if r.status == 429]
        assert len(refused) >= 5, "discord.py gives up after five tries: then the bot retries"
        checker.assert_clean()


async def test_a_table_message_too_old_to_edit_is_posted_anew_and_play_goes_on(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        old = await harness.stored_table_message(table_id)
        harness.fake.too_old_to_edit.add(int(old["id"]))
        await harness.act(alice, table_id)  # a change: the bot must edit the table message
        await harness.settle()
        new = await harness.stored_table_message(table_id)
        assert new["id"] != old["id"]
        refused = [r for r in harness.fake.requests if r.status == 400]
        assert refused and {r.path.rsplit("/", 1)[-1] for r in refused} == {old["id"]}
        await harness.play_match(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


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


async def test_the_host_cannot_be_overruled_but_a_manager_can_stop_a_table(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    dave, admin = harness.fake.user("dave"), harness.fake.admin
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        refused = await harness.fake.slash(dave, "dutch stop")
        await refused.wait_answered()
        await harness.settle()
        assert_one_short_private_sentence(refused)
        assert bot.service.public_snapshot(table_id).status == PLAYING
        stopped = await harness.fake.slash(admin, "dutch stop")
        await stopped.wait_answered()
        await harness.settle()
        assert_one_short_private_sentence(stopped)
        assert table_id not in harness.table_ids()
        final = await harness.stored_table_message(table_id)
        assert not final["components"], "a stopped table keeps no buttons"
        checker.assert_clean()


async def test_a_guild_that_wants_threads_gets_each_table_in_its_own_thread(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    admin = harness.fake.admin
    async with harness.running() as bot:
        checker = harness.leak_checker()
        setting = await harness.fake.slash(admin, "settings", threads=True)
        await setting.wait_answered()
        assert setting.requests[0].ephemeral
        table_id = await harness.open_table(alice, target=10)
        threads = [c for c in harness.fake.channels.values() if c["type"] == 11]
        assert len(threads) == 1
        thread_id = int(threads[0]["id"])
        location = await bot.locations.get(table_id)
        assert location.thread_id == thread_id
        table_message = await harness.stored_table_message(table_id)
        assert int(table_message["channel_id"]) == thread_id
        for guest in (bob, carol):
            join = verb_choice(table_message, "join")
            assert join is not None
            await use(harness.fake, guest, join)
        await harness.settle()
        assert len(bot.service.public_snapshot(table_id).seats) == 3
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
            await harness.play_match(table_id)
            assert bot.service.public_snapshot(table_id).status == FINISHED
        guild_id = harness.fake.guild_id
        rows = await bot.store.leaderboard(guild_id, "dutch", min_matches=3)
        assert {row.user_id for row in rows} == {alice.id, bob.id, carol.id}
        board = await harness.fake.slash(carol, "leaderboard")
        await board.wait_answered()
        await harness.settle()
        shown = answer_text(harness.fake, board)
        positions = [shown.index(row.display_name) for row in rows]
        assert positions == sorted(positions), "the board lists the store's ranking in order"
        stats = await harness.fake.slash(carol, "stats", member=bob)
        await stats.wait_answered()
        await harness.settle()
        bob_stats = await bot.store.player_stats(guild_id, bob.id)
        (dutch,) = bob_stats.games
        assert dutch.matches == 3
        assert "Bob" in answer_text(harness.fake, stats)


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
        await harness.play_match(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_a_slow_store_makes_the_bot_defer_within_three_seconds_then_answer(
    harness: BotUnderTest,
) -> None:
    """Discord drops an interaction not answered within 3 s (the fake enforces it)."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        record_action = bot.store.record_action

        async def slow_record_action(*args: object, **kwargs: object) -> None:
            await asyncio.sleep(2.3)  # past the bot's 2 s deferral point, within Discord's 3 s
            await record_action(*args, **kwargs)  # type: ignore[arg-type]

        bot.store.record_action = slow_record_action  # type: ignore[method-assign]
        peek = await harness.act(alice, table_id)
        await harness.fake.wait_for(lambda: len(peek.requests) > 1, what="the deferred answer")
        await harness.settle()
        deferral, *answers = peek.requests
        assert deferral.payload["type"] == 6 and deferral.ok
        assert answers and all(r.ok and r.ephemeral for r in answers)
        assert len(card_faces([r.payload for r in answers])) == 2
        assert harness.actions_played(table_id) == 1
        checker.assert_clean()


EIGHT = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


@pytest.fixture
async def eight_players(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[BotUnderTest]:
    caplog.set_level(logging.WARNING)
    async with running_fake_discord(user_names=EIGHT) as fake:
        yield BotUnderTest(fake, tmp_path / "cardtable.sqlite3")
        assert not fake.unknown_routes
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "the bot logged errors:\n" + "\n".join(r.getMessage() for r in errors)


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
        table_id = await harness.open_table(users[0], target=10)
        bot.service.stack_deck(table_id, deck)
        for user in users[1:]:
            await harness.press(user, table_id, "join")
        await harness.press(users[0], table_id, "start")
        await harness.play_match(table_id)
        assert {"jack", "look"} <= used
        narrowing = [
            i for i in harness.fake.interactions.values() if i.kind == "select" and i.data["values"]
        ]
        assert any(len(str(i.data["values"][0]).split(" ")) < 3 for i in narrowing)
        assert bot.service.public_snapshot(table_id).status == FINISHED
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
        for _ in range(400):
            moved = False
            for table_id in (here, there):
                snapshot = bot.service.public_snapshot(table_id)
                if snapshot.status == PLAYING:
                    await harness.act(harness.user_of_seat(table_id, snapshot.to_act[0]), table_id)
                    moved = True
                elif snapshot.status == ROUND_OVER:
                    await harness.next_round(table_id)
                    moved = True
            if not moved:
                break
        for table_id in (here, there):
            assert bot.service.public_snapshot(table_id).status == FINISHED
            await harness.assert_table_message_converged(table_id)
        checker.assert_clean()
