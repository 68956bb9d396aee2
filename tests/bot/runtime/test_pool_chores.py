"""Chores in the pool of bot workers (a review's pieces): they run only when no bot decision
waits, never on a pool's last free worker, each with a short budget, so a bot move waits for a
worker at most one chore's budget; a chore whose worker dies, that runs past its budget or
that no worker takes in time fails with its reason. Fake workers on a fake clock."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.runtime.pool import ANSWER_MARGIN, CHORE_WAIT, DecisionPool
from bot.runtime.pool_terms import DIED, TIMED_OUT, ChoreFailed
from bot.runtime.reviews import SLICE
from bot.runtime.worker import CHORE, MOVE
from bot.service import FakeClock
from games.contract import Round, RoundSetup
from games.euchre import GAME as EUCHRE
from tests.bot.runtime.test_pool import SEAT, FakeWorker, Workers, ready_pool, strong_move


@dataclass(frozen=True)
class Sum:
    """A chore: the sum of its numbers."""

    numbers: tuple[int, ...]

    def run(self, budget: float | None) -> int:
        return sum(self.numbers)


@pytest.fixture
def round_() -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="chores")


def answer_chore(worker: FakeWorker) -> None:
    job = worker.jobs[-1]
    assert job.kind == CHORE
    worker.answer(json.dumps(Sum((1, 2)).run(job.budget)))


async def test_a_long_review_delays_a_table_s_bot_move_by_one_chore_at_most(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock)
    chores = [pool.chore(Sum((i, 1)), SLICE) for i in range(20)]  # a long review, queued
    assert [job.kind for job in worker.jobs] == [CHORE]
    move = pool.think(round_, SEAT, "strong", random.Random(5), table=1)
    await clock.advance(SLICE)  # the chore runs its whole budget
    answer_chore(worker)
    assert await chores[0] == "3"
    # the bot's decision goes next, before the nineteen chores left, with its time nearly whole
    assert [job.kind for job in worker.jobs] == [CHORE, MOVE]
    assert worker.jobs[-1].left == pytest.approx(pool.deadline - SLICE - ANSWER_MARGIN)
    worker.answer()
    assert await move == strong_move(round_, 5)
    assert not pool.stats.fallbacks
    assert worker.jobs[-1].kind == CHORE  # the review goes on
    pool.close()


async def test_with_two_workers_chores_leave_one_free_for_the_bots(
    round_: Round[Any, Any, Any],
) -> None:
    pool, (first, second) = ready_pool(2, FakeClock())
    chores = [pool.chore(Sum((i,)), SLICE) for i in range(3)]
    assert [len(first.jobs), len(second.jobs)] == [1, 0]  # the second one is kept free
    move = pool.think(round_, SEAT, "strong", random.Random(2), table=1)
    assert [job.kind for job in second.jobs] == [MOVE]  # taken at once
    second.answer()
    assert await move == strong_move(round_, 2)
    answer_chore(first)
    answer_chore(first)
    answer_chore(first)
    assert [await c for c in chores] == ["3", "3", "3"]
    assert len(second.jobs) == 1
    pool.close()


async def test_a_chore_past_its_budget_fails_timed_out_and_its_worker_is_replaced() -> None:
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(1, workers, clock)
    pool.warm()
    (stuck,) = workers.ready()
    chore = pool.chore(Sum((1,)), SLICE)
    await clock.advance(SLICE + pool.hang - 0.01)
    assert not chore.done()
    await clock.advance(0.01)
    with pytest.raises(ChoreFailed) as failed:
        await chore
    assert failed.value.reason == TIMED_OUT
    assert stuck.killed and pool.stats.replaced == 1 and len(workers.made) == 2
    pool.close()


async def test_a_chore_whose_worker_dies_fails_and_the_next_one_runs_on_a_new_worker() -> None:
    workers = Workers()
    pool = DecisionPool(1, workers, FakeClock())
    pool.warm()
    (worker,) = workers.ready()
    lost, after = pool.chore(Sum((1,)), SLICE), pool.chore(Sum((4,)), SLICE)
    worker.killed = True  # the handle kills what it loses, then reports
    worker.events.lost(DIED)
    with pytest.raises(ChoreFailed) as failed:
        await lost
    assert failed.value.reason == DIED
    (_, fresh) = workers.made
    fresh.events.ready()
    answer_chore(fresh)
    assert await after == "3"
    pool.close()


async def test_a_chore_no_worker_takes_in_time_fails_timed_out() -> None:
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(1, workers, clock)
    pool.warm()  # the worker never says it is ready
    chore = pool.chore(Sum((1,)), SLICE)
    await clock.advance(CHORE_WAIT)
    with pytest.raises(ChoreFailed) as failed:
        await chore
    assert failed.value.reason == TIMED_OUT
    pool.close()
