"""Calling Dutch is a click that asks once, whatever else the turn offers: when the turn's other
moves fill the rows of "My cards", "Call Dutch…" still opens the step that asks, and no
message ever plays the call from a single click."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.render.actions import MAX_ROWS, ButtonSpec
from bot.render.private import render_private
from bot.snapshots import PrivateSnapshot, PublicSnapshot
from bot.ui.custom_ids import Kind, parse
from tests.bot.render.snapshots import new_round, private, public

CALL_OPENS = "📣 Call Dutch…"


def _turn_offering(*others: str) -> tuple[PrivateSnapshot, PublicSnapshot]:
    """A classic turn's start at which the call and `others` are legal: its private and public
    snapshots."""
    round_ = new_round(n_seats=3, seed=4)
    for seat in range(3):
        round_.apply(seat, "peek 3 4")
    seat = round_.to_act()[0]
    mine = replace(private(round_, seat), legal=("dutch", "draw", "take", *others))
    return mine, public(round_)


def _plays(rendered: Any) -> list[str]:
    """The moves of every component that plays one at once."""
    found = []
    for spec in rendered.components:
        meaning = parse(spec.custom_id)
        if meaning.kind is Kind.PLAY:
            found.append(meaning.text)
    return found


def test_calling_dutch_asks_once_when_the_turns_moves_fill_the_rows() -> None:
    mine, table = _turn_offering(
        *(f"{verb} {slot}" for verb in ("match", "swap", "look", "nine") for slot in (1, 2))
    )
    top = render_private(mine, table, "en")
    assert max(spec.row for spec in top.components) == MAX_ROWS - 1  # every row holds moves
    assert "dutch" not in _plays(top)
    opener = [s for s in top.components if getattr(s, "label", "") == CALL_OPENS]
    assert len(opener) == 1 and opener[0].style == "secondary"
    asked = render_private(mine, table, "en", prefix="dutch")
    sure = [s for s in asked.components if isinstance(s, ButtonSpec) and s.style == "danger"]
    assert [parse(s.custom_id).text for s in sure] == ["dutch"]
    assert "Back" in [getattr(s, "label", "") for s in asked.components]


def test_no_message_plays_the_call_from_one_click_even_with_every_row_full() -> None:
    """Five rows of five moves leave no room for "Call Dutch…": the call waits for a turn
    with room, never a single red click."""
    mine, table = _turn_offering(
        "end",
        "skip",
        "seven 1",
        *(f"{verb} {slot}" for verb in ("match", "swap", "look", "nine") for slot in range(1, 6)),
    )
    top = render_private(mine, table, "en")
    assert "dutch" not in _plays(top)
    assert not [s for s in top.components if getattr(s, "style", "") == "danger"]
