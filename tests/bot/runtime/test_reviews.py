"""A review of a player's play runs in the bot players' worker processes, piece by piece: it
gives what the review computed in one go gives for the same seed, says how far it is, keeps
within a time budget per decision, and a piece whose worker dies fails the review with its
reason (the bot answers it in one sentence: tests/bot/e2e/test_history_e2e.py)."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from bot.runtime.pool_terms import DIED, TIMED_OUT, ChoreFailed
from bot.runtime.reviews import review_in_workers
from bot.runtime.runner import InlinePolicyRunner, ProcessPolicyRunner
from bot.service import FakeClock
from games.contract import RoundRecord, RoundSetup
from games.registry import get_game
from games.review import review_hand
from tests.bot.runtime import deciders


def played(name: str, seed: int) -> RoundRecord:
    """A hand every seat played at random to its end (moves a bot often disagrees with)."""
    game = get_game(name)
    round_: Any = game.new_round(game.options(), RoundSetup(n_seats=4, dealer=1), seed=seed)
    rng = random.Random(seed)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
    return round_.record()  # type: ignore[no-any-return]


@pytest.fixture
def runner() -> Iterator[ProcessPolicyRunner]:
    pool = ProcessPolicyRunner(1, clock=FakeClock())
    yield pool
    pool.close()


@pytest.mark.parametrize(("name", "seed"), [("euchre", 8), ("dutch", 1), ("dame", 4)])
async def test_a_review_in_the_workers_is_the_review_computed_in_one_go(
    runner: ProcessPolicyRunner, name: str, seed: int
) -> None:
    record = played(name, seed)
    seen: list[tuple[int, int]] = []
    review = await review_in_workers(
        runner, record, 0, seed=3, samples=2, budget=None, progress=lambda d, t: seen.append((d, t))
    )
    assert review == review_hand(record, 0, seed=3, samples=2, budget=None)
    assert any(d.grade for d in review.decisions) or review.accuracy == 100.0
    total = len(review.decisions)
    assert total > 0 and seen == [(i, total) for i in range(total + 1)]
    assert runner.worker_pids()  # it ran in a worker process


async def test_a_review_with_a_time_budget_plays_at_least_a_few_worlds_per_costly_decision(
    runner: ProcessPolicyRunner,
) -> None:
    record = played("euchre", seed=8)
    review = await review_in_workers(runner, record, 0, seed=1, budget=0.15)
    judged = [d for d in review.decisions if d.best_value is not None]
    assert judged and all(d.samples >= 3 for d in judged)


async def test_the_inline_runner_gives_the_same_review() -> None:
    record = played("dutch", 2)
    review = await review_in_workers(InlinePolicyRunner(), record, 1, samples=2, budget=None)
    assert review == review_hand(record, 1, samples=2, budget=None)


async def test_a_piece_whose_worker_dies_fails_the_review_and_the_next_review_runs(
    runner: ProcessPolicyRunner,
) -> None:
    with pytest.raises(ChoreFailed) as failed:
        await runner.chore(deciders.DiesInAChore(), 0.1)
    assert failed.value.reason == DIED
    record = played("euchre", 2)
    review = await review_in_workers(runner, record, 2, samples=2, budget=None)
    assert review == review_hand(record, 2, samples=2, budget=None)


async def test_a_piece_whose_worker_is_stopped_fails_at_its_deadline_and_the_next_review_runs() -> (
    None
):
    """A worker stopped (SIGSTOP: hung, not dead) while it holds a review's piece: the piece
    fails `TIMED_OUT` once its budget and `hang` are past, the worker is replaced, and the
    next review runs on the new one."""
    clock = FakeClock()
    runner = ProcessPolicyRunner(1, clock=clock)
    try:
        await runner.chore(deciders.KeptRounds(), 0.1)  # a worker up and answering
        (stopped,) = runner.worker_pids()
        os.kill(stopped, signal.SIGSTOP)
        piece = runner.chore(deciders.KeptRounds(), 0.1)
        await clock.advance(0.1 + runner.hang)
        with pytest.raises(ChoreFailed) as failed:
            await piece
        assert failed.value.reason == TIMED_OUT
        record = played("euchre", 2)
        review = await review_in_workers(runner, record, 2, samples=2, budget=None)
        assert review == review_hand(record, 2, samples=2, budget=None)
        assert stopped not in runner.worker_pids()
    finally:
        runner.close()
