"""Names in messages, escaped for Discord's markdown exactly as `discord.utils.escape_markdown`
escapes them, without its regular expression for a name that holds no character markdown
reads (most names): every table message and "My cards" answer shows every seat's name."""

from __future__ import annotations

import discord

# Every pattern discord.py escapes starts from one of these (`*bold*`, `> quote`, `# title`,
# `- item`, `[link](url)`, `\`); a link it leaves alone is left alone here too.
MARKDOWN_CHARACTERS = frozenset("_\\~|*`>[#-")


def escape(name: str) -> str:
    if MARKDOWN_CHARACTERS.isdisjoint(name):
        return name
    return discord.utils.escape_markdown(name)
