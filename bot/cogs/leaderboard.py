"""`/leaderboard`, `/stats` and the statistics button beside each seat of a table message.

All per guild, from the store: `/leaderboard [game] [order]`, `/stats [member]`, and the seat's
button, a seated player's statistics in the table's game."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.custom_ids import seat_stats_id
from bot.i18n import text
from bot.i18n.translator import command_text
from bot.render.seasons import ALL_TIME, season_name, with_season_line
from bot.render.stats import (
    MIN_MATCHES,
    empty_leaderboard_embed,
    leaderboard_embed,
    stats_embed,
)
from bot.ui.replies import refuse, tell, user_language
from games.registry import game_names
from storage.errors import StoreError
from storage.models import LeaderboardOrder
from storage.seasons import season_at

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10

MATCHES_READ = 100  # by /stats: the latest are listed, all count in the partners' records

GAME_CHOICES = [
    Choice(name=command_text(text("en", f"{name}.name"), f"{name}.name"), value=name)
    for name in game_names()
]
ORDER_CHOICES = [
    Choice(name=command_text("Rating", "leaderboard.order.rating"), value="rating"),
    Choice(name=command_text("Wins", "leaderboard.order.wins"), value="wins"),
    Choice(name=command_text("Win rate", "leaderboard.order.win_rate"), value="win_rate"),
]


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=command_text("leaderboard", "cmd.leaderboard"),
        description=command_text("This server's best players of a game", "cmd.leaderboard.desc"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=command_text("The game (every ranked game by default)", "cmd.leaderboard.game"),
        order=command_text("Rank by rating, wins or win rate", "cmd.leaderboard.order"),
        season=command_text(
            "Which season: this one by default, a past one, or all time", "cmd.leaderboard.season"
        ),
    )
    @app_commands.rename(
        game=command_text("game", "cmd.param.game"),
        order=command_text("order", "cmd.param.order"),
        season=command_text("season", "cmd.param.season"),
    )
    @app_commands.choices(game=GAME_CHOICES, order=ORDER_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        order: str = "rating",
        season: str | None = None,
    ) -> None:
        """One game's board; without a game, the board of every game someone is ranked in.
        With seasons on, the current season's unless `season` names a past one or all time."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await refuse(interaction, "guild_only")
            return
        current = await self._current_season(guild_id)
        shown = current if season is None else None if season == ALL_TIME else season
        played = await self.bot.store.seasons_played(guild_id) if shown != current else []
        if shown is not None and shown != current and shown not in played:
            await refuse(interaction, "season_unknown", season=season)
            return
        await interaction.response.defer(thinking=True)
        language = await self.bot.guild_settings.public_language(guild_id)
        embeds = []
        for name in (game,) if game is not None else game_names():
            rows = await self.bot.store.leaderboard(
                guild_id,
                name,
                # Discord offers only ORDER_CHOICES; the store refuses any other value.
                order=cast(LeaderboardOrder, order),
                limit=LEADERBOARD_SIZE,
                min_matches=MIN_MATCHES,
                season=shown,
            )
            if rows or game is not None:
                embed = leaderboard_embed(language, name, order, rows, MIN_MATCHES)
                if current is not None or season is not None:  # seasons: say which board
                    with_season_line(embed, language, shown, final=shown != current)
                embeds.append(embed)
        if not embeds:
            embeds.append(empty_leaderboard_embed(language, MIN_MATCHES))
        if len(embeds) == 1:
            await interaction.followup.send(embed=embeds[0])
        else:
            await interaction.followup.send(embeds=embeds)

    async def _current_season(self, guild_id: int) -> str | None:
        """The season open now on the bot's clock (None: the server runs no seasons)."""
        kind = (await self.bot.guild_settings.get(guild_id)).season
        period = season_at(kind, self.bot.seasons.now())
        return period.key if period is not None else None

    @leaderboard.autocomplete("season")
    async def season_names(self, interaction: discord.Interaction, typed: str) -> list[Choice[str]]:
        """This season, the past ones the server played (latest first), and all time."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return []
        language = user_language(interaction)
        current = await self._current_season(guild_id)
        choices = []
        if current is not None:
            name = text(language, "leaderboard.this_season", season=season_name(language, current))
            choices.append(Choice(name=name, value=current))
        for played in await self.bot.store.seasons_played(guild_id):
            if played != current:
                choices.append(Choice(name=season_name(language, played), value=played))
        choices.append(Choice(name=text(language, "leaderboard.all_time"), value=ALL_TIME))
        wanted = typed.casefold()
        return [c for c in choices if wanted in c.name.casefold() or wanted in c.value][:25]

    @app_commands.command(
        name=command_text("stats", "cmd.stats"),
        description=command_text("A player's games, wins and rating here", "cmd.stats.desc"),
    )
    @app_commands.guild_only()
    @app_commands.describe(member=command_text("Whose stats (you by default)", "cmd.stats.member"))
    @app_commands.rename(member=command_text("member", "cmd.param.member"))
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """A user, not only a member: someone who left the server keeps their record here."""
        if interaction.guild_id is None:
            await refuse(interaction, "guild_only")
            return
        await interaction.response.defer(thinking=True)
        who = member or interaction.user
        language = await self.bot.guild_settings.public_language(interaction.guild_id)
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id)
        recent = await self.bot.store.recent_matches(
            interaction.guild_id, who.id, limit=MATCHES_READ
        )
        await interaction.followup.send(
            embed=stats_embed(language, who.display_name, stats, recent),
            allowed_mentions=discord.AllowedMentions.none(),
        )


class SeatStatsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pst:(?P<table>[0-9]{1,12}):(?P<seat>[0-9]{1,2})",
):
    """The button beside a seat of a table message: the statistics in this server, in the
    table's game, of the member who sits there, for the one who clicks (ephemeral)."""

    def __init__(self, table_id: int, seat: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=seat_stats_id(table_id, seat), emoji="📊"
        )
        super().__init__(button)
        self.table_id, self.seat = table_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> SeatStatsButton:
        return cls(int(match["table"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast("CardTableBot", interaction.client)
        try:
            table = await bot.store.get_table(self.table_id)
            seats = await bot.store.get_seats(self.table_id)
        except StoreError as error:
            log.info("seat stats of table %s: %s", self.table_id, error)
            await tell(interaction, "error.no_table")
            return
        if interaction.guild_id is None or table.guild_id != interaction.guild_id:
            await tell(interaction, "error.bad_button")
            return
        seat = seats[self.seat] if self.seat < len(seats) else None
        if seat is None:
            await tell(interaction, "error.seat_changed")
            return
        if seat.is_bot:
            await tell(interaction, "stats.bot_seat", name=seat.display_name)
            return
        if seat.user_id is None:  # a member who had their data erased
            await tell(interaction, "stats.erased_seat")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        stats = await bot.store.player_stats(table.guild_id, seat.user_id, table.game)
        recent = await bot.store.recent_matches(table.guild_id, seat.user_id, MATCHES_READ)
        recent = [summary for summary in recent if summary.game == table.game]
        language = user_language(interaction)
        await interaction.followup.send(
            embed=stats_embed(language, seat.display_name, stats, recent),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
