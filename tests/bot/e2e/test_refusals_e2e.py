"""Clicks and commands the bot must refuse, each with one short private sentence, and
the commands only some members may use."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.i18n import catalog
from bot.snapshots import PLAYING, ROUND_OVER
from bot.ui.custom_ids import Verb
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import answer_message, answer_text, choices, pick, use, verb_choice


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
        asked = await harness.fake.slash(admin, "dutch stop")
        await asked.wait_answered()
        await harness.settle()
        # a match in play: asked once, and nothing stopped until the answer
        assert "ends for everyone" in answer_text(harness.fake, asked)
        assert bot.service.public_snapshot(table_id).status == PLAYING
        message = answer_message(harness.fake, asked)
        assert message is not None
        sure = verb_choice(message, "stop!")
        assert sure is not None and sure.label == "Stop the match for everyone"
        stopped = await use(harness.fake, admin, sure)
        await harness.settle()
        assert "was stopped" in answer_text(harness.fake, stopped)
        assert table_id not in harness.table_ids()
        final = await harness.stored_table_message(table_id)
        assert not choices(final), "a stopped table keeps no buttons"
        checker.assert_clean()


@pytest.mark.parametrize("game", ["euchre", "dame"])
async def test_the_host_s_stop_of_a_match_in_play_asks_once_in_every_game(
    harness: BotUnderTest, game: str
) -> None:
    """`/euchre stop` and `/dame stop` by the table's host, like `/dutch stop`: a match in play
    stops only once its button confirms it."""
    alice = harness.fake.user("alice")
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.open_table(alice, game=game)
        await harness.press(alice, table_id, Verb.FILL_BOTS.value)
        await harness.press(alice, table_id, Verb.START.value)
        assert bot.service.public_snapshot(table_id).status == PLAYING
        asked = await harness.fake.slash(alice, f"{game} stop")
        await asked.wait_answered()
        await harness.settle()
        assert "ends for everyone" in answer_text(harness.fake, asked)
        assert bot.service.public_snapshot(table_id).status == PLAYING
        message = answer_message(harness.fake, asked)
        assert message is not None
        sure = verb_choice(message, "stop!")
        assert sure is not None and sure.label == "Stop the match for everyone"
        stopped = await use(harness.fake, alice, sure)
        await harness.settle()
        assert "was stopped" in answer_text(harness.fake, stopped)
        assert table_id not in harness.table_ids()
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


async def test_the_rules_are_shown_to_the_asker_alone_in_both_rule_sets(
    harness: BotUnderTest,
) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running():
        checker = harness.leak_checker()
        texts = []
        for preset in ("classic", "house"):
            rules = await harness.fake.slash(alice, "dutch rules", preset=preset)
            await rules.wait_answered()
            (answer,) = rules.requests
            assert answer.ephemeral and answer.user_id == alice.id
            texts.append(answer_text(harness.fake, rules))
        assert all(texts) and texts[0] != texts[1]
        checker.assert_clean()


async def test_a_click_from_another_server_or_channel_is_refused(
    harness: BotUnderTest, caplog: pytest.LogCaptureFixture
) -> None:
    """A custom id forged for a lobby of another server (or another channel of this one) is
    refused in one sentence: nobody is seated from elsewhere, and nothing is logged above
    INFO."""
    caplog.set_level(logging.INFO)
    elsewhere = harness.fake.add_guild("Elsewhere", ("mallory",))
    mallory, dave = harness.fake.user("mallory"), harness.fake.user("dave")
    alice = harness.fake.user("alice")
    async with harness.running() as bot:
        table_id = await harness.open_table(alice)
        version = bot.service.public_snapshot(table_id).version
        join = f"ct:{table_id}:0:join"
        for user, channel_id in (
            (mallory, elsewhere.channel_id),
            (dave, harness.fake.other_channel_id),
        ):
            message = harness.fake.seed_message(channel_id, {"content": "a message of ours"})
            click = await harness.fake.click(user, int(message["id"]), join, forged=True)
            await click.wait_answered()
            await harness.settle()
            assert_one_short_private_sentence(click)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.version == version
        assert {s.user_id for s in snapshot.seats} == {alice.id}
    loud = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("bot")]
    assert loud == [], [r.getMessage() for r in loud]
