"""Leaderboard seasons through the real commands: a season rolls over on the bot's clock even
when nobody plays, its winners are announced once where the server asked, its final board is
kept and shown on request beside the current season and all time, and a restart that slept
through a boundary catches up once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord

from bot.snapshots import FINISHED
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players

DECEMBER_1ST = datetime(2023, 12, 1, tzinfo=UTC).timestamp()  # the fake clock starts in November
JANUARY_1ST = datetime(2024, 1, 1, tzinfo=UTC).timestamp()


def announcements(harness: BotUnderTest) -> list[dict[str, Any]]:
    return [
        m
        for m in harness.fake.channel_messages()
        if "is over" in (m.get("content") or "") or "est terminée" in (m.get("content") or "")
    ]


def heading(shown: dict[str, Any]) -> str:
    return str(shown["embeds"][0]["author"]["name"])


def board_text(shown: dict[str, Any]) -> str:
    return "\n".join(str(embed.get("description", "")) for embed in shown["embeds"])


async def play_a_match_with_seasons_on(harness: BotUnderTest) -> None:
    alice, bob, carol = players(harness.fake)
    await harness.ask(harness.fake.admin, "settings", season="monthly", season_channel="here")
    table_id = await harness.seat_players(alice, [bob, carol], target=10)
    await harness.play_to_the_end(table_id)
    assert harness.live.service.public_snapshot(table_id).status == FINISHED


async def test_a_season_rolls_over_on_time_is_announced_once_and_its_final_board_is_kept(
    harness: BotUnderTest,
) -> None:
    _, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        await play_a_match_with_seasons_on(harness)
        _, shown = await harness.ask(carol, "leaderboard", game="dutch")
        assert heading(shown) == "Season: November 2023"
        november = board_text(shown)
        assert all(name in november for name in ("Alice", "Bob", "Carol"))
        all_time_before = await bot.store.leaderboard(harness.fake.guild_id, "dutch")

        # nobody plays: the season ends at 00:00 UTC on the 1st all the same
        await harness.clock.advance(DECEMBER_1ST - harness.clock.now())
        await harness.settle()
        [announced] = announcements(harness)
        assert "The season November 2023 is over! Winners: Dutch: " in announced["content"]
        assert heading({"embeds": announced["embeds"]}) == (
            "Final board of the season November 2023"
        )

        _, shown = await harness.ask(carol, "leaderboard", game="dutch")
        assert heading(shown) == "Season: December 2023"
        assert "Nobody is ranked yet" in board_text(shown)
        _, shown = await harness.ask(carol, "leaderboard", game="dutch", season="2023-11")
        assert heading(shown) == "Final board of the season November 2023"
        assert board_text(shown) == november
        # what Discord offers as a member types in `season:` (the cog's autocomplete)
        cog = bot.get_cog("LeaderboardCog")
        typing = SimpleNamespace(guild_id=harness.fake.guild_id, locale=discord.Locale.french)
        offered = await cog.season_names(typing, "")  # type: ignore[union-attr]
        assert [(c.name, c.value) for c in offered] == [
            ("décembre 2023 (saison en cours)", "2023-12"),
            ("novembre 2023", "2023-11"),
            ("Depuis toujours", "all"),
        ]
        _, shown = await harness.ask(carol, "leaderboard", game="dutch", season="all")
        assert heading(shown) == "All time"
        assert await bot.store.leaderboard(harness.fake.guild_id, "dutch") == all_time_before

        await harness.ask(harness.fake.admin, "settings", language="fr")
        _, shown = await harness.ask(bob, "leaderboard", game="dutch", season="2023-11")
        assert heading(shown) == "Classement final de la saison novembre 2023"
        unknown = await harness.fake.slash(bob, "leaderboard", season="2019-01")
        await unknown.wait_answered()
        await harness.settle()
        assert "2019-01" in assert_one_short_private_sentence(unknown)

        await harness.clock.advance(JANUARY_1ST - harness.clock.now())  # December: nobody played
        await harness.settle()
        assert len(announcements(harness)) == 1


async def test_a_restart_that_slept_through_the_end_of_a_season_announces_it_once(
    harness: BotUnderTest,
) -> None:
    async with harness.running():
        await play_a_match_with_seasons_on(harness)
    await harness.clock.advance(DECEMBER_1ST - harness.clock.now())  # the bot is down
    assert announcements(harness) == []
    for _ in range(2):  # started, then restarted: announced by the first start only
        async with harness.running() as bot:
            await asyncio.wait_for(bot.seasons.caught_up.wait(), 10)
            await harness.settle()
            assert len(announcements(harness)) == 1
    [announced] = announcements(harness)
    assert "The season November 2023 is over!" in announced["content"]


async def test_the_settings_say_when_season_winners_are_not_announced(
    harness: BotUnderTest,
) -> None:
    async with harness.running():
        _, shown = await harness.ask(
            harness.fake.admin, "settings", season="quarterly", season_channel="none"
        )
        [field] = [f for f in shown["embeds"][0]["fields"] if f["name"] == "Seasons"]
        assert "quarterly" in field["value"] and "not announced" in field["value"]
        _, shown = await harness.ask(
            harness.fake.admin, "settings", season_channel="here", locale="fr"
        )
        [field] = [f for f in shown["embeds"][0]["fields"] if f["name"] == "Saisons"]
        assert f"<#{harness.fake.channel_id}>" in field["value"]
