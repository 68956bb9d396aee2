"""Every option of every slash command is checked here, by the bot, before the command runs.

Discord's client offers only the declared choices and ranges, but its API does not enforce
them: a retried, scripted or tampered request may carry `target: 5`, `preset: ""` or
`order: nonsense`. `CheckedCommandTree` reads what each command *declares* (its parameters'
types, ranges, lengths and choices, which the commands build from each game's presets and
options) and refuses any other value with one short ephemeral sentence before the command's
callback runs, so no command needs checks of its own and nothing unchecked is stored. It also
answers a repeated delivery of an interaction it already handled by doing nothing.

Pure checking (`option_problem`) is apart from answering, so it is tested without Discord.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import AppCommandOptionType, app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation
from discord.app_commands.translator import (
    ChoiceTranslationContext,
    ParameterTranslationContext,
    TranslationContextTypes,
)

from bot import logs
from bot.i18n import language_of, text
from bot.ui import entry_point
from bot.ui.deliveries import SeenInteractions
from bot.ui.replies import interaction_gone, refuse, say

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

OUTDATED_COMMAND = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
MAX_CHOICES_LISTED = 10
# A refusal is one short sentence: a choice list longer than this is not spelled out (the
# client shows the choices anyway).
MAX_SENTENCE = 180


@dataclass(frozen=True, slots=True)
class OptionProblem:
    """Why an option's value is refused: a catalog key (`error.option.<kind>`), the parameter
    it is about and the sentence's other placeholders."""

    kind: str  # missing, type, range, length, choice, user
    parameter: app_commands.Parameter
    params: dict[str, Any] = field(default_factory=dict)


def option_problem(
    command: app_commands.Command[Any, ..., Any], values: dict[str, Any]
) -> OptionProblem | None:
    """The first option of `values` (the interaction's namespace, by display name) that the
    command's declaration refuses; None when every value is one it accepts."""
    for parameter in command.parameters:
        if parameter.display_name not in values:
            if parameter.required:
                return OptionProblem("missing", parameter)
            continue
        problem = _value_problem(parameter, values[parameter.display_name])
        if problem is not None:
            return problem
    return None


def _value_problem(parameter: app_commands.Parameter, value: Any) -> OptionProblem | None:
    if not _has_type(parameter.type, value):
        return OptionProblem("user" if parameter.type is USER else "type", parameter)
    if parameter.choices:
        if value not in {choice.value for choice in parameter.choices}:
            return OptionProblem("choice", parameter)
        return None
    low, high = parameter.min_value, parameter.max_value
    if low is None and high is None:
        return None
    if parameter.type is AppCommandOptionType.string:
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            return OptionProblem("length", parameter, {"min": low or 0, "max": high or "∞"})
    elif (low is not None and value < low) or (high is not None and value > high):
        return OptionProblem("range", parameter, {"min": low, "max": high})
    return None


USER = AppCommandOptionType.user
_PYTHON_TYPES: dict[AppCommandOptionType, tuple[type, ...]] = {
    AppCommandOptionType.integer: (int,),
    AppCommandOptionType.number: (int, float),
    AppCommandOptionType.string: (str,),
    AppCommandOptionType.boolean: (bool,),
    # An id without user data resolves to a bare discord.Object: nobody Discord could show.
    USER: (discord.User, discord.Member),
}


def _has_type(kind: AppCommandOptionType, value: Any) -> bool:
    expected = _PYTHON_TYPES.get(kind)
    if expected is None:
        return True  # channels, roles, attachments: this bot declares none
    if isinstance(value, bool) and bool not in expected:
        return False  # a JSON true is not the integer 1
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return isinstance(value, expected)


def _choice_name(choice: app_commands.Choice[Any]) -> app_commands.locale_str:
    # discord.py keeps the translatable name of a choice only in this attribute.
    locale_name = getattr(choice, "_locale_name", None)
    return locale_name if locale_name is not None else app_commands.locale_str(choice.name)


def bind_interaction(interaction: discord.Interaction[Any]) -> None:
    """The rest of this interaction's work logs its guild, channel and id (bot/logs.py)."""
    logs.bind(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        interaction_id=interaction.id,
    )


class CheckedCommandTree(app_commands.CommandTree[Any]):
    """The bot's command tree: options checked before any command runs (see the module)."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self.seen = SeenInteractions()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bind_interaction(interaction)
        if not self.seen.first_time(interaction.id):
            log.info("interaction %s delivered again: already handled", interaction.id)
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True
        if entry_point.is_entry_point(interaction):  # not one of this tree's: answered here
            try:
                await entry_point.answer(cast("CardTableBot", self.client), interaction)
            except discord.HTTPException as error:
                log.info("could not answer the entry point: %s", error)
            return False
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True  # unknown to this tree: discord.py answers nothing and logs it
        problem = option_problem(command, dict(iter(interaction.namespace)))
        if problem is None:
            return True
        log.info(
            "/%s refused: option %s (%s)",
            command.qualified_name,
            problem.parameter.display_name,
            problem.kind,
        )
        try:
            await say(interaction, await self.sentence(problem, interaction.locale))
        except discord.HTTPException as error:
            log.info("could not answer a refused /%s: %s", command.qualified_name, error)
        return False

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        """Every failed command gets one short sentence in the user's language; only a bug
        (an error nobody expects) is logged above INFO."""
        original = getattr(error, "original", None)
        if isinstance(original, discord.HTTPException) and interaction_gone(original):
            # Answered already (a repeated delivery raced the first) or too late: nobody to tell.
            log.info("a command was not answered: %s", original)
            return
        if isinstance(error, app_commands.MissingPermissions):
            key = "manage_guild_needed"
        elif isinstance(error, app_commands.NoPrivateMessage):
            key = "guild_only"
        elif isinstance(error, app_commands.TransformerError):
            key = "option.invalid"
        elif isinstance(error, OUTDATED_COMMAND):
            key = "command_unknown"  # a command Discord still shows but this bot no longer has
        else:
            key = "unknown"
            log.error("command %s failed", interaction.command, exc_info=error)
        if key != "unknown":
            log.info("a command was refused (%s): %s", key, error)
        try:
            await refuse(interaction, key)
        except discord.HTTPException as failed:
            log.info("could not answer a failed command: %s", failed)

    async def sentence(self, problem: OptionProblem, locale: discord.Locale) -> str:
        """The refusal in the user's language, naming the option (and its choices) as their
        client shows them."""
        parameter = problem.parameter
        name = parameter.locale_name or app_commands.locale_str(parameter.display_name)
        where: ParameterTranslationContext = TranslationContext(
            TranslationContextLocation.parameter_name, parameter
        )
        parts: dict[str, Any] = {"option": f"`{await self._translated(name, locale, where)}`"}
        parts.update(problem.params)
        if problem.kind == "choice":
            names = []
            for choice in parameter.choices[:MAX_CHOICES_LISTED]:
                at: ChoiceTranslationContext = TranslationContext(
                    TranslationContextLocation.choice_name, choice
                )
                names.append(await self._translated(_choice_name(choice), locale, at))
            parts["choices"] = ", ".join(names)
        language = language_of(locale)
        sentence = text(language, f"error.option.{problem.kind}", **parts)
        if problem.kind == "choice" and len(sentence) > MAX_SENTENCE:
            return text(language, "error.option.choice_offered", **parts)
        return sentence

    async def _translated(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: TranslationContextTypes,
    ) -> str:
        translator = self.translator
        if translator is not None:
            found = await translator.translate(string, locale, context)
            if found:
                return found
        return string.message
