"""`/help`, and the same help when someone mentions the bot, a page at a time.

The overview comes first, with a menu of the pages (the overview and each game's). A page chosen
from a `/help` answer (only its asker sees it) replaces it; one chosen from the public help a
mention got is sent to the chooser alone, in their language, so nobody changes what the channel
reads.

A mention reaches the bot without the privileged message-content intent: Discord still sends
the content of a message that mentions the bot. The help lists the slash commands the bot has
registered, so each game's command group shows up as soon as the game is loaded. One member
gets one help per `HELP_COOLDOWN_SECONDS` (a `/help` within it: one sentence; a mention within
it: nothing, as a public refusal would flood the channel as much as the help).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import plugin_names
from bot.i18n import catalog, has_key, text
from bot.i18n.translator import command_text
from bot.render.help import (
    OVERVIEW,
    CommandHelp,
    GameHelp,
    help_pages,
    render_game_help,
    render_help,
)
from bot.ui.replies import refuse, say, selected_values, user_language
from storage.models import GuildSettings

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

START_COMMAND = "start"
HELP_COMMAND = "help"
HELP_PAGE_ID = "help:page"  # the custom id of the help's menu of pages


def _localized(language: str, key: str, english: str) -> str:
    return catalog(language).get(key, english) if language != "en" else english


def _command_key(parts: list[str]) -> str:
    """A command's catalog key: `cmd.<name>…`, or `<game>.cmd…` in a game's group."""
    if parts[0] in plugin_names():
        return ".".join([parts[0], "cmd", *parts[1:]])
    return ".".join(["cmd", *parts])


def _command_help(command: app_commands.Command | app_commands.Group, language: str) -> CommandHelp:
    parts = command.qualified_name.split()
    key = _command_key(parts)
    names = [
        _localized(language, _command_key(parts[: i + 1]), part) for i, part in enumerate(parts)
    ]
    description = _localized(language, f"{key}.desc", command.description)
    return CommandHelp(" ".join(names), description)


def _how_to_play(game: str, language: str) -> str | None:
    """A plug-in's own how-to lines (its catalog key `<game>.help`), if it has them."""
    key = f"{game}.help"
    return text(language, key) if has_key(key) else None


def help_sections(
    tree: app_commands.CommandTree, language: str
) -> tuple[list[GameHelp], list[CommandHelp]]:
    """The games (command groups named after a game plug-in) and the other commands."""
    games: list[GameHelp] = []
    others: list[CommandHelp] = []
    known = set(plugin_names())
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Group) and command.name in known:
            subcommands = [c for c in command.commands if isinstance(c, app_commands.Command)]
            named = {c.name: _command_help(c, language) for c in subcommands}
            games.append(
                GameHelp(
                    name=command.name,
                    title=text(language, f"{command.name}.name"),
                    commands=tuple(named.values()),
                    how=_how_to_play(command.name, language),
                    start=named.get(START_COMMAND),
                )
            )
        elif command.name != HELP_COMMAND:
            others.append(_command_help(command, language))
    return games, others


def help_view(language: str, games: Sequence[GameHelp], page: str) -> discord.ui.View:
    """The menu of the help's pages, `page` shown as chosen."""
    options = [
        discord.SelectOption(label=item.label[:100], value=item.value, default=item.value == page)
        for item in help_pages(language, games)
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=HELP_PAGE_ID, placeholder=text(language, "help.pick"), options=options[:25]
        )
    )
    return view


class HelpPageMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=HELP_PAGE_ID):
    """The help's menu of pages, answered from any help message, even one from before a
    restart."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Select(custom_id=HELP_PAGE_ID, options=[discord.SelectOption(label="-")])
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> HelpPageMenu:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = selected_values(interaction)
        cog = interaction.client.get_cog(HelpCog.__cog_name__)
        if not isinstance(cog, HelpCog) or len(values) != 1:
            await say(interaction, text(user_language(interaction), "error.bad_button"))
            return
        await cog.show_page(interaction, str(values[0]))


class Cooldown:
    """When each user may be answered again: one member asking as fast as they can gets one
    answer per `seconds` (the users remembered are bounded: expired ones are dropped)."""

    def __init__(
        self, seconds: float, now: Callable[[], float] = time.monotonic, kept: int = 10_000
    ) -> None:
        self.seconds = seconds
        self._now = now
        self._kept = kept
        self._until: dict[int, float] = {}

    def wait(self, user_id: int) -> int:
        """0 if `user_id` may be answered now (their cool-down starts), else the seconds left."""
        now = self._now()
        until = self._until.get(user_id, 0.0)
        if now < until:
            return math.ceil(until - now)
        if len(self._until) >= self._kept:
            self._until = {user: end for user, end in self._until.items() if end > now}
        self._until[user_id] = now + self.seconds
        return 0


HELP_COOLDOWN_SECONDS = 30.0  # one help per member in this time (a mention posts it publicly)


class HelpCog(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.cooldown = Cooldown(HELP_COOLDOWN_SECONDS)

    async def overview(
        self, language: str, guild_id: int | None
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The help's first page and its menu."""
        if guild_id is None:
            seconds = GuildSettings.model_fields["turn_seconds"].default
        else:
            seconds = (await self.bot.guild_settings.get(guild_id)).turn_seconds
        games, others = help_sections(self.bot.tree, language)
        embed = render_help(language, games, others, turn_seconds=seconds)
        return embed, help_view(language, games, OVERVIEW)

    async def help_page(
        self, language: str, guild_id: int | None, page: str
    ) -> tuple[discord.Embed, discord.ui.View] | None:
        """The help's page `page` (the overview, or a game's) and its menu; None: no such
        page (a game no longer loaded)."""
        if page == OVERVIEW:
            return await self.overview(language, guild_id)
        games, _ = help_sections(self.bot.tree, language)
        game = next((g for g in games if g.name == page), None)
        if game is None:
            return None
        return render_game_help(language, game), help_view(language, games, page)

    async def show_page(self, interaction: discord.Interaction[Any], page: str) -> None:
        """The page chosen in a help's menu, in the chooser's language: in place of a help only
        they see, else (the public help) in a message of their own."""
        language = user_language(interaction)
        shown = await self.help_page(language, interaction.guild_id, page)
        if shown is None:
            await say(interaction, text(language, "error.bad_button"))
            return
        embed, view = shown
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(
        name=command_text("help", "cmd.help"),
        description=command_text("How to play card games with this bot", "cmd.help.desc"),
    )
    async def help(self, interaction: discord.Interaction) -> None:
        wait = self.cooldown.wait(interaction.user.id)
        if wait:
            await refuse(interaction, "help_too_often", seconds=wait)
            return
        embed, view = await self.overview(user_language(interaction), interaction.guild_id)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        me = self.bot.user
        if me is None or message.author.bot or message.guild is None:
            return
        if f"<@{me.id}>" not in message.content and f"<@!{me.id}>" not in message.content:
            return  # a reply to the bot also lists it in `mentions`: only an explicit @ counts
        if self.cooldown.wait(message.author.id):  # a public answer: a refusal would spam too
            log.info("user %s asked for the help again within the cool-down", message.author.id)
            return
        language = await self.bot.guild_settings.public_language(message.guild.id)
        embed, view = await self.overview(language, message.guild.id)
        try:
            await message.channel.send(embed=embed, view=view)
        except discord.HTTPException:
            return  # no right to speak in this channel: nothing else to do
