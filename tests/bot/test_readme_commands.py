"""The README's command tables name the commands and options the bot registers, in English and
in French, so a newcomer never types an option (a `[preset]`) the command does not have."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.app import CardTableBot
from bot.games import plugins
from bot.i18n.translator import CatalogTranslator
from tests.bot.bots import offline_bot

README = Path(__file__).resolve().parent.parent.parent / "README.md"
SUBCOMMAND, GROUP = 1, 2
Commands = dict[str, set[str]]  # "dutch start" -> its options


def _table(header: str) -> list[str]:
    """The rows of the README table that opens with `header`, each its cells joined by " | "."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(header)
    cells = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells.append(line.split("|")[1:-1])
    return [" | ".join(cell.strip() for cell in row) for row in cells]


def _commands(cell: str) -> Commands:
    """The commands a table cell names: a span in backticks opens a command (`/dutch start
    [preset]`), a span of options alone (`[preset]`) goes on with the one before it."""
    found: Commands = {}
    last = ""
    for span in re.findall(r"`([^`]+)`", cell):
        options = set(re.findall(r"\[([^\]]+)\]", span))
        if span.startswith("/"):
            last = re.sub(r"\s*\[.*", "", span)[1:].strip()
            found.setdefault(last, set())
        assert last, f"options before any command in {cell!r}"
        found[last] |= options
    return found


def _named(payload: dict[str, Any], language: str) -> str:
    return str(payload.get("name_localizations", {}).get(language, payload["name"]))


def _walk(payload: dict[str, Any], language: str, prefix: str = "") -> Commands:
    """Every command of a registered command's payload, as Discord gets it, named in `language`."""
    name = (prefix + " " + _named(payload, language)).strip()
    options = payload.get("options", [])
    nested = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
    if not nested:
        return {name: {_named(o, language) for o in options}}
    found: Commands = {}
    for option in nested:
        found.update(_walk(option, language, name))
    return found


async def _registered(bot: CardTableBot, *, games_only: bool = False) -> tuple[Commands, Commands]:
    """The bot's commands in English and in French, all of them or its games' only."""
    translator = CatalogTranslator()
    games = {plugin.name for plugin in plugins()}
    english: Commands = {}
    french: Commands = {}
    for command in bot.tree.get_commands():
        if games_only and command.name not in games:
            continue
        payload = await command.get_translated_payload(bot.tree, translator)
        english.update(_walk(payload, "en-US"))
        french.update(_walk(payload, "fr"))
    return english, french


def _readme() -> tuple[Commands, Commands, Commands]:
    """The commands of the README's command table, then of its English and French columns."""
    listed: Commands = {}
    for row in _table("| command | what it does |"):
        listed.update(_commands(row.split(" | ")[0]))
    english: Commands = {}
    french: Commands = {}
    for row in _table("| English | French |"):
        left, right = row.split(" | ")
        english.update(_commands(left))
        french.update(_commands(right))
    return listed, english, french


async def test_every_command_and_option_the_readme_lists_is_registered(tmp_path: Path) -> None:
    async with offline_bot(tmp_path) as bot:
        english, french = await _registered(bot)
    listed, table_english, table_french = _readme()
    for told, real in ((listed, english), (table_english, english), (table_french, french)):
        for name, options in told.items():
            assert name in real, f"the README names /{name}, which the bot does not register"
            assert options <= real[name], (
                f"the README gives /{name} the options {sorted(options - real[name])}, "
                "which it does not have"
            )


async def test_every_game_command_and_option_is_in_the_readme(tmp_path: Path) -> None:
    async with offline_bot(tmp_path) as bot:
        english, french = await _registered(bot, games_only=True)
    assert {name.split()[0] for name in english} == {plugin.name for plugin in plugins()}
    listed, table_english, table_french = _readme()
    for told, real in ((listed, english), (table_english, english), (table_french, french)):
        told_games = {name: told[name] for name in told if name in real}
        assert told_games == real, "the README's game commands are not the registered ones"
