"""A snapshot's view, read by a plug-in: typed by its game, and said to be missing plainly."""

from __future__ import annotations

import pytest

from bot.snapshots import PLAYING, ROUND_OVER, PrivateSnapshot


def seat_snapshot(view: object | None, status: str = PLAYING) -> PrivateSnapshot[object]:
    return PrivateSnapshot(
        table_id=3,
        seat=1,
        round_no=1 if view is not None else None,
        status=status,
        view=view,
        legal=(),
        reveals=(),
        away=False,
        turn_deadline=None,
    )


def test_round_view_is_the_seats_own_view() -> None:
    view = object()  # a plug-in's game's view; the snapshot only carries it
    assert seat_snapshot(view, ROUND_OVER).round_view is view


def test_round_view_outside_a_round_names_the_table_and_seat() -> None:
    with pytest.raises(ValueError, match="table 3: seat 1 has no view outside a round"):
        _ = seat_snapshot(None).round_view
