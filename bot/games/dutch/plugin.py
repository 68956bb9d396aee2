"""Dutch's plug-in: its table, "My cards", action labels, rules and `/dutch`.

The table shows the grids of card backs, discard and stock, the Dutch call and the log; "My
cards" shows its numbered grid and reveals."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

from bot.games.base import BasePlugin
from bot.games.dutch import calling, menu, powers, render, sections
from bot.games.plugin import (
    ActionLabel,
    ComponentSpec,
    Field,
    PieceLabel,
    SectionSpec,
    TableContext,
)
from bot.i18n import text
from bot.pictures.layout import CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.actions import MenuText, action_menu
from bot.render.card_text import NO_CARD, shown
from bot.snapshots import FINISHED, LogEntry, PrivateSnapshot, Reveal, RoundEnd
from games.dutch.views import DutchView

NAME = "dutch"


class DutchPlugin(BasePlugin[DutchView]):
    name = NAME
    target_range = (10, 1000)
    # Button colours of single actions: the usual move stands out, calling Dutch warns.
    action_styles: ClassVar[Mapping[str, str]] = {
        "draw": "primary",
        "peek 3 4": "primary",
        "dutch": "danger",  # only ever on the button that asks first (calling.py)
    }

    def seat_lines(self, view: DutchView, table: TableContext) -> list[str]:
        totals = table.snapshot.totals
        return render.seat_lines(view, table.names, totals, table.marks, table.language)

    def piece_fields(self, view: DutchView, table: TableContext) -> list[Field]:
        language = table.language
        discard = shown(view.discard_top) if view.discard_top else NO_CARD
        stock = text(language, "table.stock_count", count=view.stock)
        return [
            Field(text(language, "table.discard"), discard),
            Field(text(language, "table.stock"), stock),
        ]

    def status_line(self, view: DutchView, table: TableContext) -> str:
        replay = table.snapshot.replay
        return render.status_line(view, table.names, table.language, replay=replay)

    def notice_fields(self, view: DutchView, table: TableContext) -> list[Field]:
        call = render.dutch_call_line(view, table.names, table.language)
        return [Field(text(table.language, "dutch.table"), call, inline=False)] if call else []

    def log_lines(self, entries: Sequence[LogEntry], table: TableContext) -> list[str]:
        return render.log_lines(entries, table.names, table.language)

    def recent_log_lines(
        self, entries: Sequence[LogEntry], table: TableContext, count: int
    ) -> list[str]:
        return render.recent_log_lines(entries, table.names, table.language, count)

    def round_end_lines(self, last: RoundEnd[DutchView], table: TableContext) -> list[str]:
        return render.round_end_lines(
            last.view, table.names, last.points, last.totals, table.language
        )

    def round_end_picture(
        self, last: RoundEnd[DutchView], table: TableContext
    ) -> tuple[RoundEndRow, ...]:
        names = [info.name for info in table.snapshot.seats]  # drawn, so not markdown-escaped
        return render.picture_rows(last.view, names, last.points, last.totals)

    def private_lines(
        self, private: PrivateSnapshot[DutchView], table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]:
        """The grid, numbered, unless its slots stand beside their moves (`sections.py`); the
        held card unless it stands beside its discard. The grid is the *public* one with this
        seat's reveals laid over it (shown once); the held card comes from the seat's own
        view."""
        view = private.round_view
        lines = []
        if not sections.slots_beside(private):
            public = table.snapshot.view
            base = public if public is not None else view
            grid = render.overlay(base.grids[private.seat], private.seat, reveals)
            lines.append(render.numbered_grid(grid))
        beside = sections.held_beside(private)
        if view.held is not None and view.turn == private.seat and not beside:
            lines.append(text(table.language, "private.held", card=shown(view.held)))
        return lines

    def hand_picture(
        self, private: PrivateSnapshot[DutchView], table: TableContext, reveals: Sequence[Reveal]
    ) -> tuple[CardRow, ...]:
        view = private.round_view
        public = table.snapshot.view
        base = public if public is not None else view
        grid = render.overlay(base.grids[private.seat], private.seat, reveals)
        held = view.held if view.turn == private.seat else None
        return render.hand_rows(_drawn_name(table, private.seat), grid, held, table.language)

    def table_picture(self, view: DutchView, table: TableContext) -> tuple[CardRow, ...]:
        names = [info.name for info in table.snapshot.seats]  # drawn: not markdown-escaped
        return render.table_rows(view, names, table.language)

    def private_status(
        self, private: PrivateSnapshot[DutchView], table: TableContext
    ) -> str | None:
        view = private.round_view
        if private.legal:
            # The peek is everyone's at once: nobody's "turn".
            return text(table.language, "dutch.private.peek_pick") if view.phase == "peek" else None
        if view.phase == "over" and table.snapshot.status != FINISHED:
            return text(table.language, "private.round_over")
        return super().private_status(private, table)  # not their turn

    def actions_in_order(self, private: PrivateSnapshot[DutchView]) -> Sequence[str]:
        """Every move but the call: the shared menu never lays out a one-click call, which
        only the stage that asks plays (`calling.py`)."""
        return [a for a in private.legal if a != calling.CALL]

    def everyone_at_once(self, view: DutchView) -> bool:
        return view.phase == "peek"  # each player peeks at two cards, all at once

    def menu_prompt(self, view: DutchView, table: TableContext) -> str | None:
        return text(table.language, "dutch.private.peek_pick") if view.phase == "peek" else None

    def menu(
        self, private: PrivateSnapshot[DutchView], prefix: str, table: TableContext
    ) -> list[ComponentSpec] | None:
        """A Queen's, Jack's or 9's targets as buttons; the held card's moves that also end the
        turn (house rules); else the shared menu."""
        view = private.view
        if view is None:
            return None
        powers_on = bool(table.snapshot.options.get("queen_jack_powers"))
        labels = MenuText(
            action_label=sections.pictured(
                self.action_labeler(view, table), view, table.language, powers=powers_on
            ),
            piece_label=self.piece_labeler(view, table),
            choose=text(table.language, "menu.choose"),
            back=text(table.language, "menu.back"),
            action_emoji=self.action_emoji(view, table),
        )
        if prefix == calling.CALL:  # "Call Dutch…" asks once
            return calling.stage(private, table, labels)
        if not prefix and view.phase not in (menu.DRAWN, powers.POWER):
            if calling.CALL not in private.legal:
                return None  # the shared action menu lays out every move
            moves = [a for a in private.legal if a != calling.CALL]
            shared = action_menu(
                moves,
                "",
                table_id=private.table_id,
                round_no=private.round_no or 0,
                labels=replace(labels, choose=self.menu_prompt(view, table) or labels.choose),
                styles=self.action_styles,
                buttons=self.button_families,
            )
            return calling.with_call_button(shared, private, table.language)
        if prefix or view.phase == powers.POWER:  # the cards of a power as buttons
            return powers.components(private, prefix, labels, table.language)
        specs = menu.components(private, prefix, table, labels)
        if specs is None or not calling.call_after_placing(private, table.snapshot.options):
            return specs
        return calling.with_call_button(specs, private, table.language)

    def move_sections(
        self,
        private: PrivateSnapshot[DutchView],
        prefix: str,
        table: TableContext,
        components: list[ComponentSpec],
    ) -> tuple[list[SectionSpec], list[ComponentSpec]]:
        """The held card beside its discard, each slot beside its swap, match, look or first
        step of a Jack's swap (`sections.py`)."""
        return sections.move_sections(private, prefix, table, components)

    def offers_stage(
        self, private: PrivateSnapshot[DutchView], prefix: str, options: Mapping[str, object]
    ) -> bool:
        """ "Call Dutch…" opens a stage before the call is a legal move (house rules: while
        the drawn card is still held)."""
        return calling.offered(private, prefix, options)

    def reveal_lines(self, seat: int, reveals: Sequence[Reveal], table: TableContext) -> list[str]:
        return render.reveal_lines(seat, reveals, table.names, table.language)

    def action_labeler(self, view: DutchView | None, table: TableContext) -> ActionLabel:
        powers = bool(table.snapshot.options.get("queen_jack_powers"))
        return render.action_labeler(view, table.names, table.language, queen_jack_powers=powers)

    def piece_labeler(self, view: DutchView | None, table: TableContext) -> PieceLabel:
        return render.piece_labeler(view, table.names, table.language)

    def action_emoji(
        self, view: DutchView | None, table: TableContext
    ) -> Callable[[str], str | None]:
        return render.action_emoji(view)


def _drawn_name(table: TableContext, seat: int) -> str:
    """A seat's name as a picture draws it (not markdown-escaped)."""
    seats = table.snapshot.seats
    return seats[seat].name if 0 <= seat < len(seats) else "?"
