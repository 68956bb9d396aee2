"""`/settings` (Manage Server): the server's own settings.

They are the language, turn timer, reveal delay, threads, a game's default preset, turn
mentions, and the most tables open at once per channel and per server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands
from pydantic import ValidationError

from bot.cogs.game import BOTS_CHOICES
from bot.games import plugin_names, plugins
from bot.i18n.translator import catalog_text, command_text
from bot.render.stats import settings_embed
from bot.ui.replies import refuse, user_language
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot

LANGUAGE_CHOICES = [
    Choice(name=command_text("English", "settings.language.en"), value="en"),
    Choice(name=command_text("French", "settings.language.fr"), value="fr"),
    Choice(name=command_text("Server locale", "settings.language.auto"), value="auto"),
]

SEASON_CHOICES = [
    Choice(name=command_text(english, f"settings.season_choice.{value}"), value=value)
    for english, value in (("Off", "off"), ("Monthly", "monthly"), ("Quarterly", "quarterly"))
]
# a season's winners are announced in the channel /settings is used in, or nowhere
SEASON_CHANNEL_CHOICES = [
    Choice(name=command_text("This channel", "settings.season_channel_choice.here"), value="here"),
    Choice(
        name=command_text("Nowhere (no announcement)", "settings.season_channel_choice.none"),
        value="none",
    ),
]


def preset_choices() -> list[Choice[str]]:
    """Every game's presets, named "<game>: <preset>" and valued `<game>:<preset>`."""
    found = []
    for plugin in plugins():
        for name in get_game(plugin.name).presets:
            parts = {"game": f"{plugin.name}.name", "preset": f"{plugin.name}.preset.{name}"}
            english = catalog_text("en", "settings.preset_of_game", parts) or name
            found.append(
                Choice(
                    name=command_text(english, "settings.preset_of_game", **parts),
                    value=f"{plugin.name}:{name}",
                )
            )
    return found


def game_of_preset(value: str) -> tuple[str, str] | None:
    """(game, preset) of a choice value `<game>:<preset>`, or of a preset name that only one
    game has; None if there is no such preset."""
    game, colon, preset = value.partition(":")
    if colon:
        known = game in plugin_names() and preset in get_game(game).presets
        return (game, preset) if known else None
    owners = [p for p in plugin_names() if value in get_game(p).presets]
    return (owners[0], value) if len(owners) == 1 else None


class SettingsCog(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=command_text("settings", "cmd.settings"),
        description=command_text(
            "Show or change this server's table settings", "cmd.settings.desc"
        ),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        language=command_text("Language of the public table messages", "cmd.settings.language"),
        turn_seconds=command_text("Seconds a player has to act", "cmd.settings.turn_seconds"),
        reveal_seconds=command_text(
            "Seconds a revealed card stays visible", "cmd.settings.reveal_seconds"
        ),
        threads=command_text("Put each table in a thread of its own", "cmd.settings.threads"),
        preset=command_text("Default rules of a game", "cmd.settings.preset"),
        bots=command_text("How the bot players of new tables play", "cmd.settings.bots"),
        turn_pings=command_text("Mention the player whose turn starts", "cmd.settings.turn_pings"),
        tables_per_channel=command_text(
            "Most tables open at once in one channel", "cmd.settings.tables_per_channel"
        ),
        tables_per_server=command_text(
            "Most tables open at once in this server", "cmd.settings.tables_per_server"
        ),
        retention_days=command_text(
            "Days this server's data is kept after the bot leaves it", "cmd.settings.retention_days"
        ),
        season=command_text(
            "Leaderboards in seasons: off, monthly or quarterly", "cmd.settings.season"
        ),
        season_channel=command_text(
            "Announce each season's winners in this channel, or nowhere",
            "cmd.settings.season_channel",
        ),
    )
    @app_commands.rename(
        language=command_text("language", "cmd.param.language"),
        turn_seconds=command_text("turn_seconds", "cmd.param.turn_seconds"),
        reveal_seconds=command_text("reveal_seconds", "cmd.param.reveal_seconds"),
        threads=command_text("threads", "cmd.param.threads"),
        preset=command_text("preset", "cmd.param.preset"),
        bots=command_text("bots", "cmd.param.bots"),
        turn_pings=command_text("turn_pings", "cmd.param.turn_pings"),
        tables_per_channel=command_text("tables_per_channel", "cmd.param.tables_per_channel"),
        tables_per_server=command_text("tables_per_server", "cmd.param.tables_per_server"),
        retention_days=command_text("retention_days", "cmd.param.retention_days"),
        season=command_text("season", "cmd.param.season"),
        season_channel=command_text("season_channel", "cmd.param.season_channel"),
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        preset=preset_choices(),
        bots=BOTS_CHOICES,
        season=SEASON_CHOICES,
        season_channel=SEASON_CHANNEL_CHOICES,
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        turn_seconds: app_commands.Range[int, 5, 3600] | None = None,
        reveal_seconds: app_commands.Range[int, 1, 120] | None = None,
        threads: bool | None = None,
        preset: str | None = None,
        bots: str | None = None,
        turn_pings: bool | None = None,
        tables_per_channel: app_commands.Range[int, 1, 50] | None = None,
        tables_per_server: app_commands.Range[int, 1, 500] | None = None,
        retention_days: app_commands.Range[int, 0, 365] | None = None,
        season: str | None = None,
        season_channel: str | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await refuse(interaction, "guild_only")
            return
        changing = any(
            value is not None
            for value in (
                language,
                turn_seconds,
                reveal_seconds,
                threads,
                preset,
                bots,
                turn_pings,
                tables_per_channel,
                tables_per_server,
                retention_days,
                season,
                season_channel,
            )
        )
        if changing and not interaction.permissions.manage_guild:  # anyone may look
            await refuse(interaction, "manage_guild_needed")
            return
        current = await self.bot.guild_settings.get(guild_id)
        changes: dict[str, object] = {}
        if language is not None:
            changes["language"] = None if language == "auto" else language
        if turn_seconds is not None:
            changes["turn_seconds"] = turn_seconds
        if reveal_seconds is not None:
            changes["reveal_seconds"] = reveal_seconds
        if threads is not None:
            changes["use_threads"] = threads
        if bots is not None:
            changes["bots"] = bots
        if turn_pings is not None:
            changes["turn_pings"] = turn_pings
        if tables_per_channel is not None:
            changes["max_tables_channel"] = tables_per_channel
        if tables_per_server is not None:
            changes["max_tables_server"] = tables_per_server
        if season is not None:
            changes["season"] = season
        if season_channel is not None:
            changes["season_channel"] = interaction.channel_id if season_channel == "here" else None
        if preset is not None:
            chosen = game_of_preset(preset)
            if chosen is None:
                await refuse(interaction, "bad_setting")
                return
            game, name = chosen
            changes["default_presets"] = {**current.default_presets, game: name}
        if changes:
            try:
                updated = current.model_validate({**current.model_dump(), **changes})
            except ValidationError:
                await refuse(interaction, "bad_setting")
                return
            await self.bot.guild_settings.save(updated)
            if updated.season != current.season:  # the season under way ends now
                await self.bot.seasons.catch_up()
            current = updated
        if retention_days is not None:
            await self.bot.store.set_retention_days(guild_id, retention_days)
        retention = await self.bot.store.retention_days(guild_id)
        await interaction.response.send_message(
            embed=settings_embed(user_language(interaction), current, retention), ephemeral=True
        )
