"""Names are escaped for markdown exactly as discord.py escapes them, then for what it leaves
alone (mentions, times, emojis: `<`; @everyone: `@`), by a shortcut for a name without any of
these characters."""

from __future__ import annotations

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.card_text import CARD_CLOSE, CARD_OPEN
from bot.render.names import MARKDOWN_CHARACTERS, escape

# Markdown's characters, what links are made of, and letters, spaces and line ends around them.
pieces = st.sampled_from(
    [
        *MARKDOWN_CHARACTERS,
        "a",
        "Zoé",
        " ",
        "\n",
        ":",
        "/",
        "<",
        "@",
        "<@1>",
        "<t:1:R>",
        ">",
        "(",
        ")",
        "]",
        "http://x.y",
        "<https://a.b/c>",
        "steam://run",
        "**",
        "> ",
        "- ",
        "# ",
        "[a](b)",
        "🃏",
        "\\\\",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(pieces, max_size=12).map("".join))
def test_a_name_reads_as_discord_py_escapes_it(name: str) -> None:
    assert escape(name) == discord_escaped(name)


@given(st.text(max_size=40))
def test_any_text_reads_as_discord_py_escapes_it(name: str) -> None:
    assert escape(name) == discord_escaped(name)


def discord_escaped(name: str) -> str:
    name = name.replace(CARD_OPEN, "").replace(CARD_CLOSE, "")
    return discord.utils.escape_markdown(name).replace("<", "\\<").replace("@", "\\@")


def test_mentions_times_emojis_and_everyone_are_shown_as_written() -> None:
    assert escape("<@123>") == "\\<\\@123>"
    assert escape("<t:99999999999:R>") == "\\<t:99999999999:R>"
    assert escape("<#5> <:e:9>") == "\\<#5> \\<:e:9>"
    assert escape("@everyone") == "\\@everyone"
    assert escape("[click](http://x.example)") == "\\[click](http://x.example)"


def test_a_name_cannot_draw_a_card_on_the_activity_page() -> None:
    assert escape(f"Bob{CARD_OPEN}AS{CARD_CLOSE}") == "BobAS"


def test_a_plain_name_is_itself() -> None:
    assert escape("Zoé 42") == "Zoé 42"
    assert escape("a_b") == "a\\_b"
