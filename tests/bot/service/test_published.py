"""Nothing is shown before it is stored: the public snapshot (what every renderer reads) is
published only once the table's changes are durable, and a rolled-back change is re-rendered
from what the store holds."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest

from bot.service import FakeClock, PublicSnapshot, RecordingNotifier, TableError, TableService
from storage import Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    CAT,
    StallingStore,
    open_dutch,
    peek_all,
    user_at,
)


def shown(snapshot: PublicSnapshot) -> tuple[object, ...]:
    """What a table message renders (everything but the version counter)."""
    return (snapshot.view, snapshot.log, snapshot.seats, snapshot.to_act, snapshot.status)


async def drawn_card_table(service: TableService) -> tuple[int, int]:
    """A Dutch table whose player to act holds a card drawn from the stock (seen by them
    only); returns the table and that player."""
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    snapshot = service.public_snapshot(table_id)
    player = user_at(snapshot, snapshot.to_act[0])
    await service.play.act(table_id, player, 0, "draw")
    return table_id, player


@pytest.mark.parametrize("fail", [True, False])
async def test_a_move_is_shown_only_once_stored_and_a_failed_one_never(
    store: Store, clock: FakeClock, seeds: Callable[[], int], fail: bool
) -> None:
    stalling = StallingStore(store, "record_action")
    notifier = RecordingNotifier()
    service = TableService(stalling, clock, notifier, seeds)  # type: ignore[arg-type]
    table_id, player = await drawn_card_table(service)
    before = service.public_snapshot(table_id)
    assert "discard" in (await service.play.private_view(table_id, player)).legal

    stalling.arm()
    click = asyncio.create_task(service.play.act(table_id, player, 0, "discard"))
    await stalling.entered.wait()  # the discard is applied and waits for the disk
    assert shown(service.public_snapshot(table_id)) == shown(before)
    assert service.bot_choice(table_id, player, random.Random(1)) is None
    notified = len(notifier.calls)

    stalling.release(fail=fail)
    if fail:
        with pytest.raises(TableError) as refused:
            await click
        assert refused.value.key == "store_failed"
        assert shown(service.public_snapshot(table_id)) == shown(before)
        stored = await store.load_round(table_id, 0)
        assert stored.actions[-1][1] == "draw"
    else:
        await click
        assert service.public_snapshot(table_id).view != before.view
    # Either way the table message is told to re-render from what is stored.
    assert ("table_changed", table_id) in notifier.calls[notified:]


async def test_a_seat_is_shown_only_once_stored(
    store: Store, clock: FakeClock, seeds: Callable[[], int]
) -> None:
    stalling = StallingStore(store, "save_seats")
    notifier = RecordingNotifier()
    service = TableService(stalling, clock, notifier, seeds)  # type: ignore[arg-type]
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    stalling.arm()
    join = asyncio.create_task(service.seating.join(table_id, CAT))
    await stalling.entered.wait()
    assert service.public_snapshot(table_id).seat_of(CAT.user_id) is None
    notified = len(notifier.calls)
    stalling.release(fail=True)
    with pytest.raises(TableError):
        await join
    assert service.public_snapshot(table_id).seat_of(CAT.user_id) is None
    assert [s.user_id for s in await store.get_seats(table_id)] == [ANN.user_id, BOB.user_id]
    assert ("table_changed", table_id) in notifier.calls[notified:]
