"""Values no Discord client would send, sent anyway (as Discord's API allows): each gets one
short private sentence, nothing is stored, and the bot logs nothing above INFO."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import catalog
from bot.local.records import LocalUser
from bot.snapshots import PLAYING
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import use, verb_choice


@pytest.fixture
def quiet_log(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    loud = [r for r in caplog.records if r.levelno > logging.INFO]
    assert not loud, "logged above INFO:\n" + "\n".join(r.getMessage() for r in loud)


BAD_COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("dutch start", {"target": 5}),
    ("dutch start", {"target": 1001}),
    ("dutch start", {"target": 2**53}),
    ("dutch start", {"target": "ten"}),
    ("dutch start", {"preset": ""}),
    ("dutch start", {"preset": "nonsense"}),
    ("dutch rules", {"preset": "nonsense"}),
    ("settings", {"preset": "nonsense"}),
    ("settings", {"turn_seconds": 0}),
    ("leaderboard", {"order": "nonsense"}),
    ("leaderboard", {"game": "poker"}),
]


async def test_options_no_client_offers_get_one_private_sentence_and_store_nothing(
    harness: BotUnderTest, quiet_log: None
) -> None:
    admin = harness.fake.admin
    async with harness.running() as bot:
        for command, options in BAD_COMMANDS:
            sent = await harness.fake.slash(admin, command, **options)
            await sent.wait_answered()
            await harness.settle()
            assert_one_short_private_sentence(sent)
        assert harness.table_ids() == []
        assert (await bot.store.load_active_tables()).tables == []
        stored = await bot.store.get_guild_settings(harness.fake.guild_id)
        assert stored.default_presets == {} and stored.turn_seconds == 90


async def test_the_stats_of_someone_who_left_the_server_are_shown(
    harness: BotUnderTest, quiet_log: None
) -> None:
    alice, _, _ = players(harness.fake)
    gone = LocalUser(harness.fake.new_id(), "gone")  # not a member any more
    async with harness.running():
        stats = await harness.fake.slash(alice, "stats", member=gone)
        await stats.wait_answered()
        await harness.settle()
        assert all(r.ok for r in stats.requests)
        shown = [r for r in stats.requests if r.shows_message]
        assert shown and "Gone" in str(shown[-1].payload)


async def test_a_command_delivered_twice_is_answered_once(
    harness: BotUnderTest, quiet_log: None
) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running():
        start = await harness.fake.slash(alice, "dutch start", target=10)
        await start.wait_answered()
        await harness.settle()
        await harness.fake.deliver_again(start)
        await harness.settle()
        assert len(harness.table_ids()) == 1
        assert all(r.ok for r in start.requests)
        assert sum(1 for r in start.requests if "/callback" in r.path) == 1


async def test_clicks_whose_id_is_not_on_their_message_are_answered(
    harness: BotUnderTest, quiet_log: None
) -> None:
    """Discord does not promise that a clicked id is on the message it comes from: a late
    Join on the lobby message after the start, My cards on an earlier round's message, ids
    nobody made. Each gets the one-sentence answer of an out-of-date button, in time."""
    alice, bob, carol = players(harness.fake)
    dave = harness.fake.user("dave")
    async with harness.running() as bot:
        table_id = await harness.open_table(alice, target=1000)
        lobby = harness.table_message(table_id)
        join = verb_choice(lobby, "join")
        assert join is not None
        for guest in (bob, carol):
            await use(harness.fake, guest, join)
        await harness.press(alice, table_id, "start")
        first_round = harness.table_message(table_id)
        hand = verb_choice(first_round, "hand")
        # one live message per table: the lobby's, now showing the round (and then the next)
        assert hand is not None and int(first_round["id"]) == int(lobby["id"])
        await harness.play_round(table_id)
        await harness.next_round(table_id)
        assert int(harness.table_message(table_id)["id"]) == int(first_round["id"])
        round_no = bot.service.public_snapshot(table_id).round_no
        late = [
            (dave, int(lobby["id"]), join.custom_id),  # the lobby's buttons are gone
            (alice, int(first_round["id"]), hand.custom_id),  # so are the old round's
            (alice, int(first_round["id"]), f"ct:{table_id}:{round_no}:hand\nx"),
            (alice, int(first_round["id"]), ""),
            (alice, int(first_round["id"]), "ct:" + "9" * 200),
        ]
        version = bot.service.public_snapshot(table_id).version
        for user, message_id, custom_id in late:
            click = await harness.fake.click(user, message_id, custom_id, absent=True)
            await click.wait_answered()
            await harness.settle()
            sentence = assert_one_short_private_sentence(click)
            assert sentence == catalog("en")["error.bad_button"]
        # An id with a newline that is on the message (a tampered client) is answered too.
        forged = await harness.fake.click(
            alice, int(first_round["id"]), f"ct:{table_id}:{round_no}:hand\n", forged=True
        )
        await forged.wait_answered()
        assert_one_short_private_sentence(forged)
        assert bot.service.public_snapshot(table_id).version == version


async def test_a_step_of_the_menu_that_is_gone_answers_so_and_builds_nothing_empty(
    harness: BotUnderTest, quiet_log: None
) -> None:
    """A step whose choices are gone (played from another message, or never offered) must
    not become an empty select, which Discord refuses (50035), losing the click."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        round_no = bot.service.public_snapshot(table_id).round_no
        await harness.my_cards(alice, table_id)
        mine = harness.last_private[alice.id]
        for custom_id in (f"ct:{table_id}:{round_no}:n=swap 9", f"ct:{table_id}:{round_no}:n=x"):
            step = await harness.fake.click(alice, mine, custom_id, forged=True)
            await step.wait_answered()
            await harness.settle()
            sentence = assert_one_short_private_sentence(step)
            assert sentence == catalog("en")["error.choice_gone"]
        stale = await harness.fake.choose(
            alice, mine, f"ct:{table_id}:{round_no}:s=", ["swap"], absent=True
        )
        await stale.wait_answered()
        await harness.settle()
        assert_one_short_private_sentence(stale)


async def test_a_click_delivered_twice_is_answered_once(
    harness: BotUnderTest, quiet_log: None
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        click = await harness.my_cards(alice, table_id)
        await harness.fake.deliver_again(click)
        await harness.settle()
        assert [r.ok for r in click.requests] == [True] * len(click.requests)
        assert sum(1 for r in click.requests if "/callback" in r.path) == 1
        assert bot.service.public_snapshot(table_id).status == PLAYING
