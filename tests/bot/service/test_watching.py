"""Watchers in the service (bot/service/watching.py): what the watcher's view holds, through a
failed store write and its rollback."""

from __future__ import annotations

import pytest

from bot.service import TableError, TableService
from storage import Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    CHANNEL,
    DAN,
    GUILD,
    FailingStore,
    peek_all,
)


async def _open(service: TableService, spectators: str) -> int:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", spectators=spectators)
    await service.seating.join(snapshot.table_id, BOB)
    await service.seating.start(snapshot.table_id, ANN.user_id)
    await service.followup.settle(snapshot.table_id)
    return snapshot.table_id


async def test_a_rolled_back_move_leaves_the_watcher_no_hand_until_the_next_turn(
    store: Store, service: TableService
) -> None:
    """A failed write rebuilds the round without the move, mid-turn: what the hands were at
    the turn's start is gone, and the hands after the failed move never happened. The
    watcher is shown none until the turn is over (never the cards of a move not stored)."""
    failing = FailingStore(store)
    service.store = failing  # type: ignore[assignment]
    table_id = await _open(service, "hands")
    await peek_all(service, table_id)
    watched = await service.watching.watch(table_id, DAN.user_id)
    assert watched.hands is not None
    player = ANN if service.public_snapshot(table_id).turn == 0 else BOB
    await service.play.act(table_id, player.user_id, 0, "draw")
    failing.failing = {"record_action"}
    with pytest.raises(TableError):
        await service.play.act(table_id, player.user_id, 0, "swap 1")
    failing.failing.clear()
    after_rollback = await service.watching.watcher_view(table_id, DAN.user_id)
    assert after_rollback is not None and after_rollback.hands is None
    await service.play.act(table_id, player.user_id, 0, "swap 1")
    await service.followup.settle(table_id)
    turn_over = await service.watching.watcher_view(table_id, DAN.user_id)
    assert turn_over is not None and turn_over.hands is not None


async def test_a_public_table_gives_its_watchers_no_hand(service: TableService) -> None:
    table_id = await _open(service, "public")
    watched = await service.watching.watch(table_id, DAN.user_id)
    assert watched.hands is None and watched.public.spectators == "public"
    assert service.public_snapshot(table_id).watchers == 1


async def test_an_unknown_spectators_option_is_refused_and_opens_nothing(
    service: TableService,
) -> None:
    with pytest.raises(TableError) as refused:
        await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", spectators="everything")
    assert refused.value.key == "bad_option"
    assert service.table_ids() == []
