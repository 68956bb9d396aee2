"""Euchre's plug-in: its table, "My cards", buttons, hand summary, rules and `/euchre`.

The table shows four places N/E/S/W in two facing partnerships, the bidding and trump, the trick
in play, tricks and score per team, and moves as sentences; "My cards" is sorted by suit with
trump first, with bid and play buttons; the end of a hand has its summary."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import ClassVar

from bot.games.base import BasePlugin
from bot.games.euchre import render, sections
from bot.games.plugin import (
    ActionLabel,
    ComponentSpec,
    Field,
    PieceLabel,
    SeatLayout,
    SectionSpec,
    TableContext,
)
from bot.i18n import text
from bot.pictures.layout import CardRow
from bot.pictures.round_end import RoundEndRow
from bot.render.card_text import card_emoji, shown
from bot.snapshots import LogEntry, PrivateSnapshot, Reveal, RoundEnd
from games.euchre.scoring import EUCHRED, MARCH
from games.euchre.views import NAME_TRUMP, ORDER_UP, OVER, EuchreView

NAME = "euchre"


class EuchrePlugin(BasePlugin[EuchreView]):
    name = NAME
    target_range = (1, 50)
    accent = 0x00838F  # teal
    seat_layout = SeatLayout(labels=render.PLACES, teams=render.TEAMS)
    # The bids stand out: ordering up is the usual accept, going alone the bold one.
    action_styles: ClassVar[Mapping[str, str]] = {
        "pass": "secondary",
        "order": "primary",
        "order alone": "danger",
    }
    # Every bid, call, discard and play is a button (five cards at most, six calls).
    button_families = frozenset({"order", "call", "discard", "play"})

    def seat_lines(self, view: EuchreView, table: TableContext) -> list[str]:
        return render.seat_lines(view, table)

    def piece_fields(self, view: EuchreView, table: TableContext) -> list[Field]:
        language = table.language
        fields = []
        if view.phase in (ORDER_UP, NAME_TRUMP):
            key = "euchre.turned" if view.phase == ORDER_UP else "euchre.turned_down"
            fields.append(
                Field(
                    text(language, "euchre.field.turned"),
                    text(language, key, card=shown(view.turned)),
                )
            )
        elif view.picked_up and not _played(view, view.turned):
            # Everyone saw the dealer take it: it stays worth knowing until it is played.
            value = text(
                language,
                "euchre.turned_picked_up",
                card=shown(view.turned),
                name=table.name(view.dealer),
            )
            fields.append(Field(text(language, "euchre.field.turned"), value))
        if view.trump is not None and view.maker is not None:
            key = "euchre.trump_alone" if view.alone else "euchre.trump_by"
            value = text(
                language,
                key,
                suit=render.suit_symbol(view.trump),
                name=table.name(view.maker),
                partner=table.name(view.sitting_out),
            )
            fields.append(Field(text(language, "euchre.field.trump"), value))
            fields.append(
                Field(text(language, "euchre.field.tricks"), render.tricks_line(view, language))
            )
        totals = _team_totals(table)
        score = render.score_line(totals, table.snapshot.target, language)
        fields.append(Field(text(language, "euchre.field.score"), score))
        return fields

    def status_line(self, view: EuchreView, table: TableContext) -> str:
        return render.status_line(view, table)

    def notice_fields(self, view: EuchreView, table: TableContext) -> list[Field]:
        language = table.language
        fields = []
        if view.trick:
            fields.append(
                Field(
                    text(language, "euchre.field.trick"),
                    render.trick_line(view, table),
                    inline=False,
                )
            )
        elif view.tricks and view.phase != OVER:
            plays = " · ".join(
                text(language, "euchre.trick_card", name=table.name(s), card=shown(c))
                for s, c in view.tricks[-1]
            )
            winner = table.name(view.trick_winners[-1])
            value = text(language, "euchre.last_trick", plays=plays, name=winner)
            fields.append(Field(text(language, "euchre.field.last_trick"), value, inline=False))
        if view.farmers_redeals:
            value = text(language, "euchre.farmers", count=view.farmers_redeals)
            fields.append(Field(text(language, "euchre.field.redeal"), value, inline=False))
        return fields

    def log_lines(self, entries: Sequence[LogEntry], table: TableContext) -> list[str]:
        return render.log_lines(entries, table)

    def recent_log_lines(
        self, entries: Sequence[LogEntry], table: TableContext, count: int
    ) -> list[str]:
        return render.recent_log_lines(entries, table, count)

    def round_end_lines(self, last: RoundEnd[EuchreView], table: TableContext) -> list[str]:
        """Who made trump, tricks per team, the points in words, the totals."""
        language = table.language
        detail = last.detail
        lines = []
        if detail.get("farmers_redeals"):
            lines.append(text(language, "euchre.farmers", count=detail["farmers_redeals"]))
        totals = _totals_by_team(last.totals)
        if detail.get("redeal"):
            lines.append(text(language, "euchre.end.redeal"))
        else:
            maker = int(detail.get("maker", 0))
            makers, defenders = maker % 2, 1 - maker % 2
            tricks = detail.get("tricks") or (0, 0)
            points = _totals_by_team(last.points)
            key = "euchre.end.made_alone" if detail.get("alone") else "euchre.end.made"
            lines.append(
                text(
                    language,
                    key,
                    name=table.name(maker),
                    suit=render.suit_symbol(detail.get("trump")),
                    team=render.team_name(makers, language),
                )
            )
            lines.append(
                text(
                    language,
                    "euchre.end.tricks",
                    first=render.team_name(0, language),
                    a=tricks[0],
                    second=render.team_name(1, language),
                    b=tricks[1],
                )
            )
            outcome = detail.get("outcome")
            if outcome == EUCHRED:
                words = text(
                    language,
                    "euchre.end.euchred",
                    team=render.team_name(defenders, language),
                    points=points[defenders],
                )
            elif outcome == MARCH:
                key = "euchre.end.march_alone" if detail.get("alone") else "euchre.end.march"
                words = text(
                    language, key, team=render.team_name(makers, language), points=points[makers]
                )
            else:
                words = text(
                    language,
                    "euchre.end.point",
                    team=render.team_name(makers, language),
                    points=points[makers],
                )
            lines.append(words)
        score = render.score_line(totals, table.snapshot.target, language)
        lines.append(text(language, "euchre.end.score", score=score))
        return lines

    def round_end_picture(
        self, last: RoundEnd[EuchreView], table: TableContext
    ) -> tuple[RoundEndRow, ...]:
        names = [info.name for info in table.snapshot.seats]  # drawn, so not markdown-escaped
        return render.round_end_rows(last.view, names, last.points, last.totals, table.language)

    def private_status(
        self, private: PrivateSnapshot[EuchreView], table: TableContext
    ) -> str | None:
        view = private.view
        if view is not None and view.sitting_out == private.seat and view.phase != OVER:
            return ""  # no turn this hand: the line above says they sit out
        return super().private_status(private, table)

    def waiting_key(self, view: EuchreView) -> Hashable:
        """The bidding's outcome: the turned card's line, the trump that sorts the hand, the
        partner sitting out, a deal thrown in for a farmer's hand (a new hand)."""
        return (view.trump, view.phase == NAME_TRUMP, view.sitting_out, view.farmers_redeals)

    def private_lines(
        self, private: PrivateSnapshot[EuchreView], table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]:
        view = private.round_view
        language = table.language
        lines = []
        if view.sitting_out == private.seat:
            partner = table.name((private.seat + 2) % 4)
            lines.append(text(language, "euchre.you_sit_out", name=partner))
        if view.hand:
            lines.append(render.hand_line(view.hand, view.trump))
        if view.discard is not None:  # in the dealer's own view only
            lines.append(text(language, "euchre.your_discard", card=shown(view.discard)))
        if view.trump is not None:
            lines.append(text(language, "euchre.trump_is", suit=render.suit_symbol(view.trump)))
        elif view.phase in (ORDER_UP, NAME_TRUMP) and not _may_order(private):
            # (the player who may order it up sees it beside "Order it up": `move_sections`)
            key = "euchre.turned" if view.phase == ORDER_UP else "euchre.turned_down"
            card = text(language, key, card=shown(view.turned))
            lines.append(text(language, "euchre.turned_line", card=card))  # with its label
        if view.trick and private.legal:  # waiting, the message would keep an old trick
            lines.append(text(language, "euchre.on_table", plays=render.trick_line(view, table)))
        return lines

    def actions_in_order(self, private: PrivateSnapshot[EuchreView]) -> Sequence[str]:
        """The card buttons in the order of the hand's picture, left to right."""
        view = private.view
        if view is None or not view.hand:
            return private.legal
        return render.in_hand_order(private.legal, view.hand, view.trump)

    def move_sections(
        self,
        private: PrivateSnapshot[EuchreView],
        prefix: str,
        table: TableContext,
        components: list[ComponentSpec],
    ) -> tuple[list[SectionSpec], list[ComponentSpec]]:
        """Each playable (or discardable) card beside its button, the turned card beside
        "Order it up", each suit to name beside the cards it would make trumps."""
        return sections.move_sections(private, prefix, table, components)

    def hand_picture(
        self, private: PrivateSnapshot[EuchreView], table: TableContext, reveals: Sequence[Reveal]
    ) -> tuple[CardRow, ...]:
        return render.hand_rows(private.round_view, table.language)

    def table_picture(self, view: EuchreView, table: TableContext) -> tuple[CardRow, ...]:
        return render.table_rows(view, table)

    def action_labeler(self, view: EuchreView | None, table: TableContext) -> ActionLabel:
        return render.action_labeler(view, table.language)

    def piece_labeler(self, view: EuchreView | None, table: TableContext) -> PieceLabel:
        return render.piece_labeler(table.language)

    def action_emoji(
        self, view: EuchreView | None, table: TableContext
    ) -> Callable[[str], str | None]:
        def emoji(notation: str) -> str | None:
            head, _, card = notation.partition(" ")
            if head == "order" and view is not None:
                return card_emoji(view.turned)  # the card the dealer picks up
            return card_emoji(card) if head in ("play", "discard") and card else None

        return emoji


def _totals_by_team(per_seat: Sequence[int]) -> tuple[int, int]:
    """Seat totals (partners share one) as (N–S, E–W)."""
    return (per_seat[0] if per_seat else 0, per_seat[1] if len(per_seat) > 1 else 0)


def _may_order(private: PrivateSnapshot[EuchreView]) -> bool:
    return "order" in private.legal


def _played(view: EuchreView, name: str) -> bool:
    return any(c == name for trick in (*view.tricks, view.trick) for _, c in trick)


def _team_totals(table: TableContext) -> tuple[int, int]:
    return _totals_by_team(table.snapshot.totals)
