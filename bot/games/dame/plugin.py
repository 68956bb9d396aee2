"""Dame de Pique's plug-in: its table, "My cards", action labels, rules and `/dame`.

The table shows seats with their card counts and knocks, each team's packs (wild cards marked)
and points toward the target, the pile and the stock, and the log in words; "My cards" groups
the hand by rank, each pack it can lay beside its button."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from bot.games.base import BasePlugin
from bot.games.dame import menu, render, sections
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
from bot.render.card_text import fitting
from bot.render.limits import FIELD_VALUE
from bot.snapshots import LogEntry, PrivateSnapshot, Reveal, RoundEnd
from games.dame.rules import TEAMS
from games.dame.views import DameView

NAME = "dame"


class DamePlugin(BasePlugin[DameView]):
    name = NAME
    target_range = (50, 10_000)
    accent = 0xAD1457  # raspberry
    # Two partnerships facing each other: North+South, East+West.
    seat_layout = render.SEAT_LAYOUT
    action_styles: ClassVar[Mapping[str, str]] = {"draw": "primary", "announce": "danger"}

    def seat_lines(self, view: DameView, table: TableContext) -> list[str]:
        return render.seat_lines(view, table.names, table.marks, table.language)

    def piece_fields(self, view: DameView, table: TableContext) -> list[Field]:
        language = table.language
        return [
            Field(text(language, "dame.pile_title"), render.pile_text(view, language)),
            Field(
                text(language, "dame.stock_title"),
                text(language, "dame.stock", count=view.stock_size),
            ),
        ]

    def status_line(self, view: DameView, table: TableContext) -> str:
        return render.status_line(view, table.names, table.language)

    def notice_fields(self, view: DameView, table: TableContext) -> list[Field]:
        snapshot = table.snapshot
        totals = [info.total for info in snapshot.seats]
        return [
            Field(
                render.team_title(view, team, table.names, totals, snapshot.target, table.language),
                render.pack_lines(view, team, table.language),
                inline=False,
            )
            for team in range(len(TEAMS))
        ]

    def log_lines(self, entries: Sequence[LogEntry], table: TableContext) -> list[str]:
        return render.log_lines(entries, table.names, table.language)

    def recent_log_lines(
        self, entries: Sequence[LogEntry], table: TableContext, count: int
    ) -> list[str]:
        return render.recent_log_lines(entries, table.names, table.language, count)

    def round_end_lines(self, last: RoundEnd[DameView], table: TableContext) -> list[str]:
        def lines() -> str:
            return "\n".join(
                render.round_end_lines(
                    last.view,
                    dict(last.detail),
                    table.names,
                    last.points,
                    last.totals,
                    table.language,
                )
            )

        return fitting(lines, FIELD_VALUE).split("\n")

    def round_end_picture(
        self, last: RoundEnd[DameView], table: TableContext
    ) -> tuple[RoundEndRow, ...]:
        names = [info.name for info in table.snapshot.seats]  # drawn, so not markdown-escaped
        return render.round_end_rows(last.view, dict(last.detail), names, table.language)

    def private_lines(
        self, private: PrivateSnapshot[DameView], table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]:
        return render.hand_lines(private.round_view, table.language, reveals)

    def hand_picture(
        self, private: PrivateSnapshot[DameView], table: TableContext, reveals: Sequence[Reveal]
    ) -> tuple[CardRow, ...]:
        return render.hand_rows(private.round_view, table.language)

    def table_picture(self, view: DameView, table: TableContext) -> tuple[CardRow, ...]:
        return render.table_rows(view, table.language)

    def menu(
        self, private: PrivateSnapshot[DameView], prefix: str, table: TableContext
    ) -> list[ComponentSpec] | None:
        return menu.components(private, prefix, table)

    def move_sections(
        self,
        private: PrivateSnapshot[DameView],
        prefix: str,
        table: TableContext,
        components: list[ComponentSpec],
    ) -> tuple[list[SectionSpec], list[ComponentSpec]]:
        return sections.move_sections(private, prefix, table, components)

    def reveal_lines(self, seat: int, reveals: Sequence[Reveal], table: TableContext) -> list[str]:
        return []  # the card drawn is a line of the hand (`private_lines`): nothing hides it

    def action_labeler(self, view: DameView | None, table: TableContext) -> ActionLabel:
        return render.action_labeler(view, table.language)

    def piece_labeler(self, view: DameView | None, table: TableContext) -> PieceLabel:
        return render.piece_labeler(view, table.language)

    def action_emoji(
        self, view: DameView | None, table: TableContext
    ) -> Callable[[str], str | None]:
        return render.action_emoji(view)
