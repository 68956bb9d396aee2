"""Bot moves follow a click in the background: the click is answered once the human's own move
is stored; each bot move is stored, then published and notified; thinking holds no lock, so a
move decided for a state that no longer holds is dropped and decided again, never applied."""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.runtime.long_lived import LongLived
from bot.runtime.runner import InlinePolicyRunner
from bot.service import (
    PLAYING,
    FakeClock,
    PlayerRef,
    RecordingNotifier,
    TableError,
    TableService,
)
from bot.service.followup import RETRY_SECONDS
from games.cards import cards
from games.contract import Round
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD, StallingStore

# No hand is worth ordering up the turned 9♠: the three bots pass, then the dealer (Ann) bids.
QUIET_DEAL = cards(
    "10S JH 9C 10C QD  QS JD 9D 10D KC  KS AH 9H 10H QC  AD AC QH KH KD  9S  JS JC AS"
)


class GatedRunner(InlinePolicyRunner):
    """Decides at once (reading the round now, like the worker runner) but answers only once
    the test opens the gate; `thinking` is set whenever a decision starts."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.thinking = asyncio.Event()
        self.decisions: list[tuple[int, int]] = []  # (seat, actions in the round then)

    def think(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random, **where: Any
    ) -> Awaitable[Any]:
        self.decisions.append((seat, len(round_.history)))
        decided = super().think(round_, seat, level, rng, **where)
        self.thinking.set()

        async def answer() -> Any:
            await self.gate.wait()
            return await decided

        return answer()


@pytest.fixture
def runner() -> GatedRunner:
    return GatedRunner()


@pytest.fixture
async def gated(
    store: Store,
    clock: FakeClock,
    notifier: RecordingNotifier,
    seeds: Callable[[], int],
    runner: GatedRunner,
) -> Any:
    service = TableService(store, clock, notifier, seeds, policy_runner=runner)
    yield service
    runner.gate.set()
    await service.close()


async def euchre_with_three_bots(service: TableService) -> int:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre", bots="simple")
    for _ in range(3):
        await service.seating.add_bot(snapshot.table_id, ANN.user_id)
    service.stack_deck(snapshot.table_id, QUIET_DEAL)
    return snapshot.table_id


async def stored_actions(store: Store, table_id: int) -> int:
    loaded = await store.load_active_tables(table_ids=[table_id])
    rounds = [t.round for t in loaded.tables if t.round is not None]
    return len(rounds[0].history) if rounds else 0


async def test_a_click_is_answered_before_the_bots_that_follow_it_move(
    gated: TableService, runner: GatedRunner, store: Store, notifier: RecordingNotifier
) -> None:
    table_id = await euchre_with_three_bots(gated)
    started = await gated.seating.start(table_id, ANN.user_id)
    assert started.status == PLAYING and started.to_act == (1,)  # answered: the bots wait
    await runner.thinking.wait()
    assert gated.followup.pending(table_id)
    with pytest.raises(TableError) as refused:  # Ann's click while the bots are to move
        await gated.play.act(table_id, ANN.user_id, started.round_no or 0, "pass")
    assert refused.value.key == "not_your_turn"

    changes = len(notifier.of("table_changed"))
    runner.gate.set()
    await gated.followup.settle(table_id)
    after = gated.public_snapshot(table_id)
    assert after.to_act == (0,) and not gated.followup.pending(table_id)
    assert await stored_actions(store, table_id) == 3
    # each bot move was published and announced by itself (the table message moves on)
    assert len(notifier.of("table_changed")) - changes == 3
    assert [seat for seat, _ in runner.decisions] == [1, 2, 3]

    result = await gated.play.act(table_id, ANN.user_id, after.round_no or 0, "pass")
    assert result.notation == "pass"


async def test_a_stop_while_a_bot_thinks_drops_its_move_and_leaves_nothing(
    gated: TableService, runner: GatedRunner, store: Store, notifier: RecordingNotifier
) -> None:
    table_id = await euchre_with_three_bots(gated)
    await gated.seating.start(table_id, ANN.user_id)
    await runner.thinking.wait()
    await gated.seating.stop(table_id, ANN.user_id, can_manage=False)  # the lock is free meanwhile
    assert not gated.has_table(table_id) and not gated.followup.pending(table_id)
    runner.gate.set()
    await gated.followup.settle()
    assert await store.load_active_tables(table_ids=[table_id]) == await store.load_active_tables(
        table_ids=[]
    )
    assert runner.decisions == [(1, 0)]  # nothing decided, nor played, after the stop
    assert notifier.of("table_closed") == [(table_id,)]
    assert not gated.followup.following


async def test_the_last_human_leaving_while_a_bot_thinks_abandons_the_table(
    gated: TableService, runner: GatedRunner
) -> None:
    table_id = await euchre_with_three_bots(gated)
    await gated.seating.start(table_id, ANN.user_id)
    await runner.thinking.wait()
    await gated.seating.leave(table_id, ANN.user_id)
    runner.gate.set()
    await gated.followup.settle()
    assert not gated.has_table(table_id) and not gated.followup.following
    assert runner.decisions == [(1, 0)]


async def test_a_move_decided_for_a_state_gone_by_is_decided_again(
    gated: TableService, runner: GatedRunner, store: Store
) -> None:
    """Dutch's peeks are made at once by everyone: the bot thinks about its peek while Ann
    peeks; its decision, made before Ann's peek, is dropped and made again after it."""
    snapshot = await gated.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
    table_id = snapshot.table_id
    await gated.seating.add_bot(table_id, ANN.user_id)
    await gated.seating.start(table_id, ANN.user_id)
    await runner.thinking.wait()
    await gated.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    runner.gate.set()
    await gated.followup.settle(table_id)
    assert runner.decisions[:2] == [(1, 0), (1, 1)]  # (then the bot's own turn, if first)
    table = gated._table(table_id)
    assert table.round is not None
    assert [seat for seat, _ in table.round.history][:2] == [0, 1]
    assert await stored_actions(store, table_id) == len(table.round.history)


class SignallingNotifier(RecordingNotifier):
    def __init__(self) -> None:
        super().__init__()
        self.changed = asyncio.Event()

    async def table_changed(self, table_id: int) -> None:
        await super().table_changed(table_id)
        self.changed.set()


async def test_a_timeout_while_a_bot_thinks_is_played_and_the_bot_decides_again(
    store: Store, clock: FakeClock, seeds: Callable[[], int], runner: GatedRunner
) -> None:
    notifier = SignallingNotifier()
    service = TableService(store, clock, notifier, seeds, policy_runner=runner)
    try:
        snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
        table_id = snapshot.table_id
        await service.seating.add_bot(table_id, ANN.user_id)
        await service.seating.start(table_id, ANN.user_id)
        await runner.thinking.wait()
        notifier.changed.clear()
        # the timer's task waits for the bot moves it leaves: the test lets them go once
        # Ann's timed-out peek is stored and announced
        advanced = asyncio.ensure_future(clock.advance(90))
        await notifier.changed.wait()
        runner.gate.set()
        await advanced
        assert runner.decisions[:2] == [(1, 0), (1, 1)]
        table = service._table(table_id)
        assert table.round is not None
        assert [seat for seat, _ in table.round.history][:2] == [0, 1]
        assert service.public_snapshot(table_id).turn_deadline is not None  # Ann's next turn
    finally:
        runner.gate.set()
        await service.close()


async def test_restored_tables_bots_move_in_the_background_one_table_at_a_time(
    gated: TableService, runner: GatedRunner, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    """A restart's load does not wait for the bots of the tables it loads; their moves come
    one table at a time, so a table a human reaches (or clicks) does not queue behind them."""
    service = gated
    runner.gate.set()
    first = await euchre_with_three_bots(service)
    snapshot = await service.seating.open_table(GUILD, CHANNEL, BOB, "dutch")
    dutch = snapshot.table_id
    await service.seating.add_bot(dutch, BOB.user_id)
    await service.seating.start(dutch, BOB.user_id)
    await service.followup.settle(dutch)
    await service.play.act(dutch, BOB.user_id, 0, "peek 3 4")
    await service.followup.settle(dutch)
    carl = PlayerRef(900, "Carl")
    second = (
        await service.seating.open_table(GUILD, CHANNEL, carl, "euchre", bots="simple")
    ).table_id
    for _ in range(3):
        await service.seating.add_bot(second, carl.user_id)
    service.stack_deck(second, QUIET_DEAL)
    # both Euchre tables go down at their start, before any bot moved
    runner.gate.clear()
    await service.seating.start(first, ANN.user_id)
    await service.seating.start(second, carl.user_id)
    await service.close()
    await store.close()

    new_store = await Store.open(db_path, synchronous="NORMAL")
    runner = GatedRunner()
    again = TableService(new_store, FakeClock(), RecordingNotifier(), seeds, policy_runner=runner)
    try:
        await again.restoring.start()
        await again.restoring.wait()  # loaded while the restored bots still think
        await runner.thinking.wait()
        assert len(runner.decisions) == 1  # the first table's bot; the second one waits
        assert again.followup.pending(first) and again.followup.pending(second)
        runner.thinking.clear()
        await again.restoring.ready(
            second
        )  # a human reaches it: its bots move now, beside the queue
        await runner.thinking.wait()
        assert len(runner.decisions) == 2
        assert again.public_snapshot(dutch).to_act == (0,)  # Bob's turn: he may click
        legal = (await again.play.private_view(dutch, BOB.user_id)).legal
        await again.play.act(dutch, BOB.user_id, 0, legal[0])  # answered while the others think
        runner.gate.set()
        await again.followup.settle()
        assert again.public_snapshot(first).to_act == (0,)
        assert again.public_snapshot(second).to_act == (0,)
        assert not again.followup.following and not again.followup.restored
    finally:
        runner.gate.set()
        await again.close()
        await new_store.close()


async def test_bot_moves_count_toward_the_collectors_freeze_as_clicks_do(
    gated: TableService, runner: GatedRunner
) -> None:
    """At tables of bots most moves are the bots': counted too, or full collections walk
    every table's newest state again."""
    gated.tables.long_lived = LongLived(every=1_000_000, moves=1, full_every=1_000_000)
    try:
        table_id = await euchre_with_three_bots(gated)
        started = await gated.seating.start(table_id, ANN.user_id)
        runner.gate.set()
        await gated.followup.settle(table_id)
        assert gated.tables.long_lived.freezes == 3  # the three bots' passes
        await gated.play.act(table_id, ANN.user_id, started.round_no or 0, "pass")
        assert gated.tables.long_lived.freezes == 4
    finally:
        gc.unfreeze()


@pytest.fixture
def stalling(store: Store) -> StallingStore:
    return StallingStore(store, "record_action")


@pytest.fixture
async def stalled(
    stalling: StallingStore, clock: FakeClock, notifier: RecordingNotifier, runner: GatedRunner
) -> Any:
    service = TableService(stalling, clock, notifier, lambda: 7, policy_runner=runner)  # type: ignore[arg-type]
    yield service
    runner.gate.set()
    await service.close()


async def seat_one_moving_into_a_stalled_write(
    service: TableService, runner: GatedRunner, stalling: StallingStore
) -> int:
    """Euchre with three bots: seat 1 has decided and its move waits in the store."""
    table_id = await euchre_with_three_bots(service)
    await service.seating.start(table_id, ANN.user_id)
    await runner.thinking.wait()
    runner.thinking.clear()
    stalling.arm()
    runner.gate.set()
    await stalling.entered.wait()
    return table_id


async def test_the_next_bot_thinks_while_the_move_before_it_is_being_stored(
    stalled: TableService, runner: GatedRunner, stalling: StallingStore
) -> None:
    table_id = await seat_one_moving_into_a_stalled_write(stalled, runner, stalling)
    # seat 2 thinks already, for the state after seat 1's move
    assert runner.thinking.is_set() and runner.decisions[-1] == (2, 1)
    stalling.release(fail=False)
    await stalled.followup.settle(table_id)
    # each bot decided once, and for the state it moved in
    assert runner.decisions == [(1, 0), (2, 1), (3, 2)]
    assert stalled.public_snapshot(table_id).to_act == (0,)


async def test_a_decision_thought_ahead_of_a_move_the_store_lost_is_dropped(
    stalled: TableService,
    runner: GatedRunner,
    stalling: StallingStore,
    store: Store,
    clock: FakeClock,
) -> None:
    table_id = await seat_one_moving_into_a_stalled_write(stalled, runner, stalling)
    assert runner.thinking.is_set() and runner.decisions[-1] == (2, 1)  # seat 1 not stored yet
    stalling.release(fail=True)  # lost: rolled back, a timer plays seat 1 again
    await stalled.followup.settle(table_id)
    assert stalled.public_snapshot(table_id).to_act == (1,)
    assert await stored_actions(store, table_id) == 0
    assert not stalled.followup.ahead  # seat 2's decision went with the lost move
    await clock.advance(RETRY_SECONDS)
    await stalled.followup.settle(table_id)
    assert stalled.public_snapshot(table_id).to_act == (0,)
    assert await stored_actions(store, table_id) == 3
    # seat 2 decided again, for the state seat 1's stored move made
    assert runner.decisions[-2:] == [(2, 1), (3, 2)]
