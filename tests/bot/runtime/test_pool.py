"""The pool of bot workers: tables take turns for the workers, every decision has a deadline
after which the simple policy plays, a stuck, dead or babbling worker is replaced, and under
overload the budget shrinks and late decisions are played simply, counted. Workers here are
fakes the test answers by hand, on a fake clock."""

from __future__ import annotations

import asyncio
import itertools
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.runtime.policy import policy_for
from bot.runtime.pool import ANSWER_MARGIN, MIN_BUDGET, PIPELINE, DecisionPool
from bot.runtime.pool_terms import DEADLINE, DIED, ERROR, FORCED, GARBAGE, HERE, OVERLOAD, SEARCHED
from bot.runtime.worker import CHORE, KEEP, Answer, Job, Kept, Misfit, WorkerEvents, round_for
from bot.service import FakeClock
from games.contract import Round, RoundSetup
from games.euchre import GAME as EUCHRE
from games.registry import get_game

SEAT = 1  # the first to bid in a new Euchre round


class FakeWorker:
    """A worker that keeps the jobs it is sent, and the rounds by table as a worker does (the
    real `round_for`, as each job comes); the test answers for it."""

    def __init__(self, events: WorkerEvents, pid: int, keep: int = KEEP) -> None:
        self.events = events
        self.pid = pid
        self.jobs: list[Job] = []
        self.rounds: Kept[tuple[int, Any]] = Kept(keep)
        self.asked: list[bytes | Misfit | None] = []  # per job, the state decided for
        self.answered = 0
        self.killed = False

    @property
    def busy(self) -> bool:
        return len(self.jobs) > self.answered

    def send(self, job: Job) -> int:
        self.jobs.append(job)
        asked: bytes | Misfit | None = None
        if job.kind != CHORE:
            try:  # the state as it is now: later jobs move the round kept on
                asked = pickle.dumps(round_for(job, self.rounds))
            except Misfit as misfit:
                asked = misfit
        self.asked.append(asked)
        return len(pickle.dumps(tuple(job)))

    def kill(self) -> None:
        self.killed = True

    def reap(self) -> None:
        pass

    def answer(
        self,
        notation: str | None = None,
        *,
        error: str | None = None,
        wall: float = 0.1,
        skipped: bool = False,
    ) -> None:
        """Answer the oldest job not answered yet (a worker answers in order); a job whose
        actions did not follow the round kept is answered as a misfit, as a worker does."""
        job, asked = self.jobs[self.answered], self.asked[self.answered]
        self.answered += 1
        if isinstance(asked, Misfit):
            self.events.answered(Answer(job=job.id, error=str(asked), misfit=True))
            return
        if notation is None and error is None and not skipped:
            assert asked is not None
            round_ = pickle.loads(asked)
            move = policy_for(EUCHRE, job.level).choose(round_, job.seat, random.Random(job.seed))
            notation = str(move)
        answer = Answer(
            job=job.id, notation=notation, error=error, cpu=0.01, wall=wall, skipped=skipped
        )
        self.events.answered(answer)


class Workers:
    """The factory the pool starts its workers with, and every worker it made."""

    def __init__(self, keep: int = KEEP) -> None:
        self.made: list[FakeWorker] = []
        self._pids: Iterator[int] = itertools.count(1000)
        self._keep = keep

    def __call__(self, events: WorkerEvents) -> FakeWorker:
        worker = FakeWorker(events, next(self._pids), self._keep)
        self.made.append(worker)
        return worker

    def ready(self) -> list[FakeWorker]:
        for worker in self.made:
            worker.events.ready()
        return self.made


def ready_pool(
    size: int, clock: FakeClock, **options: Any
) -> tuple[DecisionPool, list[FakeWorker]]:
    """A pool of `size` fake workers on `clock`, every one started and ready."""
    workers = Workers(options.get("keep", KEEP))
    pool = DecisionPool(size, workers, clock, **options)
    pool.warm()
    return pool, workers.ready()


@pytest.fixture
def round_() -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="pool")


def seed_of(rng_seed: int) -> int:
    return random.Random(rng_seed).getrandbits(64)


def simple_move(round_: Round[Any, Any, Any], rng_seed: int) -> Any:
    """The simple policy's move, as the pool plays it for a decision asked with this rng."""
    return policy_for(EUCHRE, "simple").choose(round_, SEAT, random.Random(seed_of(rng_seed)))


def strong_move(round_: Round[Any, Any, Any], rng_seed: int) -> Any:
    return policy_for(EUCHRE, "strong").choose(round_, SEAT, random.Random(seed_of(rng_seed)))


@pytest.mark.parametrize("size", [1, 2])
async def test_a_table_with_a_long_queue_delays_another_s_bots_by_the_decisions_sent_and_one_turn(
    round_: Round[Any, Any, Any], size: int
) -> None:
    workers = Workers()
    pool = DecisionPool(size, workers, FakeClock(), deadline=60.0)
    pool.warm()
    made = workers.ready()
    many = 2 * PIPELINE + 10
    busy = [pool.think(round_, SEAT, "strong", random.Random(i), table=1) for i in range(many)]
    # each worker was sent PIPELINE of table 1's at once; the rest wait in the pool
    assert [len(w.jobs) for w in made] == [PIPELINE] * size
    other = pool.think(round_, SEAT, "strong", random.Random(99), table=2)
    assert pool.waiting() == many - size * PIPELINE + 1
    first = made[0]
    first.answer()  # table 1's turn comes first (it asked first): its next decision
    assert first.jobs[-1].seed == seed_of(size * PIPELINE)
    made[-1].answer()  # then table 2's, not after table 1's remaining ones
    assert made[-1].jobs[-1].seed == seed_of(99)
    while made[-1].busy:
        made[-1].answer()
    assert await other == strong_move(round_, 99)
    while pool.waiting() or any(w.busy for w in made):
        for worker in made:
            if worker.busy:
                worker.answer()
    assert [await f for f in busy] == [strong_move(round_, i) for i in range(many)]
    assert not pool.stats.fallbacks
    pool.close()


async def test_with_two_workers_a_stuck_decision_holds_no_other_table(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    pool, (stuck, free) = ready_pool(2, clock)
    slow = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    quick = pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    assert len(stuck.jobs) == len(free.jobs) == 1
    free.answer()
    assert await quick == strong_move(round_, 2)
    assert not slow.done()
    await clock.advance(pool.deadline)
    assert slow.result() == simple_move(round_, 1)
    assert pool.stats.fallbacks == {DEADLINE: 1}
    again = pool.think(round_, SEAT, "strong", random.Random(3), table=2)
    assert len(free.jobs) == 2  # the free worker, never the stuck one
    free.answer()
    assert await again == strong_move(round_, 3)
    pool.close()


async def test_a_decision_past_its_deadline_is_played_simply_and_a_stuck_worker_replaced(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(1, workers, clock)
    pool.warm()
    (stuck,) = workers.ready()
    decision = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    await clock.advance(pool.deadline - 0.01)
    assert not decision.done()
    await clock.advance(0.01)
    assert decision.result() == simple_move(round_, 1)
    # the only worker is stuck: another table's bots are not held, they play simply at once
    other = pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    assert other.result() == simple_move(round_, 2)
    assert pool.stats.fallbacks == {DEADLINE: 1, OVERLOAD: 1}
    await clock.advance(pool.hang - pool.deadline)
    assert stuck.killed and pool.stats.replaced == 1
    (_, fresh) = workers.made
    assert pool.worker_pids() == [fresh.pid]
    fresh.events.ready()
    later = pool.think(round_, SEAT, "strong", random.Random(3), table=1)
    fresh.answer()
    assert await later == strong_move(round_, 3)
    stuck.answer()  # too late: its worker is gone, nothing changes
    assert pool.stats.fallbacks == {DEADLINE: 1, OVERLOAD: 1}
    pool.close()


async def test_a_late_answer_is_dropped_and_its_worker_decides_again(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock)
    decision = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    await clock.advance(pool.deadline)
    worker.answer()  # after the deadline, before the worker is taken for stuck
    assert decision.result() == simple_move(round_, 1)
    assert pool.stats.late == 1 and not worker.killed
    nxt = pool.think(round_, SEAT, "strong", random.Random(2), table=1)
    worker.answer()
    assert await nxt == strong_move(round_, 2)
    await clock.advance(pool.hang)
    assert not worker.killed and pool.stats.replaced == 0
    pool.close()


@pytest.mark.parametrize(
    ("answer", "reason", "replaced"),
    [
        ({"notation": "wave a white flag"}, GARBAGE, False),
        ({"error": "ValueError: no decision"}, ERROR, False),
        ({"lost": DIED}, DIED, True),
        ({"lost": GARBAGE}, GARBAGE, True),
        ({"wrong_job": True}, GARBAGE, True),
    ],
)
async def test_a_worker_that_answers_garbage_errs_or_dies_gets_the_simple_move_played(
    round_: Round[Any, Any, Any], answer: dict[str, Any], reason: str, replaced: bool
) -> None:
    workers = Workers()
    pool = DecisionPool(1, workers, FakeClock())
    pool.warm()
    (worker,) = workers.ready()
    decision = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    if "lost" in answer:
        worker.killed = True  # the handle kills what it loses, then reports
        worker.events.lost(answer["lost"])
    elif "wrong_job" in answer:
        worker.events.answered(Answer(job=worker.jobs[-1].id + 1, notation="pass"))
    else:
        worker.answer(answer.get("notation"), error=answer.get("error"))
    assert decision.result() == simple_move(round_, 1)
    assert pool.stats.fallbacks == {reason: 1}
    assert worker.killed is replaced and pool.stats.replaced == int(replaced)
    assert len(workers.made) == 1 + int(replaced)  # a new one starts at once
    pool.close()


async def test_a_decision_s_budget_is_its_share_of_its_aim_with_the_decisions_per_worker(
    round_: Round[Any, Any, Any],
) -> None:
    """Its aim: answered `aim` seconds after it was asked; shared with those sent to its
    worker before it and those waiting behind it in the pool; a minimal search at least."""
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(2, workers, clock)
    pool.warm()
    first, second = workers.ready()
    pool.think(round_, SEAT, "strong", random.Random(0), table=0)
    assert first.jobs[0].budget == pytest.approx(pool.aim)  # alone: all its time
    for t in range(1, 2 * PIPELINE + 9):  # 2 workers full, 9 more waiting in the pool
        pool.think(round_, SEAT, "strong", random.Random(t), table=t)
    assert pool.waiting() == 9
    assert second.jobs[0].budget == pytest.approx(pool.aim)  # nothing before it or behind
    assert first.jobs[1].budget == pytest.approx(pool.aim / 2)  # one before it in its worker
    await clock.advance(0.05)
    first.answer()
    sent = first.jobs[-1]  # sent now: 15 before it in its worker, 8 behind it for 2 workers
    assert sent.left == pytest.approx(pool.deadline - 0.05 - ANSWER_MARGIN)
    assert sent.budget == pytest.approx((pool.aim - 0.05) / (1 + 15 + 8 / 2))
    await clock.advance(pool.aim)
    first.answer()
    assert first.jobs[-1].budget == MIN_BUDGET  # past its aim: a minimal search
    pool.close()


CAP = 0.12  # the Euchre search's own budget, the most a decision takes in the simulation below


async def test_under_overload_the_budget_shrinks_with_the_queue_and_the_queue_drains(
    round_: Round[Any, Any, Any],
) -> None:
    """A decision every 10 ms for 2 s, on one worker whose decisions take their whole budget
    (at most the policy's own, 0.12 s: 8 a second): each search shrinks to its share of the
    time, so every decision is answered in time, none played simply."""
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock)
    start = clock.now()
    arrivals = [start + i * 0.01 for i in range(200)]
    asked: dict[asyncio.Future[Any], float] = {}  # decision -> when it was asked
    waits: list[float] = []  # asked -> answered, of each decision
    sent: dict[int, float] = {}  # job id -> when it was sent
    done_at: float | None = None  # when the worker answers the job it is on
    while arrivals or worker.busy:
        for job in worker.jobs[len(sent) :]:
            sent[job.id] = clock.now()
        if done_at is None and worker.busy:
            job = worker.jobs[worker.answered]
            left = (job.left or 0.0) - (clock.now() - sent[job.id])  # as `Job.budget_at`
            done_at = clock.now() + max(0.0, min(job.budget or CAP, CAP, left))
        if done_at is not None and (not arrivals or done_at <= arrivals[0]):
            await clock.advance(done_at - clock.now())
            worker.answer(notation="pass")
            done_at = None
            for future in [f for f in asked if f.done()]:
                waits.append(clock.now() - asked.pop(future))
            continue
        await clock.advance(arrivals.pop(0) - clock.now())
        future = pool.think(
            round_, SEAT, "strong", random.Random(len(asked)), table=len(asked) + len(waits)
        )
        asked[future] = clock.now()
    assert not pool.stats.fallbacks and pool.stats.decided == {"euchre": 200}
    assert len(waits) == 200 and max(waits) < pool.deadline
    # the first ones, sent before the queue grew, searched longer; then the waits hold near
    # the aim
    assert max(waits[100:]) < pool.aim + 0.05
    pool.close()


async def test_a_decision_with_no_room_for_a_minimal_search_is_played_simply_at_once(
    round_: Round[Any, Any, Any],
) -> None:
    """Its share of the time with every decision waiting or sent would be under MIN_BUDGET."""
    pool, _ = ready_pool(1, FakeClock())
    asked = [pool.think(round_, SEAT, "strong", random.Random(t), table=t) for t in range(250)]
    room = (pool.deadline - ANSWER_MARGIN) / MIN_BUDGET  # minimal searches before the deadline
    shed = [t for t, future in enumerate(asked) if future.done()]
    assert len(asked) - len(shed) == pytest.approx(room, abs=1)
    assert shed == list(range(len(asked) - len(shed), len(asked)))  # the last ones asked
    assert [asked[t].result() for t in shed] == [simple_move(round_, t) for t in shed]
    assert pool.stats.fallbacks == {OVERLOAD: len(shed)}
    pool.close()


async def test_a_decision_whose_time_ran_out_in_the_queue_or_its_worker_is_played_simply(
    round_: Round[Any, Any, Any],
) -> None:
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock, pipeline=2)
    first = pool.think(round_, SEAT, "strong", random.Random(0), table=0)
    in_worker = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    in_queue = pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    assert len(worker.jobs) == 2 and pool.waiting() == 1
    await clock.advance(pool.deadline - ANSWER_MARGIN)  # too late to search when it is free
    worker.answer()
    assert await first == strong_move(round_, 0)
    assert in_queue.result() == simple_move(round_, 2)  # never sent
    assert len(worker.jobs) == 2 and not in_worker.done()
    worker.answer(skipped=True)  # the worker found too little time left: nothing searched
    assert in_worker.result() == simple_move(round_, 1)
    assert pool.stats.fallbacks == {OVERLOAD: 2} and pool.stats.decided == {"euchre": 1}
    pool.close()


async def test_a_worker_never_ready_is_replaced_and_decisions_meanwhile_play_simply(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(1, workers, clock)
    decision = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    await clock.advance(pool.deadline)
    assert decision.result() == simple_move(round_, 1)
    assert pool.stats.fallbacks == {DEADLINE: 1}
    await clock.advance(60.0)
    assert workers.made[0].killed and pool.stats.replaced == 1
    assert pool.stats.fallbacks == {DEADLINE: 1}  # nothing was on it
    pool.close()


async def test_close_stops_the_workers_and_cancels_what_waits(
    round_: Round[Any, Any, Any],
) -> None:
    pool, (worker,) = ready_pool(1, FakeClock(), deadline=60.0)
    taken = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    queued = pool.think(round_, SEAT, "strong", random.Random(2), table=2)
    pool.close()
    assert worker.killed and taken.cancelled() and queued.cancelled()
    with pytest.raises(asyncio.CancelledError):
        await queued


class Observer:
    def __init__(self) -> None:
        self.decisions: list[tuple[str, float, str]] = []
        self.restarts = 0

    def decision(self, game: str, seconds: float, how: str = SEARCHED) -> None:
        self.decisions.append((game, seconds, how))

    def worker_restarted(self) -> None:
        self.restarts += 1


async def test_the_observer_hears_of_every_decision_how_it_was_made_and_every_restart(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    clock = FakeClock()
    observer = Observer()
    pool = DecisionPool(1, workers, clock, observer=observer)
    pool.warm()
    (worker,) = workers.ready()
    searched = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    await clock.advance(0.25)
    worker.answer()
    await searched
    late = pool.think(round_, SEAT, "strong", random.Random(2), table=1)
    await clock.advance(pool.hang)
    await late
    assert observer.decisions == [
        ("euchre", 0.25, SEARCHED),
        ("euchre", pool.deadline, DEADLINE),
    ]
    assert observer.restarts == 1
    pool.close()


async def test_a_ping_is_answered_once_a_worker_is_ready_and_not_stuck(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    clock = FakeClock()
    pool = DecisionPool(1, workers, clock)
    ping = asyncio.ensure_future(pool.ping())
    await asyncio.sleep(0)  # the ping waits: the worker is starting
    assert not ping.done()
    (worker,) = workers.ready()
    await ping
    pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    await clock.advance(pool.deadline)  # the worker is stuck now
    ping = asyncio.ensure_future(pool.ping())
    await asyncio.sleep(0)
    assert not ping.done()
    worker.answer()  # late, but it answers: no longer stuck
    await ping
    pool.close()


def one_move_left() -> tuple[Round[Any, Any, Any], int]:
    """A Euchre round played by simple bots until the seat to act has one legal move."""
    round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="forced")
    simple, rng = policy_for(EUCHRE, "simple"), random.Random(0)
    while True:
        seat = round_.to_act()[0]
        if len(round_.legal_actions(seat)) == 1:
            return round_, seat
        round_.apply(seat, simple.choose(round_, seat, rng))


async def test_a_seat_with_one_legal_move_plays_it_without_asking_a_worker() -> None:
    workers = Workers()
    observer = Observer()
    pool = DecisionPool(1, workers, FakeClock(), observer=observer)
    pool.warm()
    (worker,) = workers.ready()
    round_, seat = one_move_left()
    forced = pool.think(round_, seat, "strong", random.Random(1), table=1)
    assert forced.result() is round_.legal_actions(seat)[0]
    assert not worker.jobs and pool.stats.forced == {"euchre": 1}
    assert observer.decisions == [("euchre", 0.0, FORCED)]
    pool.close()


async def test_a_game_that_does_not_list_every_move_asks_its_worker_even_for_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Dame player offered one lay may still lay a bigger pack: only the policy knows."""
    pool, (worker,) = ready_pool(1, FakeClock())
    round_, seat = one_move_left()
    monkeypatch.setattr(type(round_), "lists_every_move", False)
    asked = pool.think(round_, seat, "strong", random.Random(1), table=1)
    assert len(worker.jobs) == 1 and not asked.done()
    pool.close()


@pytest.mark.parametrize(
    ("game", "level"), [("dutch", "strong"), ("dame", "strong"), ("euchre", "simple")]
)
async def test_a_bot_that_does_not_search_decides_here_without_a_worker(
    game: str, level: str
) -> None:
    """A heuristic's decision costs less than a worker's round trip, and waits behind no
    search: it is made at once, as a worker would make it (the same generator's seed)."""
    observer = Observer()
    pool, (worker,) = ready_pool(1, FakeClock(), observer=observer)
    rules = get_game(game)
    round_ = rules.new_round(rules.options(), RoundSetup(n_seats=4), seed="here")
    seat = round_.to_act()[0]
    asked = pool.think(round_, seat, level, random.Random(1), table=1)
    expected = policy_for(rules, level).choose(round_, seat, random.Random(seed_of(1)))
    assert asked.result() == expected
    assert not worker.jobs and pool.stats.here == {game: 1}
    assert observer.decisions == [(game, 0.0, HERE)]
    pool.close()


async def test_a_heuristic_that_fails_here_gets_the_simple_move_played(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    rules = get_game("dutch")
    round_ = rules.new_round(rules.options(), RoundSetup(n_seats=4), seed="fails")
    seat = round_.to_act()[0]
    strong = policy_for(rules, "strong")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(strong, "_choose", broken)
    asked = pool.think(round_, seat, "strong", random.Random(1), table=1)
    simple = policy_for(rules, "simple").choose(round_, seat, random.Random(seed_of(1)))
    assert asked.result() == simple and not worker.jobs
    assert any("dutch bot failed" in r.getMessage() for r in caplog.records)
    pool.close()
