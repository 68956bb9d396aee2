"""The button beside each seat of a table message: the seated member's statistics in the
table's game, for the one who clicks alone; a bot seat, an empty seat, a gone table and a
table of another server each answered in one sentence."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.app import CardTableBot
from bot.cogs.leaderboard import SeatStatsButton
from bot.custom_ids import seat_stats_id
from bot.service import PlayerRef
from storage.models import PlayerStats
from tests.bot.ui.fakes import FakeInteraction

GUILD, CHANNEL, HOST, GUEST = 1, 10, 101, 102


async def a_table_with_a_bot(bot: CardTableBot) -> int:
    """Host at seat 0, a bot player at seat 1, seat 2 free."""
    opened = await bot.service.seating.open_table(
        GUILD, CHANNEL, PlayerRef(HOST, "Hostess"), "dutch"
    )
    await bot.service.seating.add_bot(opened.table_id, HOST)
    return opened.table_id


async def click(bot: CardTableBot, table_id: int, seat: int, **who: Any) -> FakeInteraction:
    interaction = FakeInteraction(GUEST, **who)
    interaction.client = bot  # type: ignore[attr-defined]
    match = SeatStatsButton.__discord_ui_compiled_template__.fullmatch(
        seat_stats_id(table_id, seat)
    )
    assert match is not None
    item = await SeatStatsButton.from_custom_id(interaction, None, match)  # type: ignore[arg-type]
    await item.callback(interaction)  # type: ignore[arg-type]
    return interaction


async def test_a_seats_button_shows_that_players_stats_in_the_tables_game_to_the_clicker_alone(
    bot: CardTableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await a_table_with_a_bot(bot)
    asked: list[tuple[Any, ...]] = []
    real = bot.store.player_stats

    async def spied(guild_id: int, user_id: int, game: str | None = None) -> PlayerStats:
        asked.append((guild_id, user_id, game))
        return await real(guild_id, user_id, game)

    monkeypatch.setattr(bot.store, "player_stats", spied)
    interaction = await click(bot, table_id, 0, locale=discord.Locale.french)
    assert asked == [(GUILD, HOST, "dutch")]
    assert [a.kind for a in interaction.answers] == ["defer", "followup"]
    answer = interaction.answers[-1]
    assert answer.ephemeral and answer.embed is not None
    assert answer.embed.title == "Stats de Hostess"  # the clicker's language, the seat's name
    assert "Aucune partie terminée" in (answer.embed.description or "")


async def test_a_bot_seats_button_says_bots_keep_no_stats(bot: CardTableBot) -> None:
    table_id = await a_table_with_a_bot(bot)
    interaction = await click(bot, table_id, 1)
    assert interaction.only.ephemeral
    assert interaction.only.content == "Bot 1 is a bot player: bots keep no statistics."


async def test_a_seat_click_on_a_free_seat_a_gone_table_or_another_server_is_one_sentence(
    bot: CardTableBot,
) -> None:
    table_id = await a_table_with_a_bot(bot)
    free = await click(bot, table_id, 2)
    assert free.only.content == "Nobody sits at this seat any more."
    gone = await click(bot, table_id + 50, 0)
    assert gone.only.content == "This table no longer exists."
    elsewhere = await click(bot, table_id, 0, guild_id=GUILD + 1)
    assert elsewhere.only.content == "This button is not one of mine, or it is out of date."
    assert all(a.only.ephemeral for a in (free, gone, elsewhere))
