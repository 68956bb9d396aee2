"""Short ephemeral answers: a refused click or command gets one sentence in the user's locale."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import error_text, language_of, text

# Discord's codes for an interaction that cannot be answered any more: already acknowledged
# (the same interaction delivered twice), unknown (its 3 seconds are over).
GONE_INTERACTION = frozenset({40060, 10062})


def interaction_gone(error: discord.HTTPException) -> bool:
    """The answer failed because nobody is waiting for it: nothing to tell, nothing broken."""
    return error.code in GONE_INTERACTION


def user_language(interaction: discord.Interaction[Any]) -> str:
    return language_of(interaction.locale)


def selected_values(interaction: discord.Interaction[Any]) -> list[object]:
    """The values a select's click chose, as Discord sent them (`[]`: none, or no select)."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values")
    return list(values) if isinstance(values, list) else []


async def say(interaction: discord.Interaction[Any], message: str) -> None:
    """Answer ephemerally, whether or not the interaction was already answered or deferred."""
    if not interaction.response.is_done():
        await interaction.response.send_message(message, ephemeral=True)
        return
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        # The first follow-up replaces a "thinking…" message and keeps its visibility, which
        # is public for a command deferred in the channel: remove it so this one stays private.
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(message, ephemeral=True)


async def refuse(interaction: discord.Interaction[Any], key: str, **params: Any) -> None:
    """One short sentence for a service error key (`not_your_turn`, `illegal:<rule>`, …)."""
    await say(interaction, error_text(user_language(interaction), key, **params))


async def tell(interaction: discord.Interaction[Any], key: str, **params: Any) -> None:
    """One short sentence from the catalog, in the user's language."""
    await say(interaction, text(user_language(interaction), key, **params))
