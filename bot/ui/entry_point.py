"""The application's entry point command: the Activity opened from Discord's app launcher.

Discord lists an Activity's entry point (a command of type PRIMARY_ENTRY_POINT) in its app
launcher. discord.py 2.7 has no type for it, so its definition is synced by HTTP beside the
slash commands (`sync_with_entry_point`, `upsert_entry_point`), and its interaction is answered
here (`answer`) rather than by the command tree: the Activity launched at once when the channel
has one table, one "Open the table" button per table when it has several (each launches it for
its table), one sentence when it has none; all in the user's language.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.custom_ids import Verb, verb_id
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, text
from bot.render.actions import ButtonSpec, ComponentSpec
from bot.ui.dynamic_items import build_view
from bot.ui.replies import refuse, user_language

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

PRIMARY_ENTRY_POINT = 4  # Discord's command type of an Activity's entry point
APP_HANDLER = 1  # the application answers the command (Discord does not launch by itself)
GUILD_INSTALL, IN_GUILD = 0, 0  # where the command is offered: in the servers the bot is in
OFFERED = 25  # buttons in one answer (Discord's components in a message)
LABEL = 80  # characters in a button's label (Discord's limit)
# Discord's locale for each language of the catalog but the default
DISCORD_LOCALES = {"fr": "fr"}


def definition() -> dict[str, Any]:
    """The entry point as Discord's command API takes it."""
    others = [language for language in LANGUAGES if language != DEFAULT_LANGUAGE]
    return {
        "name": text(DEFAULT_LANGUAGE, "cmd.launch"),
        "name_localizations": {DISCORD_LOCALES[lang]: text(lang, "cmd.launch") for lang in others},
        "description": text(DEFAULT_LANGUAGE, "cmd.launch.desc"),
        "description_localizations": {
            DISCORD_LOCALES[lang]: text(lang, "cmd.launch.desc") for lang in others
        },
        "type": PRIMARY_ENTRY_POINT,
        "handler": APP_HANDLER,
        "integration_types": [GUILD_INSTALL],
        "contexts": [IN_GUILD],
    }


def is_entry_point(interaction: discord.Interaction[Any]) -> bool:
    data: dict[str, Any] = dict(interaction.data or {})
    return (
        interaction.type is discord.InteractionType.application_command
        and data.get("type") == PRIMARY_ENTRY_POINT
    )


async def sync_with_entry_point(bot: CardTableBot, tree: app_commands.CommandTree[Any]) -> None:
    """The global commands as `tree.sync()` writes them, the entry point among them (Discord
    refuses a bulk update of an Activity's commands without its entry point)."""
    assert bot.application_id is not None
    translator = tree.translator
    payload = [
        await command.get_translated_payload(tree, translator)
        if translator is not None
        else command.to_dict(tree)
        for command in tree.get_commands()
    ]
    payload.append(definition())
    await bot.http.bulk_upsert_global_commands(bot.application_id, payload=payload)


async def upsert_entry_point(bot: CardTableBot) -> None:
    """The entry point alone, created or updated (the other global commands left as they are:
    a bot syncing its commands to one guild only)."""
    assert bot.application_id is not None
    await bot.http.upsert_global_command(bot.application_id, payload=cast(Any, definition()))


async def answer(bot: CardTableBot, interaction: discord.Interaction[Any]) -> None:
    """The entry point used in a channel: its tables offered (see the module)."""
    server = bot.activity_server
    channel_id = interaction.channel_id
    if server is None:  # turned off since the entry point was synced
        await refuse(interaction, "activity_off")
        return
    if channel_id is None:
        await refuse(interaction, "activity_no_table")
        return
    service = bot.service
    tables = [t for t in service.tables_in_channel(channel_id) if service.loaded(t)]
    if not tables:
        await refuse(interaction, "activity_no_table")
        return
    if len(tables) == 1:
        server.launched(channel_id, interaction.user.id, tables[0])
        await interaction.response.launch_activity()
        return
    language = user_language(interaction)
    buttons: list[ComponentSpec] = []
    for table_id in tables[-OFFERED:]:  # the newest, when a channel has very many
        snapshot = service.public_snapshot(table_id)
        host = next((s.name for s in snapshot.seats if s.user_id == snapshot.host_id), "")
        label = text(
            language,
            "button.open_table_of",
            game_name=text(language, f"{snapshot.game}.name"),
            host=host,
        )
        custom_id = verb_id(table_id, snapshot.round_no or 0, Verb.ACTIVITY)
        buttons.append(ButtonSpec(custom_id, label[:LABEL], "success", row=len(buttons) // 5))
    view = build_view(buttons)
    await interaction.response.send_message(
        text(language, "entry.choose"), view=view, ephemeral=True
    )
