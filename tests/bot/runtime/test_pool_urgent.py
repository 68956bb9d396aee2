"""Urgent chores in the pool of bot workers (a coach's hint: a person waits for it): one joins
a worker's pipeline among the bot decisions, before those waiting unless one is near its
deadline (for half a deadline at most), and before a review's pieces, on the last free worker
of the pool too; a bounded number are in the workers at once, in one worker; the bots' moves
go on meanwhile. Fake workers on a fake clock."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.runtime.pool import ANSWER_MARGIN
from bot.runtime.pool_hints import HINT_WAIT
from bot.runtime.pool_slots import time_share
from bot.runtime.pool_terms import DIED, ChoreFailed
from bot.runtime.reviews import SLICE
from bot.runtime.worker import CHORE, MOVE
from bot.service import FakeClock
from games.contract import Round, RoundSetup
from games.euchre import GAME as EUCHRE
from tests.bot.runtime.test_pool import SEAT, FakeWorker, ready_pool, strong_move
from tests.bot.runtime.test_pool_chores import Sum, answer_chore

HINT = 0.12  # the hint's budget (bot/service/coach.py)


def answer_next_chore(worker: FakeWorker) -> None:
    """Answer the worker's next job, a chore (the jobs after it may be bot decisions)."""
    job = worker.jobs[worker.answered]
    assert job.kind == CHORE
    worker.answer(json.dumps(Sum((1, 2)).run(job.budget)))


def a_round(seed: str) -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed=seed)


async def test_an_urgent_chore_goes_before_the_bot_moves_waiting() -> None:
    pool, (worker,) = ready_pool(1, FakeClock(), pipeline=2)
    rounds = [a_round(f"table {t}") for t in range(6)]
    moves = [pool.think(r, SEAT, "strong", random.Random(t), table=t) for t, r in enumerate(rounds)]
    assert len(worker.jobs) == 2 and pool.waiting() == 4  # the worker's pipeline is full
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    worker.answer()  # a place in the pipeline: the hint's, before the moves waiting
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE, CHORE]
    worker.answer()
    answer_next_chore(worker)
    assert await hint == "3"
    while pool.waiting() or worker.busy:  # the bots' moves go on
        assert worker.jobs[-1].kind == MOVE
        worker.answer()
    for t, move in enumerate(moves):
        assert await move == strong_move(rounds[t], t)
    assert not pool.stats.fallbacks
    pool.close()


async def test_a_hint_joins_a_worker_s_pipeline_without_emptying_it() -> None:
    pool, (worker,) = ready_pool(1, FakeClock(), pipeline=4)
    rounds = [a_round(f"table {t}") for t in range(3)]
    moves = [pool.think(rounds[t], SEAT, "strong", random.Random(t), table=t) for t in range(2)]
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    # sent at once, behind the decisions the worker has, which it keeps deciding meanwhile
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE, CHORE]
    later = pool.think(rounds[2], SEAT, "strong", random.Random(2), table=2)
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE, CHORE, MOVE]  # not held back
    worker.answer()
    worker.answer()
    answer_next_chore(worker)
    worker.answer()
    assert await hint == "3"
    assert [await m for m in [*moves, later]] == [strong_move(rounds[t], t) for t in range(3)]
    assert not pool.stats.fallbacks
    pool.close()


async def test_a_bot_decision_near_its_deadline_is_served_before_a_queued_hint() -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock, pipeline=1)
    first, late = a_round("first"), a_round("late")
    busy = pool.think(first, SEAT, "strong", random.Random(1), table=1)  # under way
    waiting = pool.think(late, SEAT, "strong", random.Random(2), table=2)  # waits in the pool
    # so long that, behind the hint's whole search, it could not have its aim left
    await clock.advance(pool.deadline - ANSWER_MARGIN - HINT - pool.aim + 0.01)
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    worker.answer()
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE]  # the late decision first
    worker.answer()
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE, CHORE]  # then the hint
    answer_next_chore(worker)
    assert (await busy, await waiting) == (strong_move(first, 1), strong_move(late, 2))
    assert await hint == "3"
    assert not pool.stats.fallbacks
    pool.close()


async def test_a_hint_with_time_to_spare_goes_before_a_young_decision() -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock, pipeline=1)
    busy = pool.think(a_round("first"), SEAT, "strong", random.Random(1), table=1)
    waiting = pool.think(a_round("young"), SEAT, "strong", random.Random(2), table=2)
    await clock.advance(pool.deadline - ANSWER_MARGIN - HINT - pool.aim - 0.01)  # not yet near
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    worker.answer()
    assert [job.kind for job in worker.jobs] == [MOVE, CHORE]
    answer_next_chore(worker)
    worker.answer()
    assert await hint == "3"
    await busy
    await waiting
    assert not pool.stats.fallbacks
    pool.close()


async def test_a_hint_that_waited_half_a_deadline_goes_before_late_decisions() -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock, pipeline=1)
    assert pool.deadline / 2 == HINT_WAIT
    busy = pool.think(a_round("first"), SEAT, "strong", random.Random(1), table=1)
    late = [
        pool.think(a_round(f"late {t}"), SEAT, "strong", random.Random(t), table=t) for t in (2, 3)
    ]
    await clock.advance(0.2)
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    await clock.advance(0.47)  # both decisions are near their deadline now
    worker.answer()
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE]  # the first of them
    await clock.advance(0.05)  # and the hint has waited more than half a deadline
    worker.answer()
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE, CHORE]  # before the other
    answer_next_chore(worker)
    assert await hint == "3"
    worker.answer()
    await busy
    assert all(move.done() for move in late)
    assert not pool.stats.fallbacks
    pool.close()


async def test_hints_in_the_workers_are_bounded_and_all_in_one() -> None:
    pool, (first, second) = ready_pool(2, FakeClock(), hints=2)
    hints = [pool.chore(Sum((i,)), HINT, urgent=True) for i in range(3)]
    assert [[job.kind for job in w.jobs] for w in (first, second)] == [[CHORE, CHORE], []]
    move = pool.think(a_round("bots"), SEAT, "strong", random.Random(1), table=1)
    assert [job.kind for job in second.jobs] == [MOVE]  # the other worker, free of hints
    answer_next_chore(first)
    assert [job.kind for job in first.jobs] == [CHORE, CHORE, CHORE]  # the third, same worker
    answer_next_chore(first)
    answer_next_chore(first)
    second.answer()
    assert [await h for h in hints] == ["3", "3", "3"]
    await move
    pool.close()


async def test_hints_go_to_another_worker_while_the_one_holding_hints_is_stuck() -> None:
    clock = FakeClock()
    pool, (first, second) = ready_pool(2, clock)
    slow = pool.think(a_round("slow"), SEAT, "strong", random.Random(1), table=1)
    quick = pool.think(a_round("quick"), SEAT, "strong", random.Random(2), table=2)
    held = pool.chore(Sum((1,)), HINT, urgent=True)
    assert [[job.kind for job in w.jobs] for w in (first, second)] == [[MOVE, CHORE], [MOVE]]
    second.answer()
    await quick
    await clock.advance(pool.deadline)  # the first worker is stuck on its decision now
    assert slow.done()
    hint = pool.chore(Sum((2,)), HINT, urgent=True)
    assert [job.kind for job in second.jobs] == [MOVE, CHORE]  # not behind the stuck one
    answer_next_chore(second)
    assert await hint == "3"
    assert not held.done()
    pool.close()


async def test_a_hint_searches_no_longer_than_a_bot_decision_sent_in_its_place() -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    first = pool.chore(Sum((1,)), HINT, urgent=True)
    assert worker.jobs[-1].budget == HINT  # an idle worker: the hint's own budget
    answer_next_chore(worker)
    rounds = [a_round(f"table {t}") for t in range(40)]
    moves = [pool.think(r, SEAT, "strong", random.Random(t), table=t) for t, r in enumerate(rounds)]
    sent, waiting = len(worker.jobs) - 1, pool.waiting()
    assert sent == pool.pipeline and waiting == 40 - pool.pipeline
    hint = pool.chore(Sum((2,)), HINT, urgent=True)  # it waits for a place in the pipeline
    worker.answer()
    share = time_share(pool.aim, pool.pipeline - 1 + waiting)  # as a decision sent there
    assert worker.jobs[-1].kind == CHORE and worker.jobs[-1].budget == pytest.approx(share)
    assert share < HINT
    while worker.busy:
        if worker.jobs[worker.answered].kind == CHORE:
            answer_next_chore(worker)
        else:
            worker.answer()
    assert await first == await hint == "3"
    assert all(m.done() for m in moves)
    pool.close()


async def test_a_hint_nobody_waits_for_any_more_is_never_sent() -> None:
    pool, (worker,) = ready_pool(1, FakeClock(), pipeline=1)
    busy = pool.think(a_round("first"), SEAT, "strong", random.Random(1), table=1)
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    hint.cancel()  # the person's click was given up
    later = pool.think(a_round("later"), SEAT, "strong", random.Random(2), table=2)
    worker.answer()
    assert [job.kind for job in worker.jobs] == [MOVE, MOVE]
    worker.answer()
    await busy
    await later
    pool.close()


async def test_a_hint_whose_worker_dies_fails_and_the_moves_before_it_play_simply() -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    move = pool.think(a_round("first"), SEAT, "strong", random.Random(1), table=1)
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    worker.events.lost(DIED)
    with pytest.raises(ChoreFailed):
        await hint
    assert move.done() and pool.stats.fallbacks == {DIED: 1}
    pool.close()


async def test_an_urgent_chore_goes_before_a_reviews_pieces() -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    review = [pool.chore(Sum((i,)), SLICE) for i in range(5)]
    first_hint = pool.chore(Sum((1,)), HINT, urgent=True)
    second_hint = pool.chore(Sum((2,)), HINT, urgent=True)
    answer_chore(worker)  # the review's piece under way when the hints came
    assert await review[0] == "3"
    answer_chore(worker)
    answer_chore(worker)
    assert (first_hint.done(), second_hint.done(), review[1].done()) == (True, True, False)
    pool.close()


async def test_an_urgent_chore_takes_the_last_free_worker() -> None:
    pool, (first, second) = ready_pool(2, FakeClock())
    review = pool.chore(Sum((1,)), SLICE)  # a review's piece takes one worker
    assert [len(first.jobs), len(second.jobs)] == [1, 0]
    hint = pool.chore(Sum((2,)), HINT, urgent=True)
    assert [job.kind for job in second.jobs] == [CHORE]  # the other one, kept free for bots
    answer_chore(second)
    answer_next_chore(first)
    assert (await hint, await review) == ("3", "3")
    pool.close()
