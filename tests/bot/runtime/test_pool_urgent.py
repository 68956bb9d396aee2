"""Urgent chores in the pool of bot workers (a coach's hint: a person waits for it): one goes
before the bot decisions waiting and before a review's pieces, on the next worker free, the
last free one of the pool too; the bots' moves then go on. Fake workers on a fake clock."""

from __future__ import annotations

import random
from typing import Any

from bot.runtime.reviews import SLICE
from bot.runtime.worker import CHORE, MOVE
from bot.service import FakeClock
from games.contract import Round, RoundSetup
from games.euchre import GAME as EUCHRE
from tests.bot.runtime.test_pool import SEAT, ready_pool, strong_move
from tests.bot.runtime.test_pool_chores import Sum, answer_chore

HINT = 0.12  # the hint's budget (bot/service/coach.py)


def a_round(seed: str) -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed=seed)


async def test_an_urgent_chore_goes_before_the_bot_moves_waiting() -> None:
    pool, (worker,) = ready_pool(1, FakeClock(), pipeline=2)
    rounds = [a_round(f"table {t}") for t in range(6)]
    moves = [pool.think(r, SEAT, "strong", random.Random(t), table=t) for t, r in enumerate(rounds)]
    sent = len(worker.jobs)
    assert sent and pool.waiting()  # some sent to the worker, the others wait in the pool
    hint = pool.chore(Sum((4, 5)), HINT, urgent=True)
    for _ in range(sent):  # the moves the worker already had are answered first
        worker.answer()
    assert worker.jobs[-1].kind == CHORE  # then the hint, before the moves waiting
    answer_chore(worker)
    assert await hint == "3"
    while pool.waiting() or worker.busy:  # the bots' moves go on
        assert worker.jobs[-1].kind == MOVE
        worker.answer()
    for t, move in enumerate(moves):
        assert await move == strong_move(rounds[t], t)
    assert not pool.stats.fallbacks
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
    answer_chore(first)
    assert (await hint, await review) == ("3", "3")
    pool.close()
