"""The slash command group every game gets, built from one base cog.

The commands are `/<game> start [preset] [target] [bots] [spectators]`, `rules [preset]`,
`leave`, `stop`, and `learn` for a game with a guided hand (`games.<game>.lesson`,
bot/ui/lessons.py). One base cog (`GameCog`) holds the handlers; `game_commands(...)` builds a
game's subclass with its name, presets and target range, so a plug-in writes one line.

Command texts come from the catalogs by key (`<game>.cmd`, `<game>.cmd.desc`,
`<game>.cmd.start`, `.start.desc`, `.start.preset`, `.start.target`, `<game>.cmd.rules`,
`.rules.desc`, `.rules.preset`, `<game>.cmd.leave`, `.leave.desc`, `<game>.cmd.stop`,
`.stop.desc`), generated for every game from bot/i18n/per_game/ (see bot/i18n); the English
text is the one Discord shows by default.
"""

# No `from __future__ import annotations` here: discord.py reads the parameter annotations of
# the commands built below, and the target range is a value known only when they are built.

import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import text
from bot.i18n.translator import command_text
from bot.render.actions import ButtonSpec
from bot.service.errors import TableError
from bot.snapshots import PLAYING, ROUND_OVER
from bot.ui.controller import player_of
from bot.ui.custom_ids import Verb, verb_id
from bot.ui.dynamic_items import build_view
from bot.ui.layout import shown_as
from bot.ui.replies import refuse, tell, user_language
from bot.ui.timing import within_deadline
from games.lesson import lesson_of
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.games.plugin import GamePlugin

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 1440


def _cmd(game: str, key: str) -> app_commands.locale_str:
    """A command text of this game by its catalog key (English by default)."""
    full = f"{game}.cmd{key}"
    return command_text(text("en", full), full)


COACH_DESCRIPTION = "A practice table: hints and reviews of your play, unrated"
BOTS_CHOICES = [
    Choice(name=command_text("strong", "bots.strong"), value="strong"),
    Choice(name=command_text("simple", "bots.simple"), value="simple"),
]
# what members who watch the match see (bot/service/watching.py); the first is the default
SPECTATORS_CHOICES = [
    Choice(name=command_text("the table only", "spectators.public"), value="public"),
    Choice(name=command_text("the hands too, one turn late", "spectators.hands"), value="hands"),
]


def preset_choices(game: str) -> list[Choice[str]]:
    """The game's presets as command choices, named in each language."""
    return [
        Choice(
            name=command_text(text("en", f"{game}.preset.{name}"), f"{game}.preset.{name}"),
            value=name,
        )
        for name in get_game(game).presets
    ]


class GameCog(commands.GroupCog):
    """The handlers of a game's command group; `game_commands` declares the commands."""

    game: str = ""

    def __init__(self, bot: "CardTableBot", plugin: "GamePlugin") -> None:
        self.bot = bot
        self.plugin = plugin
        super().__init__()

    async def open_table(
        self,
        interaction: discord.Interaction,
        preset: str | None,
        target: int | None,
        bots: str | None = None,
        spectators: str | None = None,
        coach: bool = False,
    ) -> None:
        guild_id, channel = interaction.guild_id, interaction.channel
        if guild_id is None or channel is None:
            await refuse(interaction, "guild_only")
            return
        if interaction.guild_locale is not None:
            self.bot.guild_settings.note_preferred_locale(guild_id, interaction.guild_locale)
        settings = await self.bot.guild_settings.get(guild_id)
        preset = preset or settings.default_presets.get(self.game)
        try:
            self.bot.service.seating.may_open(guild_id, channel.id, interaction.user.id, settings)
            snapshot = await within_deadline(
                self.bot.service.seating.open_table(
                    guild_id,
                    channel.id,
                    player_of(interaction),
                    self.game,
                    preset,
                    target,
                    bots,
                    spectators,
                    coach=coach,
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
        if interaction.response.is_done():
            message = await interaction.followup.send(**shown_as(rendered), wait=True)
            message_id = message.id
        else:
            response = await interaction.response.send_message(**shown_as(rendered))
            sent_id = response.message_id
            message_id = (
                sent_id if sent_id is not None else (await interaction.original_response()).id
            )
        await self.bot.locations.set_message(table_id, message_id)
        self.bot.notifier.note_sent(table_id, rendered)

    async def _open_in_thread(
        self, interaction: discord.Interaction, channel: discord.TextChannel, table_id: int
    ) -> None:
        language = await self.bot.guild_settings.public_language(interaction.guild_id)
        name = text(
            language,
            "table.thread_name",
            game=text(language, f"{self.game}.name"),
            table_id=table_id,
        )
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
        self.bot.notifier.clicked(table_id)  # a person's command: first in its channel
        await self.bot.notifier.post(table_id, where)
        message = text(language, "reply.opened", table_id=table_id, where=f"<#{where}>")
        if interaction.response.is_done():
            await interaction.followup.send(message)
        else:
            await interaction.response.send_message(message)

    async def show_rules(self, interaction: discord.Interaction, preset: str | None) -> None:
        language = user_language(interaction)
        title, body = self.plugin.rules_text(preset or _default_preset(self.game), language)
        embed = discord.Embed(title=title, description=body)
        embed.set_footer(text=text(language, "rules.spectators"))  # a table option, any game
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def leave_table(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await refuse(interaction, "guild_only")
            return
        table_id = self.bot.service.tables.table_of_user(interaction.guild_id, interaction.user.id)
        if table_id is None:
            await refuse(interaction, "not_at_a_table")
            return
        try:
            await within_deadline(
                self.bot.service.seating.leave(table_id, interaction.user.id),
                lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
        except TableError as error:
            await refuse(interaction, error.key, **error.params)
            return
        await tell(interaction, "reply.left", table_id=table_id)

    async def stop_table(self, interaction: discord.Interaction) -> None:
        table_id = self._table_here(interaction)
        if table_id is None:
            await refuse(interaction, "no_table_here")
            return
        can_manage = interaction.permissions.manage_guild
        snapshot = self.bot.service.public_snapshot(table_id)
        if snapshot.status in (PLAYING, ROUND_OVER):
            # A match in play ends for everyone at the table: asked once, as Leave is.
            if interaction.user.id != snapshot.host_id and not can_manage:
                await refuse(interaction, "not_allowed")
                return
            language = user_language(interaction)
            sure = ButtonSpec(
                verb_id(table_id, snapshot.round_no or 0, Verb.STOP_SURE),
                text(language, "button.stop_sure"),
                "danger",
            )
            await interaction.response.send_message(
                text(language, "reply.stop_confirm", table_id=table_id),
                view=build_view((sure,)),
                ephemeral=True,
            )
            return
        try:
            await within_deadline(
                self.bot.service.seating.stop(table_id, interaction.user.id, can_manage),
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
        own = self.bot.service.tables.table_of_user(guild_id, interaction.user.id)
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


def _default_preset(game: str) -> str:
    return next(iter(get_game(game).presets))


def game_commands(game: str, *, cog_name: str, min_target: int, max_target: int) -> type[GameCog]:
    """The `GameCog` subclass of one game: `/<game> start|rules|leave|stop`, localized.

    `cog_name` is the cog's name in `bot.get_cog`; the target option accepts
    `min_target..max_target` (the engine still validates it)."""
    presets = preset_choices(game)
    if len(presets) < 2:  # one rule set: nothing to choose
        return _commands_of_one_rule_set(game, cog_name, min_target, max_target)

    @app_commands.guild_only()
    class Commands(
        GameCog,
        name=cog_name,
        group_name=_cmd(game, ""),
        group_description=_cmd(game, ".desc"),
    ):
        @app_commands.command(name=_cmd(game, ".start"), description=_cmd(game, ".start.desc"))
        @app_commands.describe(
            preset=_cmd(game, ".start.preset"),
            target=_cmd(game, ".start.target"),
            bots=command_text("How the bot players play", "cmd.start.bots"),
            spectators=command_text("What members who watch the match see", "cmd.start.spectators"),
            coach=command_text(COACH_DESCRIPTION, "cmd.start.coach"),
        )
        @app_commands.rename(
            preset=command_text("preset", "cmd.param.preset"),
            target=command_text("target", "cmd.param.target"),
            bots=command_text("bots", "cmd.param.bots"),
            spectators=command_text("spectators", "cmd.param.spectators"),
            coach=command_text("coach", "cmd.param.coach"),
        )
        @app_commands.choices(preset=presets, bots=BOTS_CHOICES, spectators=SPECTATORS_CHOICES)
        async def start(
            self,
            interaction: discord.Interaction,
            preset: str | None = None,
            target: app_commands.Range[int, min_target, max_target] | None = None,
            bots: str | None = None,
            spectators: str | None = None,
            coach: bool = False,
        ) -> None:
            await self.open_table(interaction, preset, target, bots, spectators, coach)

        @app_commands.command(name=_cmd(game, ".rules"), description=_cmd(game, ".rules.desc"))
        @app_commands.describe(preset=_cmd(game, ".rules.preset"))
        @app_commands.rename(preset=command_text("preset", "cmd.param.preset"))
        @app_commands.choices(preset=presets)
        async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
            await self.show_rules(interaction, preset)

        @app_commands.command(name=_cmd(game, ".leave"), description=_cmd(game, ".leave.desc"))
        async def leave(self, interaction: discord.Interaction) -> None:
            await self.leave_table(interaction)

        @app_commands.command(name=_cmd(game, ".stop"), description=_cmd(game, ".stop.desc"))
        async def stop(self, interaction: discord.Interaction) -> None:
            await self.stop_table(interaction)

        if lesson_of(game) is not None:

            @app_commands.command(name=_cmd(game, ".learn"), description=_cmd(game, ".learn.desc"))
            async def learn(self, interaction: discord.Interaction) -> None:
                await self.bot.tables.lessons.start(interaction, self.game)

    Commands.game = game
    Commands.__name__ = Commands.__qualname__ = cog_name
    return Commands


def _commands_of_one_rule_set(
    game: str, cog_name: str, min_target: int, max_target: int
) -> type[GameCog]:
    """`game_commands` for a game with one rule set: no `preset` option to choose it by."""

    @app_commands.guild_only()
    class Commands(
        GameCog,
        name=cog_name,
        group_name=_cmd(game, ""),
        group_description=_cmd(game, ".desc"),
    ):
        @app_commands.command(name=_cmd(game, ".start"), description=_cmd(game, ".start.desc"))
        @app_commands.describe(
            target=_cmd(game, ".start.target"),
            bots=command_text("How the bot players play", "cmd.start.bots"),
            spectators=command_text("What members who watch the match see", "cmd.start.spectators"),
            coach=command_text(COACH_DESCRIPTION, "cmd.start.coach"),
        )
        @app_commands.rename(
            target=command_text("target", "cmd.param.target"),
            bots=command_text("bots", "cmd.param.bots"),
            spectators=command_text("spectators", "cmd.param.spectators"),
            coach=command_text("coach", "cmd.param.coach"),
        )
        @app_commands.choices(bots=BOTS_CHOICES, spectators=SPECTATORS_CHOICES)
        async def start(
            self,
            interaction: discord.Interaction,
            target: app_commands.Range[int, min_target, max_target] | None = None,
            bots: str | None = None,
            spectators: str | None = None,
            coach: bool = False,
        ) -> None:
            await self.open_table(interaction, None, target, bots, spectators, coach)

        @app_commands.command(name=_cmd(game, ".rules"), description=_cmd(game, ".rules.desc"))
        async def rules(self, interaction: discord.Interaction) -> None:
            await self.show_rules(interaction, None)

        @app_commands.command(name=_cmd(game, ".leave"), description=_cmd(game, ".leave.desc"))
        async def leave(self, interaction: discord.Interaction) -> None:
            await self.leave_table(interaction)

        @app_commands.command(name=_cmd(game, ".stop"), description=_cmd(game, ".stop.desc"))
        async def stop(self, interaction: discord.Interaction) -> None:
            await self.stop_table(interaction)

        if lesson_of(game) is not None:

            @app_commands.command(name=_cmd(game, ".learn"), description=_cmd(game, ".learn.desc"))
            async def learn(self, interaction: discord.Interaction) -> None:
                await self.bot.tables.lessons.start(interaction, self.game)

    Commands.game = game
    Commands.__name__ = Commands.__qualname__ = cog_name
    return Commands
