"""Every option of every command is checked against what the command declares (types,
ranges, lengths, choices), whatever the client sent, before the command runs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import AppCommandOptionType, app_commands

from bot.app import CardTableBot
from bot.ui.command_options import MAX_SENTENCE, CheckedCommandTree, option_problem
from bot.ui.deliveries import SeenInteractions
from tests.bot.bots import offline_bot


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    async with offline_bot(tmp_path) as made:
        yield made


def command(bot: CardTableBot, path: str) -> app_commands.Command[Any, ..., Any]:
    found = bot.tree.get_command(path.split()[0])
    for name in path.split()[1:]:
        assert isinstance(found, app_commands.Group)
        found = found.get_command(name)
    assert isinstance(found, app_commands.Command), path
    return found


def every_command(bot: CardTableBot) -> Iterator[app_commands.Command[Any, ..., Any]]:
    for top in bot.tree.get_commands():
        if isinstance(top, app_commands.Group):
            yield from (c for c in top.walk_commands() if isinstance(c, app_commands.Command))
        elif isinstance(top, app_commands.Command):
            yield top


def kind_of(bot: CardTableBot, path: str, **values: Any) -> str | None:
    problem = option_problem(command(bot, path), values)
    return None if problem is None else problem.kind


async def test_the_cases_a_client_never_sends_are_refused(bot: CardTableBot) -> None:
    assert kind_of(bot, "dutch start", target=5) == "range"
    assert kind_of(bot, "dutch start", target=1001) == "range"
    assert kind_of(bot, "dutch start", target=2**53) == "range"
    assert kind_of(bot, "dutch start", target="100") == "type"
    assert kind_of(bot, "dutch start", target=True) == "type"
    assert kind_of(bot, "dutch start", preset="") == "choice"
    assert kind_of(bot, "settings", preset="nonsense") == "choice"
    assert kind_of(bot, "settings", turn_seconds=4) == "range"
    assert kind_of(bot, "leaderboard", order="nonsense") == "choice"
    assert kind_of(bot, "leaderboard", game="poker") == "choice"
    assert kind_of(bot, "stats", member=discord.Object(id=5)) == "user"


async def test_the_values_a_client_offers_pass(bot: CardTableBot) -> None:
    assert kind_of(bot, "dutch start") is None
    assert kind_of(bot, "dutch start", target=10, preset="house") is None
    assert kind_of(bot, "dutch start", target=1000, preset="classic") is None
    assert kind_of(bot, "settings", preset="dutch:house", turn_seconds=5, threads=False) is None
    assert kind_of(bot, "leaderboard", order="win_rate", game="dutch") is None


async def test_every_declared_domain_of_every_command_is_enforced(bot: CardTableBot) -> None:
    """Whatever commands exist (every game's group included): a value outside what an option
    declares is refused, and its declared extremes pass."""
    checked = bounds = 0
    for found in every_command(bot):
        # a required option (`/tournament create game`) is given its first choice throughout
        required = {
            p.display_name: p.choices[0].value for p in found.parameters if p.required and p.choices
        }
        for parameter in found.parameters:
            name = parameter.display_name
            if parameter.choices:
                assert option_problem(found, {**required, name: "\n"}) is not None
                last = parameter.choices[-1].value
                assert option_problem(found, {**required, name: last}) is None
                checked += 1
            elif parameter.type is AppCommandOptionType.integer:
                low, high = parameter.min_value, parameter.max_value
                if low is not None:
                    assert option_problem(found, {**required, name: int(low) - 1}) is not None
                    assert option_problem(found, {**required, name: int(low)}) is None
                    bounds += 1
                if high is not None:
                    assert option_problem(found, {**required, name: int(high) + 1}) is not None
                    bounds += 1
                assert option_problem(found, {**required, name: "1"}) is not None
                checked += 1
    assert checked >= 8
    assert bounds >= 6  # each game's `target` at least: its lowest and highest are enforced


async def test_a_refusal_names_the_option_and_its_choices_in_the_users_language(
    bot: CardTableBot,
) -> None:
    tree = bot.tree
    assert isinstance(tree, CheckedCommandTree)
    problem = option_problem(command(bot, "leaderboard"), {"order": "nonsense"})
    assert problem is not None
    english = await tree.sentence(problem, discord.Locale.american_english)
    french = await tree.sentence(problem, discord.Locale.french)
    assert english == "`order` must be one of: Rating, Wins, Win rate."
    assert french.startswith("`ordre`") and "\n" not in french
    problem = option_problem(command(bot, "dutch start"), {"target": 5})
    assert problem is not None
    assert await tree.sentence(problem, discord.Locale.british_english) == (
        "`target` must be between 10 and 1000."
    )


def test_an_interaction_delivered_again_is_recognised() -> None:
    seen = SeenInteractions(size=2)
    assert seen.first_time(1) and seen.first_time(2)
    assert not seen.first_time(1)
    assert seen.first_time(3) and seen.first_time(1)  # the oldest were forgotten


async def test_choices_are_named_as_the_client_shows_them(bot: CardTableBot) -> None:
    tree = bot.tree
    assert isinstance(tree, CheckedCommandTree)
    problem = option_problem(command(bot, "settings"), {"preset": "nonsense"})
    assert problem is not None
    french = await tree.sentence(problem, discord.Locale.french)
    assert "preset." not in french and "game." not in french


async def test_a_choice_list_too_long_for_one_short_sentence_is_not_spelled_out(
    bot: CardTableBot,
) -> None:
    """Every game's presets are choices of `/settings preset`: too many to list in a sentence."""
    tree = bot.tree
    assert isinstance(tree, CheckedCommandTree)
    problem = option_problem(command(bot, "settings"), {"preset": "nonsense"})
    assert problem is not None
    english = await tree.sentence(problem, discord.Locale.american_english)
    french = await tree.sentence(problem, discord.Locale.french)
    assert english == "`preset` must be one of the values Discord offers for it."
    assert french.endswith("doit être l'une des valeurs que Discord propose.")
    assert len(french) <= MAX_SENTENCE
