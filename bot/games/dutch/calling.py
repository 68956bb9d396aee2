"""Calling Dutch from "My cards": one visible button that asks once.

A failed call costs a round's points twice over (classic) or 20 more (house), so the call is
never a single click: "Call Dutch…" (on a row of its own, after the usual moves) opens the
stage `dutch`, which says what the call does and plays it only from its own button, with Back
beside it. At the start of a classic turn, or at the end of a house turn, that button plays
`dutch`; while a house player still holds the drawn card, the stage offers each way of placing
it followed by the call (`swap 2;dutch`: one click, each move checked), so calling is two
clicks in both rule sets and a button always names Dutch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.custom_ids import THEN, navigate_id, play_id
from bot.games.plugin import TableContext
from bot.i18n import text
from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    ButtonSpec,
    ComponentSpec,
    MenuText,
    verb,
)
from bot.snapshots import PrivateSnapshot
from games.dutch.views import DutchView

CALL = "dutch"  # the engine's notation of the call, and the stage that asks for it
DRAWN = "drawn"
PLACED = ("swap", "discard")  # the moves that place the held card


def call_after_placing(private: PrivateSnapshot[DutchView], options: Mapping[str, object]) -> bool:
    """May this player call Dutch once the card they hold is placed (house rules: the call
    ends a turn, and nobody has called yet)?"""
    view = private.view
    return (
        view is not None
        and view.phase == DRAWN
        and view.dutch_caller is None
        and options.get("dutch_call") == "end_of_turn"
        and any(verb(a) in PLACED for a in private.legal)
    )


def offered(
    private: PrivateSnapshot[DutchView], prefix: str, options: Mapping[str, object]
) -> bool:
    """Is `prefix` the stage `dutch`, and one this player can open now?"""
    return prefix == CALL and (CALL in private.legal or call_after_placing(private, options))


def with_call_button(
    specs: list[ComponentSpec], private: PrivateSnapshot[DutchView], language: str
) -> list[ComponentSpec] | None:
    """`specs` (the moves but the call) and "Call Dutch…": on a row of its own below them,
    else at the end of the last row of buttons with room, else on the last row in place of
    Refresh (None: every row is full; the shared menu then lays out the moves, never the call:
    `DutchPlugin.actions_in_order`)."""
    opener = navigate_id(private.table_id, private.round_no or 0, CALL)
    button = ButtonSpec(opener, text(language, "dutch.call.open"), "secondary")
    below = max((s.row for s in specs), default=-1) + 1
    if below < MAX_ROWS - 1:  # the last row stays Refresh's
        return [*specs, replace(button, row=below)]
    for row in reversed(range(MAX_ROWS)):
        on_it = [s for s in specs if s.row == row]
        if (
            on_it
            and len(on_it) < MAX_BUTTONS_PER_ROW
            and all(isinstance(s, ButtonSpec) for s in on_it)
        ):
            return [*specs, replace(button, row=row)]
    if below < MAX_ROWS:
        return [*specs, replace(button, row=below)]
    return None


def stage(
    private: PrivateSnapshot[DutchView], table: TableContext, labels: MenuText
) -> list[ComponentSpec] | None:
    """The stage that asks: the call's own button(s), then Back (None: nothing to call now)."""
    language = table.language
    table_id, round_no = private.table_id, private.round_no or 0
    back = ButtonSpec(navigate_id(table_id, round_no, ""), labels.back, "secondary")
    if CALL in private.legal:
        key = "dutch.call.confirm_" + str(table.snapshot.options.get("failed_call", "double"))
        sure = ButtonSpec(play_id(table_id, round_no, CALL), text(language, key), "danger")
        return [sure, replace(back, row=1)]
    if not call_after_placing(private, table.snapshot.options):
        return None
    placed = [a for a in private.legal if verb(a) in PLACED]
    specs: list[ComponentSpec] = []
    for index, action in enumerate(placed):
        label = text(language, "dutch.call.after", action=labels.action_label(action))
        custom_id = play_id(table_id, round_no, f"{action}{THEN}{CALL}")
        row = index // MAX_BUTTONS_PER_ROW
        specs.append(ButtonSpec(custom_id, label, "danger", row, labels.action_emoji(action)))
    row = max(s.row for s in specs) + 1
    if row >= MAX_ROWS:
        return None
    return [*specs, replace(back, row=row)]
