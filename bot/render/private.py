"""A player's private ("My cards") message: their hand, reveals and action menu.

Built from the player's `PrivateSnapshot` (their own view and legal actions) and the public
snapshot; the table's game plug-in words the hand and the labels. Reveals (a peek at a card) are
laid over the hand in every render until the reveal delay is over (`bot/ui/reveals.py` says
which), so a revealed card disappears when the message is re-rendered after it, and never
comes back on a later click; once the round is over (every card face up) none is listed.
"""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.custom_ids import Verb, navigate_id, verb_id
from bot.games import plugin_for
from bot.i18n import has_key, text
from bot.pictures.card_faces import TWO_COLOURS, Deck
from bot.render import colors
from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    ButtonSpec,
    ComponentSpec,
    MenuText,
    action_menu,
)
from bot.render.card_text import in_deck
from bot.render.limits import add_field, describe
from bot.render.table import RenderedMessage, table_text, with_cards
from bot.render.timestamps import clock, relative
from bot.snapshots import PLAYING, PrivateSnapshot, PublicSnapshot, Reveal


def render_private(
    private: PrivateSnapshot,
    public: PublicSnapshot,
    language: str,
    *,
    reveals: tuple[Reveal, ...] = (),
    hide_at: float | None = None,
    prefix: str = "",
    deck: Deck = TWO_COLOURS,
) -> RenderedMessage:
    """The message, its cards (emojis, the hand's picture) in the player's deck."""
    with in_deck(deck):
        return _render(private, public, language, reveals, hide_at, prefix)


def _render(
    private: PrivateSnapshot,
    public: PublicSnapshot,
    language: str,
    reveals: tuple[Reveal, ...],
    hide_at: float | None,
    prefix: str,
) -> RenderedMessage:
    table = table_text(public, language)
    me = table.names[private.seat] if private.seat < len(table.names) else "?"
    embed = discord.Embed(
        title=text(language, "private.title", name=me, table_id=private.table_id),
        color=colors.PRIVATE,
    )
    view = private.view
    if view is None:
        describe(embed, text(language, "private.no_round"))
        return RenderedMessage(embed, (), v2=True)
    if private.status != PLAYING:
        reveals = ()  # the round is over: every card lies face up, none hides again
    plugin = plugin_for(public.game)
    cards = with_cards(embed, "hand", plugin.hand_picture(private, table, reveals))
    lines = plugin.private_lines(private, table, reveals)
    status = plugin.private_status(private, table)
    if status is None and private.auto_play is not None and private.auto_play_at is not None:
        # the only legal move, played for the player in a moment (their `/deck auto_play`),
        # as the card's picture where the move shows one (a sentence's cards are pictures)
        forced = private.auto_play
        move = plugin.action_emoji(view, table)(forced) or plugin.action_labeler(view, table)(
            forced
        )
        key = f"{public.game}.private.auto_play"
        status = text(
            language,
            key if has_key(key) else "private.auto_play",
            move=move,
            when=relative(private.auto_play_at),
        )
    elif status is None:  # the viewer's turn, said the same way in every game
        status = text(language, "private.your_turn")
        if private.turn_deadline is not None:
            when = clock(private.turn_deadline)
            status = f"{status} {text(language, 'table.deadline', when=when)}"
    lines.append(status)
    describe(embed, "\n".join(line for line in lines if line))
    if reveals:
        seen = plugin.reveal_lines(private.seat, reveals, table)
        if seen:
            if hide_at is not None:
                when = relative(hide_at)
                seen.append(text(language, "private.hides", when=when))
            add_field(embed, text(language, "private.seen"), "\n".join(seen), inline=False)
    components = plugin.menu(private, prefix, table)
    if components is None:  # the shared menu, in the game's words
        menu = MenuText(
            action_label=plugin.action_labeler(view, table),
            piece_label=plugin.piece_labeler(view, table),
            choose=plugin.menu_prompt(view, table) or text(language, "menu.choose"),
            back=text(language, "menu.back"),
            action_emoji=plugin.action_emoji(view, table),
        )
        components = action_menu(
            plugin.actions_in_order(private),
            prefix,
            table_id=private.table_id,
            round_no=private.round_no or 0,
            labels=menu,
            styles=plugin.action_styles,
            buttons=plugin.button_families,
        )
    # the hook sees the reveals shown now (a card just seen stands face up beside its move)
    shown_now = replace(private, reveals=reveals)
    sections, components = plugin.move_sections(shown_now, prefix, table, list(components))
    if not prefix:
        # Ephemeral messages do not follow the table: this re-renders the message in place.
        next_row = max((c.row for c in components), default=-1) + 1
        if next_row < MAX_ROWS:
            refresh = navigate_id(private.table_id, private.round_no or 0, "")
            label = text(language, "menu.refresh")
            components.append(ButtonSpec(refresh, label, "secondary", next_row))
        if public.coach and private.my_turn:  # a practice table: the coach's hint
            row = _row_with_room(components)
            if row is not None:
                hint = verb_id(private.table_id, private.round_no or 0, Verb.HINT)
                components.append(ButtonSpec(hint, text(language, "menu.hint"), "success", row))
    return RenderedMessage(embed, tuple(components), cards=cards, v2=True, sections=tuple(sections))


def _row_with_room(components: list[ComponentSpec]) -> int | None:
    """The last row of buttons with room for one more (a select fills its row), else a new
    row if one is left; None: the message is full."""
    rows: dict[int, list[ComponentSpec]] = {}
    for component in components:
        rows.setdefault(component.row, []).append(component)
    for row in sorted(rows, reverse=True):
        laid = rows[row]
        if all(isinstance(c, ButtonSpec) for c in laid) and len(laid) < MAX_BUTTONS_PER_ROW:
            return row
    free = max(rows, default=-1) + 1
    return free if free < MAX_ROWS else None
