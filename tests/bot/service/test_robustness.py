"""Notifications after storage, players who leave mid-match, concurrent seating, and a round
whose result was not stored before a crash."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.service import (
    PLAYING,
    ROUND_OVER,
    FakeClock,
    PlayerRef,
    RecordingNotifier,
    TableError,
    TableService,
)
from storage import Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    CAT,
    GUILD,
    FailingStore,
    end_round_quickly,
    open_dutch,
    user_at,
)


class CheckingNotifier(RecordingNotifier):
    """On every table_changed: calls back into the service (it would wait forever if the lock
    were still held) and notes how many actions of the round the store holds by then."""

    def __init__(self) -> None:
        super().__init__()
        self.service: TableService | None = None
        self.store: Store | None = None
        self.stored_counts: list[int] = []

    async def table_changed(self, table_id: int) -> None:
        await super().table_changed(table_id)
        assert self.service is not None and self.store is not None
        snapshot = self.service.public_snapshot(table_id)
        host = snapshot.seats[0].user_id
        assert host is not None
        await asyncio.wait_for(self.service.play.private_view(table_id, host), timeout=1)
        if snapshot.round_no is not None:
            stored = await self.store.load_round(table_id, snapshot.round_no)
            self.stored_counts.append(len(stored.actions))


async def test_notices_come_after_the_store_and_outside_the_lock(
    store: Store, clock: FakeClock, seeds: Callable[[], int]
) -> None:
    notifier = CheckingNotifier()
    service = TableService(store, clock, notifier, seeds)
    notifier.service, notifier.store = service, store
    table_id = await open_dutch(service, [ANN, BOB])
    assert notifier.of("round_started") == [(table_id,)]
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert notifier.stored_counts[-1] == 1
    await service.play.act(table_id, BOB.user_id, 0, "peek 3 4")
    assert notifier.stored_counts[-1] == 2


async def test_leaving_mid_match_hands_the_seat_to_the_bot_policy(
    service: TableService, store: Store
) -> None:
    table_id = await open_dutch(service, [ANN, BOB, CAT])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    await service.seating.leave(table_id, BOB.user_id)
    await service.followup.settle(table_id)  # the seat's moves follow the leave
    snapshot = service.public_snapshot(table_id)
    assert snapshot.seats[1].left and snapshot.to_act == (2,)  # Bob's peek was played
    assert service.tables.table_of_user(GUILD, BOB.user_id) is None
    assert (await store.get_seats(table_id))[1].left_at is not None
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, BOB.user_id, 0, "draw")
    assert refused.value.key == "not_seated"
    snapshot = await service.seating.leave(table_id, ANN.user_id)  # the host leaves: Cat hosts
    assert snapshot.host_id == CAT.user_id
    await service.seating.leave(table_id, CAT.user_id)  # nobody left: the table is abandoned
    assert (await store.get_table(table_id)).status == "abandoned"
    assert service.tables_in_channel(snapshot.channel_id) == []


async def test_one_user_joining_two_tables_at_once_gets_one_seat(service: TableService) -> None:
    first = await open_dutch(service, [ANN], start=False)
    second = await open_dutch(service, [BOB], start=False)
    outcomes = await asyncio.gather(
        service.seating.join(first, CAT), service.seating.join(second, CAT), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, TableError)]
    assert len(refused) == 1 and refused[0].key == "already_seated"
    seated = [t for t in (first, second) if service.public_snapshot(t).seat_of(CAT.user_id)]
    assert seated == [service.tables.table_of_user(GUILD, CAT.user_id)]


async def test_the_bot_choice_is_a_legal_click(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    rng = random.Random(1)
    for _ in range(30):
        snapshot = service.public_snapshot(table_id)
        if snapshot.status != PLAYING:
            break
        user_id = user_at(snapshot, snapshot.to_act[0])
        waiting = [s.user_id for s in snapshot.seats if s.seat not in snapshot.to_act]
        for other in waiting:
            assert other is not None and service.bot_choice(table_id, other, rng) is None
        choice = service.bot_choice(table_id, user_id, rng)
        assert choice in (await service.play.private_view(table_id, user_id)).legal
        await service.play.act(table_id, user_id, snapshot.round_no or 0, choice)


async def test_a_round_whose_result_was_not_stored_is_scored_after_a_restart(
    store: Store, clock: FakeClock, db_path: Path, seeds: Callable[[], int]
) -> None:
    service = TableService(FailingStore(store, "finish_round"), clock, RecordingNotifier(), seeds)  # type: ignore[arg-type]
    table_id = await open_dutch(service, [ANN, BOB])
    await end_round_quickly(service, table_id)
    assert service.public_snapshot(table_id).status == PLAYING  # scoring failed, retried later
    assert await store.round_result(table_id, 0) is None
    await store.close()

    again_store = await Store.open(db_path, synchronous="NORMAL")
    try:
        again = TableService(again_store, FakeClock(), RecordingNotifier(), seeds)
        await again.restoring.restore()
        snapshot = again.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER and snapshot.last_round is not None
        stored = await again_store.round_result(table_id, 0)
        assert stored is not None and list(stored[0].points) == list(snapshot.last_round.points)
    finally:
        await again_store.close()


async def test_a_failed_round_end_is_retried_by_the_timer(
    store: Store, clock: FakeClock, seeds: Callable[[], int]
) -> None:
    forgetful = FailingStore(store, "finish_round")
    service = TableService(forgetful, clock, RecordingNotifier(), seeds)  # type: ignore[arg-type]
    table_id = await open_dutch(service, [ANN, BOB])
    await end_round_quickly(service, table_id)
    assert service.public_snapshot(table_id).status == PLAYING
    service.store = store  # the disk is back
    await clock.advance(5)
    assert service.public_snapshot(table_id).status == ROUND_OVER
    assert await store.round_result(table_id, 0) is not None


async def test_player_refs_with_the_same_id_in_two_guilds_are_two_seats(
    service: TableService,
) -> None:
    twin = PlayerRef(ANN.user_id, "Ann elsewhere")
    first = await service.seating.open_table(GUILD, 1, ANN, "dutch")
    second = await service.seating.open_table(GUILD + 5, 2, twin, "dutch")
    assert first.table_id != second.table_id
    assert service.tables.table_of_user(GUILD + 5, ANN.user_id) == second.table_id


async def test_a_match_end_not_stored_is_completed_after_a_restart(
    store: Store, clock: FakeClock, db_path: Path, seeds: Callable[[], int]
) -> None:
    failing = FailingStore(store, "finish_match")
    service = TableService(failing, clock, RecordingNotifier(), seeds)  # type: ignore[arg-type]
    table_id = await open_dutch(service, [ANN, BOB], target=1)
    for _ in range(20):
        await end_round_quickly(service, table_id)
        snapshot = service.public_snapshot(table_id)
        if snapshot.status != ROUND_OVER:
            break
        await service.play.next_round(table_id, ANN.user_id)
    assert snapshot.status == PLAYING and snapshot.to_act == ()  # the match end is pending
    await store.close()

    again_store = await Store.open(db_path, synchronous="NORMAL")
    try:
        again = TableService(again_store, FakeClock(), RecordingNotifier(), seeds)
        await again.restoring.restore()
        assert (await again_store.get_table(table_id)).status == "finished"
        stats = await again_store.player_stats(GUILD, ANN.user_id, "dutch")
        assert stats.matches == 1
        assert again.tables.table_of_user(GUILD, ANN.user_id) is None
    finally:
        await again_store.close()


class BrokenPolicy:
    def choose(self, *args: object) -> object:
        raise RuntimeError("policy bug")

    def default(self, *args: object) -> str:
        return "not an action"


async def test_a_failing_policy_never_stops_the_table(
    service: TableService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.service.service as service_module

    monkeypatch.setattr(service_module, "policy_for", lambda game: BrokenPolicy())
    table_id = await open_dutch(service, [ANN], start=False)
    await service.seating.add_bot(table_id, ANN.user_id)
    await service.seating.start(table_id, ANN.user_id)
    await service.followup.settle(table_id)
    snapshot = service.public_snapshot(table_id)
    assert snapshot.to_act == (0,)  # the bot peeked with the first legal action
    await clock.advance(90)  # Ann's peek times out: the broken default falls back too
    snapshot = service.public_snapshot(table_id)
    assert snapshot.view is not None and snapshot.view.peeked == (True, True)
