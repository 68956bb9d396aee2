"""Values no Discord client would send, sent anyway (as Discord's API allows): each gets one
short private sentence, nothing is stored, and the bot logs nothing above INFO."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.local.records import LocalUser
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players


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
