"""Discord's embed limits: a refused payload would leave a table message stale for good."""

from __future__ import annotations

import discord

FIELD_VALUE = 1024
DESCRIPTION = 4096
ELLIPSIS = "…"


def clip(value: str, limit: int) -> str:
    """At most `limit` characters, cut at a line end when possible, marked with an ellipsis."""
    if len(value) <= limit:
        return value
    head = value[: limit - len(ELLIPSIS)]
    cut = head.rfind("\n")
    return (head[:cut] if cut > 0 else head) + ELLIPSIS


def add_field(embed: discord.Embed, name: str, value: str, *, inline: bool = True) -> None:
    embed.add_field(name=name, value=clip(value or "—", FIELD_VALUE), inline=inline)


def describe(embed: discord.Embed, value: str) -> None:
    embed.description = clip(value, DESCRIPTION)
