"""The one place a person's name becomes message text.

Every renderer of every game words seat names through `escape` (bot/render/table.py's
`table_text` hands them to the plug-ins, already escaped), and so do the stats and leaderboard.

Markdown is escaped exactly as `discord.utils.escape_markdown` escapes it (a masked link
`[text](url)`, `**bold**`, `||spoiler||`, headings, quotes, lists, code), and then what it leaves
alone is escaped too: `<` (a mention `<@id>`, a channel `<#id>`, a time `<t:…>`, a custom emoji
`<:name:id>`) and `@` (`@everyone`, `@here`): a name shows as it is written and does nothing
else. The two characters that mark a card in the Activity page's words (`card_text.as_marks`)
are dropped from a name, which would otherwise draw a card there. A name holding none of these
characters (most names) is itself, without the regular expressions."""

from __future__ import annotations

import discord

from bot.render.card_text import CARD_CLOSE, CARD_OPEN

# Every pattern discord.py escapes starts from one of these (`*bold*`, `> quote`, `# title`,
# `- item`, `[link](url)`, `\`); a link it leaves alone is left alone here too.
MARKDOWN_CHARACTERS = frozenset("_\\~|*`>[#-")
# What Discord reads in a message besides markdown: mentions, times, emojis (`<…>`), @everyone.
MENTION_CHARACTERS = frozenset("<@")
CARD_MARKS = frozenset(CARD_OPEN + CARD_CLOSE)
SPECIAL_CHARACTERS = MARKDOWN_CHARACTERS | MENTION_CHARACTERS | CARD_MARKS
_NO_CARD_MARKS = str.maketrans("", "", CARD_OPEN + CARD_CLOSE)


def escape(name: str) -> str:
    """`name` as message text: shown as written, never markup, a mention or a time."""
    if SPECIAL_CHARACTERS.isdisjoint(name):
        return name
    escaped = discord.utils.escape_markdown(name.translate(_NO_CARD_MARKS))
    return escaped.replace("<", "\\<").replace("@", "\\@")
