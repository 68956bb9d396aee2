"""The help message (`/help`, or a mention of the bot): what the bot does, each game's commands,
how a table is played through Discord, and the other commands.

The commands come from the registered slash commands (`CommandHelp`), never from a list here,
so a game added as a plug-in appears in the help by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n import text
from bot.render import colors
from bot.render.limits import add_field, describe

HOW_TO_PLAY = ("table", "hand", "timers", "bots")  # the same for every game


@dataclass(frozen=True, slots=True)
class CommandHelp:
    name: str  # the qualified name in the reader's language, without the slash
    description: str


@dataclass(frozen=True, slots=True)
class GameHelp:
    title: str
    commands: tuple[CommandHelp, ...]
    rules: str | None  # the qualified name of the game's rules command
    how: str | None = None  # what is particular to playing this game here (its plug-in's words)


def command_lines(commands: Sequence[CommandHelp]) -> str:
    return "\n".join(f"`/{c.name}`: {c.description}" for c in commands)


def render_help(
    language: str,
    games: Sequence[GameHelp],
    others: Sequence[CommandHelp],
    *,
    turn_seconds: int,
) -> discord.Embed:
    embed = discord.Embed(title=text(language, "help.title"), color=colors.LOBBY)
    titles = ", ".join(game.title for game in games) or "—"
    how = [text(language, f"help.how.{part}", seconds=turn_seconds) for part in HOW_TO_PLAY]
    describe(
        embed,
        "\n\n".join([text(language, "help.about", games=titles), text(language, "help.how"), *how]),
    )
    for game in games:
        lines = command_lines(game.commands)
        if game.rules is not None:
            lines += "\n" + text(language, "help.rules", command=f"/{game.rules}")
        if game.how:
            lines += "\n" + game.how
        add_field(embed, game.title, lines, inline=False)
    if others:
        add_field(embed, text(language, "help.others"), command_lines(others), inline=False)
    return embed
