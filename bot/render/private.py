"""A player's private ("My cards") message: their grid, held card, reveals and action menu.

The grid is drawn from the *public* view, with the cards a rule revealed to this player laid
over it only in the answer that delivers those reveals (the service hands each reveal out
once). So a revealed card disappears when the message is re-rendered after the reveal delay,
and never comes back on a later click. The held card and the legal actions come from the
player's own view.
"""

from __future__ import annotations

import discord

from bot.i18n import text
from bot.render import colors
from bot.render import dutch as dutch_render
from bot.render.actions import MAX_ROWS, ButtonSpec, MenuText, action_menu
from bot.render.cards import pretty
from bot.render.limits import add_field, describe
from bot.render.table import RenderedMessage
from bot.render.when import relative
from bot.service.snapshots import PrivateSnapshot, PublicSnapshot, Reveal
from bot.ui.custom_ids import navigate_id

# Button colours of single actions: the usual move stands out, calling Dutch warns.
ACTION_STYLES = {"draw": "primary", "peek 3 4": "primary", "dutch": "danger"}


def render_private(
    private: PrivateSnapshot,
    public: PublicSnapshot,
    language: str,
    *,
    reveals: tuple[Reveal, ...] = (),
    hide_at: float | None = None,
    prefix: str = "",
) -> RenderedMessage:
    names = [discord.utils.escape_markdown(info.name) for info in public.seats]
    me = names[private.seat] if private.seat < len(names) else "?"
    embed = discord.Embed(
        title=text(language, "private.title", name=me, table_id=private.table_id),
        color=colors.PRIVATE,
    )
    view = private.view
    if view is None or public.game != "dutch":
        describe(embed, text(language, "private.no_round"))
        return RenderedMessage(embed, ())
    base = public.view if public.view is not None else view
    grid = dutch_render.overlay(base.grids[private.seat], private.seat, reveals)
    lines = [dutch_render.numbered_grid(grid)]
    if view.held is not None and view.turn == private.seat:
        lines.append(text(language, "private.held", card=pretty(view.held)))
    if private.legal and view.phase == "peek":
        status = text(language, "private.peek_pick")  # everyone at once: nobody's "turn"
    elif private.legal:
        status = text(language, "private.your_turn")
        if private.turn_deadline is not None:
            when = relative(private.turn_deadline)
            status = f"{status} {text(language, 'table.deadline', when=when)}"
    elif view.phase == "over":
        status = text(language, "private.round_over")
    else:
        status = dutch_render.status_line(view, names, language)
    lines.append(status)
    describe(embed, "\n".join(line for line in lines if line))
    if reveals:
        seen = dutch_render.reveal_lines(private.seat, reveals, names, language)
        if seen:
            if hide_at is not None:
                when = relative(hide_at)
                seen.append(text(language, "private.hides", when=when))
            add_field(embed, text(language, "private.seen"), "\n".join(seen), inline=False)
    menu = MenuText(
        action_label=dutch_render.action_labeler(view, names, language),
        piece_label=dutch_render.piece_labeler(view, names, language),
        choose=text(language, "private.peek_pick" if view.phase == "peek" else "menu.choose"),
        back=text(language, "menu.back"),
    )
    components = action_menu(
        private.legal,
        prefix,
        table_id=private.table_id,
        round_no=private.round_no or 0,
        labels=menu,
        styles=ACTION_STYLES,
    )
    if not prefix:
        # Ephemeral messages do not follow the table: this re-renders the message in place.
        next_row = max((c.row for c in components), default=-1) + 1
        if next_row < MAX_ROWS:
            refresh = navigate_id(private.table_id, private.round_no or 0, "")
            label = text(language, "menu.refresh")
            components.append(ButtonSpec(refresh, label, "secondary", next_row))
    return RenderedMessage(embed, tuple(components))
