"""Real bot worker processes that hang, die mid-answer or answer garbage: the decision is
played by the simple policy (at its deadline, on the fake clock, or at once when the worker is
lost), and the worker is replaced by a new process that answers again. A job that waited in
its worker behind others searches only the time it has left, or is skipped."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import signal
from collections.abc import Callable
from typing import Any

import pytest

from bot.runtime.policy import policy_for
from bot.runtime.pool_terms import DEADLINE, DIED, GARBAGE, OVERLOAD
from bot.runtime.runner import ProcessPolicyRunner
from bot.runtime.worker import (
    MIN_BUDGET,
    NICENESS,
    READY,
    Answer,
    Decide,
    Job,
    ProcessWorker,
    decode_answer,
    encode_answer,
    work,
)
from bot.service import FakeClock, RecordingNotifier, TableService
from games.contract import Round, RoundSetup
from games.euchre import GAME as EUCHRE
from storage import Store
from tests.bot.runtime import deciders
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD
from tests.bot.service.test_followup import QUIET_DEAL

SEAT = 1


@pytest.fixture
def round_() -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="workers")


def simple_move(round_: Round[Any, Any, Any], rng_seed: int) -> Any:
    seed = random.Random(rng_seed).getrandbits(64)
    return policy_for(EUCHRE, "simple").choose(round_, SEAT, random.Random(seed))


def runner_with(decider: Decide, clock: FakeClock) -> ProcessPolicyRunner:
    return ProcessPolicyRunner(1, clock=clock, decider=decider)


async def test_a_stopped_worker_s_decision_is_played_simply_and_the_worker_replaced(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    runner = ProcessPolicyRunner(1, clock=clock)
    try:
        await runner.choose(round_, SEAT, "strong", random.Random(0))  # it is up and answering
        (stopped,) = runner.worker_pids()
        os.kill(stopped, signal.SIGSTOP)  # as a worker stuck for good
        decision = runner.think(round_, SEAT, "strong", random.Random(1), table=1)
        await clock.advance(runner.deadline)
        assert decision.result() == simple_move(round_, 1)
        other = runner.think(round_, SEAT, "strong", random.Random(2), table=2)
        assert other.result() == simple_move(round_, 2)  # not held by the stuck one
        await clock.advance(runner.hang)
        (fresh,) = runner.worker_pids()
        assert fresh != stopped
        move = await runner.choose(round_, SEAT, "strong", random.Random(3))
        assert move in round_.legal_actions(SEAT)
        assert runner.stats.fallbacks == {DEADLINE: 1, OVERLOAD: 1}
        assert runner.stats.replaced == 1
    finally:
        runner.close()
    with pytest.raises(ProcessLookupError):  # killed and reaped, though it was stopped
        os.kill(stopped, 0)


async def test_a_worker_that_hangs_on_a_decision_is_replaced(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    runner = runner_with(deciders.hangs_after_first, clock)
    try:
        await runner.choose(round_, SEAT, "strong", random.Random(0))
        (hung,) = runner.worker_pids()
        decision = runner.think(round_, SEAT, "strong", random.Random(1), table=1)
        await clock.advance(runner.hang)
        assert decision.result() == simple_move(round_, 1)
        (fresh,) = runner.worker_pids()
        assert fresh != hung and runner.stats.replaced == 1
        assert await runner.choose(round_, SEAT, "simple", random.Random(2)) == simple_move(
            round_, 2
        )  # the new worker answers its first decision
    finally:
        runner.close()


async def test_a_worker_that_dies_mid_answer_has_its_decision_played_simply_at_once(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    runner = runner_with(deciders.dies_mid_answer, clock)
    try:
        runner.warm()
        (dead,) = runner.worker_pids()
        move = await runner.think(round_, SEAT, "strong", random.Random(1), table=1)
        assert move == simple_move(round_, 1)  # no deadline passed: the clock never moved
        assert runner.stats.fallbacks == {DIED: 1} and runner.stats.replaced == 1
        (fresh,) = runner.worker_pids()
        assert fresh != dead
    finally:
        runner.close()


@pytest.mark.parametrize(
    ("decider", "replaced"), [(deciders.babbles, 1), (deciders.talks_nonsense, 0)]
)
async def test_a_worker_that_answers_garbage_has_its_decision_played_simply(
    round_: Round[Any, Any, Any], decider: Decide, replaced: int
) -> None:
    clock = FakeClock()
    runner = runner_with(decider, clock)
    try:
        move = await runner.think(round_, SEAT, "strong", random.Random(1), table=1)
        assert move == simple_move(round_, 1)
        assert runner.stats.fallbacks == {GARBAGE: 1} and runner.stats.replaced == replaced
        assert len(runner.worker_pids()) == 1
    finally:
        runner.close()


async def test_tables_whose_bots_worker_is_stopped_play_on_with_simple_moves(
    store: Store, clock: FakeClock, seeds: Callable[[], int]
) -> None:
    """A stuck worker, as reported: two tables of a human and three bots, the worker stopped
    (SIGSTOP). Each table's first bot waits for its deadline, the others do not wait at all."""
    runner = ProcessPolicyRunner(1, clock=clock)
    service = TableService(store, clock, RecordingNotifier(), seeds, policy_runner=runner)
    try:
        round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="warm")
        await runner.choose(round_, SEAT, "strong", random.Random(0))
        (stopped,) = runner.worker_pids()
        os.kill(stopped, signal.SIGSTOP)
        tables = []
        for channel, human in ((CHANNEL, ANN), (CHANNEL + 1, BOB)):
            opened = await service.seating.open_table(GUILD, channel, human, "euchre")
            for _ in range(3):
                await service.seating.add_bot(opened.table_id, human.user_id)
            service.stack_deck(opened.table_id, QUIET_DEAL)
            await service.seating.start(opened.table_id, human.user_id)
            tables.append(opened.table_id)
        assert all(service.public_snapshot(t).to_act == (1,) for t in tables)
        await clock.advance(runner.deadline)
        for table_id in tables:
            await service.followup.settle(table_id)
            assert service.public_snapshot(table_id).to_act == (0,)  # the human's turn again
        assert runner.stats.fallbacks[DEADLINE] >= 1
        assert sum(runner.stats.fallbacks.values()) == 6  # the three bots of each table
        assert runner.stats.decided == {"euchre": 1}  # the first decision only, before the stop
    finally:
        await service.close()
        runner.close()


async def test_a_warmed_fork_server_starts_workers_that_answer(
    round_: Round[Any, Any, Any],
) -> None:
    runner = ProcessPolicyRunner(1, clock=FakeClock())
    try:
        runner.prepare().join()
        move = await runner.choose(round_, SEAT, "strong", random.Random(0))
        assert move in round_.legal_actions(SEAT)
    finally:
        runner.close()


def test_a_job_that_waited_in_its_worker_searches_only_the_time_it_has_left(
    round_: Round[Any, Any, Any],
) -> None:
    budgets: list[float | None] = []
    pickled = pickle.dumps(round_)

    def decider(asked: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
        budgets.append(budget)
        return "pass"

    now = 1_000.0  # the worker's CLOCK_MONOTONIC, held: a busy machine changes nothing

    def held() -> float:
        return now

    waited = Job(1, pickled, SEAT, "strong", 0, left=0.95, sent=now - 0.5)
    assert work(waited, decider, held).notation == "pass"
    smaller = Job(2, pickled, SEAT, "strong", 0, budget=0.1, left=0.95, sent=now - 0.5)
    assert work(smaller, decider, held).notation == "pass"
    assert budgets == [pytest.approx(0.45), 0.1]
    late = Job(3, pickled, SEAT, "strong", 0, left=0.95, sent=now - 0.95 + MIN_BUDGET / 2)
    assert work(late, decider, held) == Answer(job=3, skipped=True)  # nothing searched
    assert len(budgets) == 2


class Heard:
    """What a worker reports, for a test that drives a `ProcessWorker` itself."""

    def __init__(self, answers: int) -> None:
        loop = asyncio.get_running_loop()
        self.up: asyncio.Future[None] = loop.create_future()
        self.all: asyncio.Future[list[Answer]] = loop.create_future()
        self._answers: list[Answer] = []
        self._expected = answers

    def ready(self) -> None:
        self.up.set_result(None)

    def answered(self, answer: Answer) -> None:
        self._answers.append(answer)
        if len(self._answers) == self._expected:
            self.all.set_result(self._answers)

    def lost(self, reason: str) -> None:
        self.all.set_exception(AssertionError(f"worker lost: {reason}"))


async def test_a_worker_yields_the_cpu_to_the_event_loop_that_answers_clicks() -> None:
    heard = Heard(0)
    worker = ProcessWorker(heard, deciders.tells_its_budget)
    try:
        await heard.up
        assert worker.pid is not None
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == min(mine + NICENESS, 19)
    finally:
        worker.kill()
        worker.reap()


async def test_a_job_sent_behind_another_counts_its_wait_in_the_worker(
    round_: Round[Any, Any, Any],
) -> None:
    """The handle stamps each job with the moment it sends it (`Job.sent`, CLOCK_MONOTONIC):
    the second job waits 0.3 s in the worker behind the first, and searches that much less."""
    heard = Heard(2)
    worker = ProcessWorker(heard, deciders.tells_its_budget)
    try:
        await heard.up
        for seed in (1, 2):  # the first takes 0.3 s
            worker.send(Job(seed, pickle.dumps(round_), SEAT, "strong", seed, left=5.0))
        first, second = (float(answer.notation or "") for answer in await heard.all)
        assert first <= 5.0
        assert second <= 5.0 - 0.3
    finally:
        worker.kill()
        worker.reap()


@pytest.mark.parametrize(
    "frame",
    [
        b"",  # shorter than an answer's header
        b"\x80\x04 not an answer",
        encode_answer(Answer(job=1, notation="pass"))[:-1] + b"\xff",  # not UTF-8
        encode_answer(Answer(job=1, skipped=True)) + b"pass",  # text where none goes
        encode_answer(Answer(job=1))[:-1] + b"\x09",  # no such kind of answer
    ],
)
def test_an_answer_frame_that_is_no_answer_is_refused(frame: bytes) -> None:
    with pytest.raises(ValueError):
        decode_answer(frame)


@pytest.mark.parametrize(
    "answer",
    [
        Answer(job=READY),
        Answer(job=1, notation="play JH", cpu=0.01, wall=0.02),
        Answer(job=2, error="ValueError: no decision", cpu=0.5),
        Answer(job=3, skipped=True),
        Answer(job=4, error="Misfit: table 1: nothing kept", misfit=True),
    ],
)
def test_an_answer_comes_back_as_it_was_sent(answer: Answer) -> None:
    assert decode_answer(encode_answer(answer)) == answer
