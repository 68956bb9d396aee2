"""Several decisions in flight per bot worker: the pool sends a worker its next decisions
before it answers (up to `pipeline`), so it never waits for the bot's event loop between two.
Every guarantee holds for a decision waiting in its worker: its deadline, the simple move
when its worker dies, stuck detection counted from when the worker began it (not from when
it was sent), and chores only on workers with no decision. Fake workers on a fake clock."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.runtime.pool import PIPELINE, DecisionPool
from bot.runtime.pool_terms import DEADLINE, DIED, OVERLOAD
from bot.runtime.reviews import SLICE
from bot.runtime.worker import CHORE, MOVE
from bot.service import FakeClock
from games.contract import Round, RoundSetup
from games.euchre import GAME as EUCHRE
from tests.bot.runtime.test_pool import SEAT, Workers, ready_pool, seed_of, simple_move, strong_move
from tests.bot.runtime.test_pool_chores import Sum, answer_chore


@pytest.fixture
def round_() -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="pool")


async def test_a_worker_is_sent_its_next_decisions_before_it_answers(
    round_: Round[Any, Any, Any],
) -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    count = PIPELINE + 2
    asked = [pool.think(round_, SEAT, "strong", random.Random(t), table=t) for t in range(count)]
    assert len(worker.jobs) == PIPELINE and pool.waiting() == 2
    worker.answer()  # one answered, the next one sent at once: PIPELINE in the worker again
    assert len(worker.jobs) == PIPELINE + 1 and worker.busy
    while worker.busy:
        worker.answer()
    assert [job.seed for job in worker.jobs] == [seed_of(t) for t in range(count)]
    assert [await f for f in asked] == [strong_move(round_, t) for t in range(count)]
    assert not pool.stats.fallbacks
    pool.close()


async def test_with_two_workers_decisions_go_to_the_one_with_fewer_sent(
    round_: Round[Any, Any, Any],
) -> None:
    pool, (first, second) = ready_pool(2, FakeClock())
    for t in range(3):
        pool.think(round_, SEAT, "strong", random.Random(t), table=t)
    assert [len(first.jobs), len(second.jobs)] == [2, 1]
    second.answer()
    pool.think(round_, SEAT, "strong", random.Random(3), table=3)
    assert [len(first.jobs), len(second.jobs)] == [2, 2]  # to the one that had none left
    pool.close()


async def test_a_decision_waiting_in_its_worker_is_played_simply_at_its_deadline(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock)
    under_way = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    await clock.advance(0.5)
    behind = pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    assert len(worker.jobs) == 2
    await clock.advance(pool.deadline - 0.5)  # the first one's deadline: the worker is stuck
    assert under_way.result() == simple_move(round_, 1) and not behind.done()
    await clock.advance(0.5)  # the second one's, while it still waits behind the first
    assert behind.result() == simple_move(round_, 2)
    assert pool.stats.fallbacks == {DEADLINE: 2}
    worker.answer()  # the first, late: dropped
    worker.answer(skipped=True)  # the worker skips the second: its time ran out
    assert pool.stats.late == 1 and pool.stats.fallbacks == {DEADLINE: 2}
    assert not worker.killed and pool.stats.replaced == 0
    after = pool.think(round_, SEAT, "strong", random.Random(3), table=3)
    worker.answer()
    assert await after == strong_move(round_, 3)
    pool.close()


async def test_a_worker_that_dies_with_several_decisions_sent_has_each_played_simply(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    pool = DecisionPool(1, workers, FakeClock())
    pool.warm()
    (worker,) = workers.ready()
    count = PIPELINE + 2
    asked = [pool.think(round_, SEAT, "strong", random.Random(t), table=t) for t in range(count)]
    worker.answer()  # the first one answered; PIPELINE sent, one still waits in the pool
    assert pool.waiting() == 1
    worker.killed = True  # the handle kills what it loses, then reports
    worker.events.lost(DIED)
    sent = asked[1 : 1 + PIPELINE]
    assert [f.result() for f in sent] == [simple_move(round_, t) for t in range(1, 1 + PIPELINE)]
    assert pool.stats.fallbacks == {DIED: PIPELINE}
    (_, fresh) = workers.made
    fresh.events.ready()  # the one still waiting goes to the new worker
    assert [job.seed for job in fresh.jobs] == [seed_of(count - 1)]
    fresh.answer()
    assert await asked[-1] == strong_move(round_, count - 1)
    pool.close()


async def test_a_decision_sent_behind_others_is_stuck_hang_seconds_after_it_began(
    round_: Round[Any, Any, Any],
) -> None:
    """Not after it was sent: it began once the worker answered the one before it."""
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock)
    first = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    second = pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    await clock.advance(0.9)
    worker.answer()  # the worker begins the second one now, 0.9 s after it was sent
    assert await first == strong_move(round_, 1)
    await clock.advance(pool.deadline - 0.9)  # the second one's deadline: played simply
    assert second.result() == simple_move(round_, 2)
    await clock.advance(pool.hang - pool.deadline)  # hang seconds after it was sent
    assert not worker.killed
    await clock.advance(0.9)  # hang seconds after it began
    assert worker.killed and pool.stats.replaced == 1
    assert pool.stats.fallbacks == {DEADLINE: 1}  # replacing it plays nothing twice
    pool.close()


async def test_a_worker_that_begins_a_decision_already_played_and_hangs_is_replaced(
    round_: Round[Any, Any, Any],
) -> None:
    """A decision past its deadline while it waited in its worker: once the worker begins it,
    the worker is sent nothing more, and replaced hang seconds later if it is still on it."""
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock)
    pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    await clock.advance(pool.deadline)  # both played simply
    await clock.advance(1.0)
    worker.answer()  # late; the worker begins the second one, which it should skip
    assert pool.stats.late == 1
    other = pool.think(round_, SEAT, "strong", random.Random(3), table=3)
    assert other.result() == simple_move(round_, 3)  # not sent to it: played simply at once
    assert len(worker.jobs) == 2
    await clock.advance(pool.hang - 0.01)
    assert not worker.killed
    await clock.advance(0.01)
    assert worker.killed and pool.stats.replaced == 1
    assert pool.stats.fallbacks == {DEADLINE: 2, OVERLOAD: 1}
    pool.close()


async def test_a_worker_running_a_chore_is_sent_no_decision_and_one_with_decisions_no_chore(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(2, workers, clock)
    pool.warm()
    first, second = workers.ready()
    chores = [pool.chore(Sum((i,)), SLICE) for i in range(2)]
    assert [job.kind for job in first.jobs] == [CHORE] and not second.jobs  # one kept free
    moves = [pool.think(round_, SEAT, "strong", random.Random(t), table=t) for t in range(3)]
    assert [job.kind for job in first.jobs] == [CHORE]  # nothing behind its chore
    assert [job.kind for job in second.jobs] == [MOVE] * 3
    answer_chore(first)  # a decision is sent to it, no chore: decisions were waiting
    assert await chores[0] == "3"
    second.answer()
    second.answer()
    for worker in (first, second):
        while worker.busy:
            worker.answer()
    assert [await f for f in moves] == [strong_move(round_, t) for t in range(3)]
    # every decision answered, both workers free: the chore left goes to one of them
    assert sum(job.kind == CHORE for w in (first, second) for job in w.jobs) == 2
    assert not pool.stats.fallbacks
    pool.close()
