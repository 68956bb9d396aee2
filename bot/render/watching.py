"""A watcher's message: the table as its public message shows it, without its buttons.

A watcher plays nothing. At a table shown with its hands, it shows every seat's cards as they
were at the start of the current turn.

Built only from a `WatcherSnapshot`: the public snapshot and the engine's spectator view (the
hands one turn late), never the round itself. In the clicking member's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import text
from bot.render.card_text import as_text, face
from bot.render.limits import FIELD_VALUE, add_field, clip
from bot.render.names import escape
from bot.render.table import RenderedMessage, render_table
from bot.snapshots import PLAYING, WatcherSnapshot

EMBED_TOTAL = 6000  # Discord's limit on an embed's text, all fields together


def render_watcher(snapshot: WatcherSnapshot, language: str) -> RenderedMessage:
    """The watcher's view of the table, in `language`."""
    public = snapshot.public
    table = render_table(public, language)
    embed = table.embed
    embed.set_author(name=text(language, "watch.title"))
    names = [info.name for info in public.seats]
    if public.status == PLAYING:
        if public.spectators != "hands":
            public_only = text(language, "watch.public")
            add_field(embed, text(language, "watch.shown"), public_only, inline=False)
        elif snapshot.hands is None:
            later = text(language, "watch.hands_later")
            add_field(embed, text(language, "watch.shown"), later, inline=False)
        else:
            _add_hands(embed, snapshot.hands, names, language)
    if table.picture is not None:
        # the round's end picture is uploaded once, with the table message only: its lines
        # are in the text
        embed.set_image(url=None)
    return RenderedMessage(embed, (), cards=table.cards, v2=True)


def _add_hands(
    embed: discord.Embed,
    hands: Mapping[int, Sequence[Any]],
    names: list[str],
    language: str,
) -> None:
    """One field per seat, cards as pictures, or as text when the embed would be too long."""
    before = len(embed.fields)
    _hand_fields(embed, hands, names, language)
    if len(embed) > EMBED_TOTAL:
        for _ in range(len(embed.fields) - before):
            embed.remove_field(before)
        with as_text():
            _hand_fields(embed, hands, names, language)


def _hand_fields(
    embed: discord.Embed,
    hands: Mapping[int, Sequence[Any]],
    names: list[str],
    language: str,
) -> None:
    add_field(embed, text(language, "watch.shown"), text(language, "watch.hands"), inline=False)
    for seat, cards in sorted(hands.items()):
        name = escape(names[seat]) if 0 <= seat < len(names) else "?"
        value = " ".join(face(card.name) for card in cards) or "—"
        add_field(embed, text(language, "watch.hand_of", name=name), clip(value, FIELD_VALUE))
