"""Hostile members against the bot through Discord: opening and cancelling tables in a loop,
filling a channel with tables, asking for the help forty times, clicking as fast as possible.
Each refusal is one short private sentence (English and French), other tables play on, and the
bot logs nothing above INFO meanwhile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest

from bot.i18n import catalog
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import verb_choice


@pytest.fixture
def quiet(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    loud = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("bot")]
    assert loud == [], [r.getMessage() for r in loud]


def starts_like(key: str, language: str, sentence: str) -> bool:
    """`sentence` is the catalog's `error.<key>` (up to its first placeholder)."""
    return sentence.startswith(catalog(language)[f"error.{key}"].split("{")[0])


async def test_opening_and_cancelling_in_a_loop_is_refused_in_one_sentence(
    harness: BotUnderTest, quiet: None
) -> None:
    alice, bob, _ = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.open_table(alice)
        await harness.press(alice, table_id, "cancel")
        for user, locale in ((alice, "en-US"), (alice, "fr")):
            asked = await harness.fake.slash(user, "dutch start", locale=locale)
            await asked.wait_answered()
            await harness.settle()
            told = assert_one_short_private_sentence(asked)
            assert starts_like("opening_too_fast", locale[:2], told)
        assert bot.service.table_ids() == []
        await harness.clock.advance(10)
        assert await harness.open_table(bob)  # others never waited; alice may again later


async def test_a_channel_holds_as_many_tables_as_the_server_allows(
    harness: BotUnderTest, quiet: None
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        await harness.ask(harness.fake.admin, "settings", tables_per_channel=1)
        assert (await bot.store.get_guild_settings(harness.fake.guild_id)).max_tables_channel == 1
        await harness.open_table(alice)
        asked = await harness.fake.slash(bob, "dutch start")
        await asked.wait_answered()
        await harness.settle()
        assert starts_like(
            "too_many_tables_channel", "en", assert_one_short_private_sentence(asked)
        )
        assert len(bot.service.table_ids()) == 1
        await harness.open_table(carol, channel_id=harness.fake.other_channel_id)
        assert len(bot.service.table_ids()) == 2


async def test_forty_mentions_get_one_help_and_a_second_help_one_sentence(
    harness: BotUnderTest, quiet: None
) -> None:
    alice, bob, _ = players(harness.fake)
    fake = harness.fake

    def helps() -> int:
        return sum(1 for m in fake.messages.values() if m["author"]["bot"] and m.get("embeds"))

    async with harness.running():
        for _ in range(40):
            await fake.say(alice, f"<@{fake.bot_user.id}> help!")
        await fake.wait_for(lambda: helps() > 0, what="the help")
        await harness.settle()
        assert helps() == 1
        _, shown = await harness.ask(bob, "help")  # another member is answered
        assert shown.get("embeds")
        again = await fake.slash(bob, "help", locale="fr")
        await again.wait_answered()
        await harness.settle()
        assert starts_like("help_too_often", "fr", assert_one_short_private_sentence(again))


async def test_one_member_clicking_as_fast_as_possible_is_refused_and_other_tables_play_on(
    harness: BotUnderTest, quiet: None
) -> None:
    alice, bob, carol = players(harness.fake)
    fake = harness.fake
    async with harness.running() as bot:
        mine = await harness.open_table(alice)
        theirs = await harness.open_table(bob, channel_id=fake.other_channel_id)
        join = verb_choice(harness.table_message(theirs), "join")
        hand = verb_choice(harness.table_message(mine), "join")
        assert join is not None and hand is not None
        flood = [await fake.click(alice, hand.message_id, hand.custom_id) for _ in range(30)]
        other = await fake.click(carol, join.message_id, join.custom_id)  # meanwhile
        await asyncio.gather(*(click.wait_answered() for click in [*flood, other]))
        await harness.settle()
        refused = [
            click
            for click in flood
            if starts_like("clicking_too_fast", "en", assert_one_short_private_sentence(click))
        ]
        assert len(refused) >= len(flood) - 2 * 3  # at most two handled at once
        assert carol.id in {s.user_id for s in bot.service.public_snapshot(theirs).seats}
        assert not controller_busy(bot)


def controller_busy(bot: object) -> bool:
    return bool(bot.tables.in_flight)  # type: ignore[attr-defined]
