from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from bot.app import CardTableBot
from bot.render.stats import leaderboard_embed, stats_embed
from bot.service import PlayerRef
from storage.models import GameStats, LeaderboardRow, MatchSummary, PlayerStats
from tests.bot.ui.fakes import FakeInteraction

GUILD, CHANNEL, HOST, GUEST = 1, 10, 101, 102


async def run(
    bot: CardTableBot, cog: str, command: str, interaction: FakeInteraction, **kw: Any
) -> None:
    found = bot.get_cog(cog)
    assert found is not None
    for app_command in found.walk_app_commands():
        if app_command.name == command:
            await app_command.callback(found, interaction, **kw)  # type: ignore[arg-type, call-arg]
            return
    raise AssertionError(f"no /{command} in {cog}")


async def test_settings_need_manage_server(bot: CardTableBot) -> None:
    interaction = FakeInteraction(GUEST, locale=discord.Locale.french)
    await run(bot, "SettingsCog", "settings", interaction, turn_seconds=30)
    assert interaction.only.content == (
        "Seuls les membres qui ont la permission Gérer le serveur peuvent changer les réglages."
    )
    assert (await bot.store.get_guild_settings(GUILD)).turn_seconds == 90


async def test_settings_are_saved_and_shown(bot: CardTableBot) -> None:
    interaction = FakeInteraction(HOST, manage_guild=True)
    await run(
        bot,
        "SettingsCog",
        "settings",
        interaction,
        language="fr",
        turn_seconds=30,
        reveal_seconds=5,
        threads=True,
        preset="house",
        bots="simple",
    )
    saved = await bot.store.get_guild_settings(GUILD)
    assert saved.bots == "simple"
    assert (saved.language, saved.turn_seconds, saved.reveal_seconds, saved.use_threads) == (
        "fr",
        30,
        5,
        True,
    )
    assert saved.default_presets == {"dutch": "house"}
    answer = interaction.only
    assert answer.ephemeral and "30 s" in answer.text() and "house rules" in answer.text()
    assert "Bot players" in answer.text() and "simple" in answer.text()
    assert await bot.guild_settings.public_language(GUILD) == "fr"


async def test_rules_are_short_ephemeral_and_in_the_users_language(bot: CardTableBot) -> None:
    interaction = FakeInteraction(GUEST, locale=discord.Locale.french)
    await run(bot, "DutchCog", "rules", interaction, preset="house")
    answer = interaction.only
    assert answer.ephemeral and "règles maison" in answer.text() and "Valeurs" in answer.text()
    assert answer.embed is not None and len(answer.embed.description or "") <= 1500


async def test_start_posts_the_table_message_and_remembers_it(bot: CardTableBot) -> None:
    interaction = FakeInteraction(HOST, name="Host")
    await run(bot, "DutchCog", "start", interaction, preset="house", target=50, bots="simple")
    answer = interaction.only
    assert answer.kind == "send" and not answer.ephemeral
    assert "house rules" in answer.text() and "50 points" in answer.text()
    (table_id,) = bot.service.tables_in_channel(CHANNEL)
    assert bot.service._table(table_id).bots == "simple"
    assert (await bot.locations.get(table_id)).message_id is not None
    again = FakeInteraction(HOST)
    await run(bot, "DutchCog", "start", again)
    assert again.only.ephemeral and "another table" in (again.only.content or "")


async def test_leave_and_stop_answer_in_one_sentence(bot: CardTableBot) -> None:
    nobody = FakeInteraction(GUEST)
    await run(bot, "DutchCog", "leave", nobody)
    assert nobody.only.content == "You are not seated at a table."
    snapshot = await bot.service.seating.open_table(
        GUILD, CHANNEL, PlayerRef(HOST, "Host"), "dutch"
    )
    stranger = FakeInteraction(GUEST)
    await run(bot, "DutchCog", "stop", stranger)
    assert stranger.only.content == "Only the host or a member with Manage Server can do that."
    manager = FakeInteraction(GUEST, manage_guild=True)
    await run(bot, "DutchCog", "stop", manager)
    assert manager.only.content == f"Table #{snapshot.table_id} was stopped."


async def test_an_empty_leaderboard_says_who_can_be_ranked(bot: CardTableBot) -> None:
    interaction = FakeInteraction(GUEST)
    await run(bot, "LeaderboardCog", "leaderboard", interaction, game="dutch", order="wins")
    assert [a.kind for a in interaction.answers] == ["defer", "followup"]
    assert "at least 3 matches" in interaction.answers[-1].text()


def test_leaderboard_rows_are_ranked_lines() -> None:
    rows = [
        LeaderboardRow(
            rank=1,
            user_id=1,
            display_name="Ann_",
            matches=5,
            wins=4,
            rounds=20,
            points=50,
            rating=12.34,
            mu=30,
            sigma=5,
        )
    ]
    text = str(leaderboard_embed("fr", "dutch", "rating", rows, 3).to_dict())
    assert "**1.** Ann\\\\_ — cote 1247 · 4 victoires en 5 parties (80%)" in text


def test_stats_show_each_game_and_recent_matches() -> None:
    stats = PlayerStats(
        guild_id=1,
        user_id=1,
        games=[
            GameStats(
                game="dutch",
                display_name="Ann",
                matches=3,
                wins=1,
                rounds=9,
                points=80,
                rating=3.5,
                mu=25,
                sigma=7,
                rank=2,
            )
        ],
    )
    recent = [
        MatchSummary(
            table_id=1,
            match_no=1,
            game="dutch",
            finished_at=datetime(2026, 1, 2, tzinfo=UTC),
            seat=0,
            won=True,
            total=12,
            final_totals=[12, 40],
            winners_seats=[0],
            players=["Ann", "Bob"],
        )
    ]
    text = str(stats_embed("en", "Ann", stats, recent).to_dict())
    assert "3 matches: 1 won, 2 lost (33%), 9 rounds · rating 1070 · rank #2" in text
    assert "🏆 Dutch: won with 12" in text
    assert "No finished match" in str(
        stats_embed("en", "Bob", PlayerStats(guild_id=1, user_id=2), []).to_dict()
    )


def test_stats_of_a_team_game_show_the_partners_records_and_each_matchs_teams() -> None:
    stats = PlayerStats(
        guild_id=1,
        user_id=1,
        games=[
            GameStats(
                game="euchre", display_name="Ann", matches=3, wins=2, rating=4.2, mu=27, sigma=6
            )
        ],
    )

    def match(number: int, seat: int, totals: list[int], winners: list[int]) -> MatchSummary:
        return MatchSummary(
            table_id=number,
            match_no=1,
            game="euchre",
            finished_at=datetime(2026, 1, number, tzinfo=UTC),
            seat=seat,
            won=seat in winners,
            total=totals[seat % 2],
            final_totals=totals,
            winners_seats=winners,
            players=["Ann", "Ben", "Cat", "Dan"] if seat == 0 else ["Ben", "Ann", "Cat", "Dan"],
        )

    recent = [
        match(3, 0, [10, 7], [0, 2]),
        match(2, 0, [4, 10], [1, 3]),
        match(1, 1, [6, 11], [1, 3]),
    ]
    negative = [match(4, 0, [220, -150], [0, 2])]  # a total below zero
    shown = str(stats_embed("en", "Ann", stats, negative).to_dict())
    assert "won 220 – −150 against" in shown and "–-" not in shown
    embed = stats_embed("en", "Ann", stats, recent).to_dict()
    (game, latest) = embed["fields"]
    assert game["name"] == "Euchre"
    assert game["value"] == (
        "3 matches: 2 won, 1 lost (67%), 0 rounds · rating 1084 · ranked after 3 matches\n"
        "Partners (won–lost, last 3 matches): **Cat** 1–1 · **Dan** 1–0"
    )
    lines = latest["value"].splitlines()
    assert lines[0].startswith("🏆 Euchre with Cat: won 10–7 against Ben & Dan (")
    assert lines[1].startswith("Euchre with Cat: lost 4–10 against Ben & Dan (")
    assert lines[2].startswith("🏆 Euchre with Dan: won 11–6 against Ben & Cat (")
    french = stats_embed("fr", "Ann", stats, recent).to_dict()
    partners = "Partenaires (gagnées–perdues, 3 dernières parties) : **Cat** 1–1 · **Dan** 1–0"
    assert partners in str(french)
    assert "🏆 Euchre avec Cat : gagnée 10–7 contre Ben & Dan (" in str(french)
