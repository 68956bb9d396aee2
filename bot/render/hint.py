"""A coach's hint as the player reads it.

It gives the move as its button says it, one sentence of why in the game's words
(`<game>.coach.<kind>` in the plug-in's texts, filled from the reason's fields: cards as
pictures, a move named as its button), and the hand's picture with the cards the move uses set
apart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import discord

from bot.games import plugin_for
from bot.i18n import has_key, text
from bot.pictures.card_faces import TWO_COLOURS, Deck
from bot.pictures.layout import CardRow
from bot.render import colors
from bot.render.card_text import in_deck, shown
from bot.render.limits import describe
from bot.render.table import RenderedMessage, table_text, with_cards
from bot.snapshots import PrivateSnapshot, PublicSnapshot
from games.coach import Field, Hint, Reason


def reason_text(
    game: str, reason: Reason, label: Callable[[str], str], language: str
) -> str | None:
    """The reason in the game's words (None: the game has no words for this kind)."""
    key = f"{game}.coach.{reason.kind}"
    if not has_key(key):
        return None
    return text(
        language,
        key,
        **{name: _said(name, value, label, language) for name, value in reason.fields.items()},
    )


def _said(name: str, value: Field, label: Callable[[str], str], language: str) -> str:
    if name == "next" and isinstance(value, str):
        return label(value)  # a move: as its button says it
    if name in ("card", "cards"):
        cards = (value,) if isinstance(value, str) else value
        return (
            " ".join(shown(str(c).split("#")[0]) for c in cards if c)
            if isinstance(cards, tuple)
            else str(value)
        )
    if isinstance(value, float):
        # Two decimals always: an expected value of exactly 1 reads "1.00 points", not
        # "1 points", and a column of figures lines up from one hint to the next.
        words = f"{value:.2f}"
        return words.replace(".", ",") if language == "fr" else words
    return str(value)


def marked(rows: tuple[CardRow, ...], hint: Hint) -> tuple[CardRow, ...]:
    """The hand's rows with the cards the hinted move uses set apart: the cards it names, or
    the slot it names (a card of a grid, by its number under it)."""
    fields = hint.reason.fields if hint.reason is not None else {}
    names: set[str] = set()
    for key in ("card", "cards"):
        value = fields.get(key)
        if isinstance(value, str):
            names.add(value.split("#")[0])
        elif isinstance(value, tuple):
            names.update(str(c).split("#")[0] for c in value)
    slot = str(fields["slot"]) if "slot" in fields else None
    marked_rows = []
    for row in rows:
        if slot is not None and row.captions:
            raised = tuple(i for i, caption in enumerate(row.captions) if caption == slot)
        else:
            raised = tuple(i for i, name in enumerate(row.cards) if name in names)
        marked_rows.append(replace(row, raised=raised) if raised else row)
    return tuple(marked_rows)


def render_hint(
    private: PrivateSnapshot,
    public: PublicSnapshot,
    hint: Hint,
    language: str,
    deck: Deck = TWO_COLOURS,
) -> RenderedMessage:
    """The hint's private answer, the cards in the viewer's deck."""
    with in_deck(deck):
        table = table_text(public, language)
        plugin = plugin_for(public.game)
        label = plugin.action_labeler(private.view, table)
        picture = plugin.action_emoji(private.view, table)(hint.move)
        move = label(hint.move)
        lines = [text(language, "coach.hint_move", move=f"{picture} {move}" if picture else move)]
        if hint.reason is not None:
            why = reason_text(public.game, hint.reason, label, language)
            if why:
                lines.append(why)
        embed = discord.Embed(title=text(language, "coach.hint_title"), color=colors.INFO)
        describe(embed, "\n".join(lines))
        rows = plugin.hand_picture(private, table, ())
        cards = with_cards(embed, "hand", marked(rows, hint))
        return RenderedMessage(embed, (), cards=cards, v2=True)
