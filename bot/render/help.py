"""The help message (`/help`, or a mention of the bot), a page at a time.

A page is the overview (what the bot does, how a table is played through Discord, each game's
start command, the other commands) or one game's page (its commands, its rules among them, and
how it plays here), chosen in a menu.

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
    name: str  # the game's plug-in name: its page's value in the menu
    title: str
    commands: tuple[CommandHelp, ...]
    how: str | None = None  # what is particular to playing this game here (its plug-in's words)
    start: CommandHelp | None = None  # the command that opens a table (on the overview)


def command_lines(language: str, commands: Sequence[CommandHelp]) -> str:
    return "\n".join(
        text(language, "help.command_line", command=c.name, about=c.description) for c in commands
    )


OVERVIEW = "overview"  # the first page; every other page is a game's (its name)


@dataclass(frozen=True, slots=True)
class HelpPage:
    """One page the help's menu offers: its value (`OVERVIEW` or a game) and its label."""

    value: str
    label: str


def help_pages(language: str, games: Sequence[GameHelp]) -> list[HelpPage]:
    """The overview, then each game's page."""
    return [
        HelpPage(OVERVIEW, text(language, "help.page.overview")),
        *(HelpPage(game.name, game.title) for game in games),
    ]


def render_help(
    language: str,
    games: Sequence[GameHelp],
    others: Sequence[CommandHelp],
    *,
    turn_seconds: int,
) -> discord.Embed:
    """The overview page: what the bot does and how a table plays, each game's start command
    (its page, in the menu, has the rest), and the other commands."""
    embed = discord.Embed(title=text(language, "help.title"), color=colors.LOBBY)
    titles = ", ".join(game.title for game in games) or "—"
    how = [text(language, f"help.how.{part}", seconds=turn_seconds) for part in HOW_TO_PLAY]
    describe(
        embed,
        "\n\n".join([text(language, "help.about", games=titles), text(language, "help.how"), *how]),
    )
    starts = [
        text(language, "help.game_line", game=g.title, command=start.name, about=start.description)
        for g in games
        if (start := g.start) is not None
    ]
    if starts:
        starts.append(text(language, "help.more"))
        add_field(embed, text(language, "help.games"), "\n".join(starts), inline=False)
    if others:
        lines = command_lines(language, others)
        add_field(embed, text(language, "help.others"), lines, inline=False)
    return embed


def render_game_help(language: str, game: GameHelp) -> discord.Embed:
    """A game's page: its commands (its rules command among them), and what is particular to
    playing it here."""
    embed = discord.Embed(
        title=text(language, "help.game_title", game=game.title), color=colors.LOBBY
    )
    describe(embed, command_lines(language, game.commands))  # its rules command among them
    if game.how:
        add_field(embed, text(language, "help.how_here"), game.how, inline=False)
    return embed
