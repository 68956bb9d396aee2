"""`/dutch start [preset] [target]`, `/dutch rules [preset]`, `/dutch leave`, `/dutch stop`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.settings import preset_choices
from bot.i18n import text
from bot.i18n.translator import command_text
from bot.service.errors import TableError
from bot.ui.controller import player_of
from bot.ui.items import build_view
from bot.ui.replies import refuse, tell, user_language
from bot.ui.timing import within_deadline

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

GAME = "dutch"
THREAD_ARCHIVE_MINUTES = 1440


@app_commands.guild_only()
class DutchCog(
    commands.GroupCog,
    group_name=command_text("dutch", "cmd.dutch"),
    group_description=command_text("Dutch card tables", "cmd.dutch.desc"),
):
    """Dutch tables: one public table message per table, "My cards" for each player."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=command_text("start", "cmd.dutch.start"),
        description=command_text("Open a Dutch table in this channel", "cmd.dutch.start.desc"),
    )
    @app_commands.describe(
        preset=command_text("The rules: classic or house", "cmd.dutch.start.preset"),
        target=command_text("Points that end the match (100)", "cmd.dutch.start.target"),
    )
    @app_commands.rename(
        preset=command_text("preset", "cmd.param.preset"),
        target=command_text("target", "cmd.param.target"),
    )
    @app_commands.choices(preset=preset_choices(GAME))
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        target: app_commands.Range[int, 10, 1000] | None = None,
    ) -> None:
        guild_id, channel = interaction.guild_id, interaction.channel
        if guild_id is None or channel is None:
            await refuse(interaction, "guild_only")
            return
        if interaction.guild_locale is not None:
            self.bot.guild_settings.note_preferred_locale(guild_id, interaction.guild_locale)
        settings = await self.bot.guild_settings.get(guild_id)
        preset = preset or settings.default_presets.get(GAME)
        try:
            snapshot = await within_deadline(
                self.bot.service.open_table(
                    guild_id, channel.id, player_of(interaction), GAME, preset, target
                ),
                lambda: interaction.response.defer(thinking=True),
            )
        except TableError as error:
            await refuse(interaction, error.key, **error.params)
            return
        table_id = snapshot.table_id
        if settings.use_threads and isinstance(channel, discord.TextChannel):
            await self._open_in_thread(interaction, channel, table_id)
            return
        rendered = await self.bot.notifier.render(table_id)
        assert rendered is not None
        view = build_view(rendered.components)
        if interaction.response.is_done():
            message = await interaction.followup.send(embed=rendered.embed, view=view, wait=True)
            message_id = message.id
        else:
            response = await interaction.response.send_message(embed=rendered.embed, view=view)
            message_id = response.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
        await self.bot.locations.set_message(table_id, message_id)
        self.bot.notifier.note_sent(table_id, rendered)

    async def _open_in_thread(
        self, interaction: discord.Interaction, channel: discord.TextChannel, table_id: int
    ) -> None:
        language = await self.bot.guild_settings.public_language(interaction.guild_id)
        name = text(language, "table.thread_name", table_id=table_id)
        try:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
            await self.bot.locations.set_thread(table_id, thread.id)
            where = thread.id
        except discord.HTTPException as error:
            log.warning("no thread for table %s (%s): posting in the channel", table_id, error)
            where = channel.id
        await self.bot.notifier.post(table_id, where)
        message = text(language, "reply.opened", table_id=table_id, where=f"<#{where}>")
        if interaction.response.is_done():
            await interaction.followup.send(message)
        else:
            await interaction.response.send_message(message)

    @app_commands.command(
        name=command_text("rules", "cmd.dutch.rules"),
        description=command_text("The rules of Dutch, in short", "cmd.dutch.rules.desc"),
    )
    @app_commands.describe(preset=command_text("Which rules", "cmd.dutch.rules.preset"))
    @app_commands.rename(preset=command_text("preset", "cmd.param.preset"))
    @app_commands.choices(preset=preset_choices(GAME))
    async def rules(self, interaction: discord.Interaction, preset: str = "classic") -> None:
        language = user_language(interaction)
        embed = discord.Embed(
            title=text(language, "rules.title", preset=text(language, f"preset.{GAME}.{preset}")),
            description=text(language, f"rules.{GAME}.{preset}"),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=command_text("leave", "cmd.dutch.leave"),
        description=command_text("Leave your table", "cmd.dutch.leave.desc"),
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await refuse(interaction, "guild_only")
            return
        table_id = self.bot.service.table_of_user(interaction.guild_id, interaction.user.id)
        if table_id is None:
            await refuse(interaction, "not_at_a_table")
            return
        try:
            await within_deadline(
                self.bot.service.leave(table_id, interaction.user.id),
                lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
        except TableError as error:
            await refuse(interaction, error.key, **error.params)
            return
        await tell(interaction, "reply.left", table_id=table_id)

    @app_commands.command(
        name=command_text("stop", "cmd.dutch.stop"),
        description=command_text(
            "Stop a table (its host, or Manage Server)", "cmd.dutch.stop.desc"
        ),
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        table_id = self._table_here(interaction)
        if table_id is None:
            await refuse(interaction, "no_table_here")
            return
        can_manage = interaction.permissions.manage_guild
        try:
            await within_deadline(
                self.bot.service.stop(table_id, interaction.user.id, can_manage),
                lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
        except TableError as error:
            await refuse(interaction, error.key, **error.params)
            return
        await tell(interaction, "reply.stopped", table_id=table_id)

    def _table_here(self, interaction: discord.Interaction[Any]) -> int | None:
        """The caller's own table, else the one table of this channel (or its thread)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return None
        own = self.bot.service.table_of_user(guild_id, interaction.user.id)
        if own is not None:
            return own
        channel = interaction.channel
        ids: list[int] = []
        if channel is not None:
            ids = self.bot.service.tables_in_channel(channel.id)
            parent_id = getattr(channel, "parent_id", None)
            if not ids and parent_id is not None:
                ids = self.bot.service.tables_in_channel(parent_id)
        return ids[0] if len(ids) == 1 else None
