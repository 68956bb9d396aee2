"""The Activity's tests catch the faults they are there for: a frame that carries a card its
viewer may not see fails the frame leak check, and a move path without its seat or freshness
check fails the refusal tests that pin it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import bot.activity.tables as activity_tables
from bot.activity.frames import plain
from bot.activity.hub import Page
from bot.activity.tables import ActivityTables, Move
from bot.service.errors import TableError
from bot.snapshots import PrivateSnapshot, PublicSnapshot, Reveal
from tests.bot.activity import conftest
from tests.bot.activity import test_server as refusals
from tests.bot.activity.conftest import WAIT, ActivityRig, as_read
from tests.bot.activity.test_server import open_table

Builder = Callable[..., dict[str, Any]]


def planting(rig: ActivityRig, seated: bool) -> Builder:
    """The frame builder with a fault: a seated player's frame (`seated`), else a watcher's,
    also carries the hand of a seat that is not theirs."""
    build: Builder = activity_tables.frame

    def planted(
        public: PublicSnapshot,
        private: PrivateSnapshot[Any] | None = None,
        reveals: tuple[Reveal, ...] = (),
        language: str = "en",
        table: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        built = build(public, private, reveals, language=language, table=table)
        if (private is not None) != seated:
            return built
        mine = private.seat if private is not None else None
        other = next(s for s in range(len(public.seats)) if s != mine)
        round_ = rig.service._table(public.table_id).round
        assert round_ is not None
        # on a copy: the table's part may be shared with other viewers' frames
        view = {
            **as_read(built)["table"]["view"],
            "hand_of_another": plain(round_.view(other).hand),
        }
        return {**built, "table": {**built["table"], "view": view}}

    return planted


async def checked(rig: ActivityRig) -> asyncio.Event:
    """Set once the leak check has read a frame (it reads each frame as it is sent)."""
    read = asyncio.Event()

    def seen(_page: Page, _frame: dict[str, Any]) -> None:
        read.set()

    rig.hub.listeners.append(seen)  # after the leak check
    return read


@pytest.mark.parametrize(("seated", "viewer"), [(True, "alice"), (False, "carol")])
async def test_the_frame_leak_check_catches_another_seats_hand_planted_in_a_frame(
    rig: ActivityRig, monkeypatch: pytest.MonkeyPatch, seated: bool, viewer: str
) -> None:
    table_id = await open_table(rig, "euchre", ("alice", "bob"))
    monkeypatch.setattr(activity_tables, "frame", planting(rig, seated))
    read = await checked(rig)
    await rig.open_page(viewer, table_id)
    await asyncio.wait_for(read.wait(), WAIT)
    assert rig.leaks.leaks and rig.leaks.leaks[0].startswith(
        f"user {rig.player(viewer).user_id} at table {table_id}"
    )
    with pytest.raises(AssertionError, match="card leaks"):
        rig.leaks.assert_clean()


async def test_the_frame_leak_check_finds_nothing_without_the_planted_hand(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "euchre", ("alice", "bob"))
    read = await checked(rig)
    for viewer in ("alice", "carol"):
        await rig.open_page(viewer, table_id)
    await asyncio.wait_for(read.wait(), WAIT)
    rig.leaks.assert_clean()


Act = Callable[[ActivityTables, int, int, Move], Awaitable[dict[str, Any]]]


def without_seat_check(act: Act, rig: ActivityRig, monkeypatch: pytest.MonkeyPatch) -> Act:
    """The move path without its seat checks (the Activity's and the service's): a viewer
    seated nowhere plays for the seat whose turn it is."""
    need_seat = rig.service.tables.need_seat

    def any_seat(table: Any, user_id: int) -> int:
        if table.seat_of(user_id) is None and table.round is not None:
            return int(table.round.to_act()[0])
        return need_seat(table, user_id)

    monkeypatch.setattr(rig.service.tables, "need_seat", any_seat)

    async def skipped(self: ActivityTables, table_id: int, user_id: int, move: Move) -> Any:
        public = await self.public(table_id)
        if public.seat_of(user_id) is None:
            first, *then = activity_tables.moves(move.action)
            result = await self.service.play.act(table_id, user_id, move.round_no, first, then)
            return activity_tables.frame(self.service.public_snapshot(table_id), result.private)
        return await act(self, table_id, user_id, move)

    return skipped


def without_freshness_check(act: Act, rig: ActivityRig, monkeypatch: pytest.MonkeyPatch) -> Act:
    """The move path without its freshness check: a move drawn from an older table is played
    on the table as it is now."""

    async def skipped(self: ActivityTables, table_id: int, user_id: int, move: Move) -> Any:
        public = await self.public(table_id)
        assert public.round_no is not None
        return await act(
            self, table_id, user_id, Move(move.action, public.round_no, public.version)
        )

    return skipped


Refusal = Callable[[ActivityRig], Awaitable[None]]


@pytest.mark.parametrize(
    ("skip", "refusal_test"),
    [
        (
            without_seat_check,
            refusals.test_a_viewer_seated_nowhere_sees_the_public_table_and_cannot_move,
        ),
        (without_seat_check, refusals.test_a_refusal_is_in_the_viewers_language),
        (
            without_freshness_check,
            refusals.test_a_move_drawn_from_an_older_table_is_refused_and_the_page_gets_the_current,
        ),
    ],
)
async def test_a_move_path_without_one_of_its_checks_fails_the_refusal_test_pinning_it(
    rig: ActivityRig,
    monkeypatch: pytest.MonkeyPatch,
    skip: Callable[[Act, ActivityRig, pytest.MonkeyPatch], Act],
    refusal_test: Refusal,
) -> None:
    monkeypatch.setattr(ActivityTables, "act", skip(ActivityTables.act, rig, monkeypatch))
    monkeypatch.setattr(conftest, "WAIT", 2.0)  # the refusal waited for never comes
    with pytest.raises((AssertionError, TimeoutError, TableError)):
        await refusal_test(rig)
