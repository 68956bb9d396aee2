"""Each worker keeps the rounds it was sent, by table, and the pool a mirror of what it keeps:
a table's round goes whole once, then only as the actions played since; a new round object (a
rollback, a new round) or a new worker gets it whole again; both sides drop the least recently
used table at the same job; a skipped or failed decision still moves the kept round on; a
delta that does not fit is never decided on; a fallback for a round that moved on ends quietly.
Fake workers (running the worker's own `round_for`) on a fake clock, and real workers last."""

from __future__ import annotations

import asyncio
import json
import logging
import pickle
import random
from typing import Any

import pytest

from bot.runtime.policy import policy_for
from bot.runtime.pool import DecisionPool
from bot.runtime.pool_terms import DEADLINE, DIED, MISFIT, Stale
from bot.runtime.worker import Job, Kept, ProcessWorker, work
from bot.service import FakeClock
from games.contract import Game, Round, RoundSetup
from games.dutch import GAME as DUTCH
from games.euchre import GAME as EUCHRE
from games.registry import get_game
from tests.bot.runtime import deciders
from tests.bot.runtime.test_pool import SEAT, FakeWorker, Workers, ready_pool, simple_move


@pytest.fixture
def round_() -> Round[Any, Any, Any]:
    return EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="kept")


def play(round_: Round[Any, Any, Any], moves: int) -> None:
    """`moves` actions by the simple policy."""
    rng = random.Random(len(round_.history))
    for _ in range(moves):
        seat = round_.to_act()[0]
        round_.apply(seat, policy_for(round_.game, "simple").choose(round_, seat, rng))


def state(round_: Round[Any, Any, Any]) -> dict[str, Any]:
    """Everything a round holds but what it remembers of its state's queries, those asked of
    it first (the caches they fill are then alike)."""
    for seat in range(round_.setup.n_seats):
        round_.view(seat)
        round_.legal_actions(seat)
        if hasattr(round_, "decision_view"):
            round_.decision_view(seat)
    round_.public_view()
    return {name: value for name, value in vars(round_).items() if name != "_memo"}


def replayed(round_: Round[Any, Any, Any], length: int) -> Round[Any, Any, Any]:
    """The round rebuilt from its record's first `length` actions."""
    record = round_.record()
    return round_.game.replay(record.model_copy(update={"actions": record.actions[:length]}))


def kept_round(worker: FakeWorker, table: int) -> Round[Any, Any, Any]:
    kept = worker.rounds.get(table)
    assert kept is not None
    return kept[1]  # type: ignore[no-any-return]


async def test_a_table_s_round_goes_whole_once_then_as_the_actions_played_since(
    round_: Round[Any, Any, Any],
) -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    first = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    worker.answer()
    await first
    play(round_, 2)
    seat = round_.to_act()[0]
    later = pool.think(round_, seat, "strong", random.Random(2), table=1)
    whole, delta = worker.jobs
    assert pickle.loads(whole.pickled).history == [] and whole.delta is None
    assert delta.pickled == b"" and delta.base == 0 and delta.token == whole.token
    assert delta.delta == tuple((s, str(a)) for s, a in round_.history)
    assert state(kept_round(worker, 1)) == state(replayed(round_, 2))
    worker.answer()
    move = policy_for(EUCHRE, "strong").choose(round_, seat, random.Random(delta.seed))
    assert await later == move
    assert pool.stats.whole == 1 and pool.stats.sent == 2
    pool.close()


async def test_a_new_round_object_is_sent_whole_again(round_: Round[Any, Any, Any]) -> None:
    """A store failure's rollback replays the round: a new object, maybe with fewer actions;
    the same object with the worker's copy's actions and more would go as a delta."""
    pool, (worker,) = ready_pool(1, FakeClock())
    play(round_, 3)
    pool.think(round_, round_.to_act()[0], "strong", random.Random(1), table=1)
    rolled_back = replayed(round_, 2)
    pool.think(rolled_back, rolled_back.to_act()[0], "strong", random.Random(2), table=1)
    same_state = replayed(round_, 3)
    pool.think(same_state, same_state.to_act()[0], "strong", random.Random(3), table=1)
    assert [job.delta for job in worker.jobs] == [None, None, None]
    assert len({job.token for job in worker.jobs}) == 3
    assert [len(pickle.loads(job.pickled).history) for job in worker.jobs] == [3, 2, 3]
    assert kept_round(worker, 1).history == same_state.history
    pool.close()


async def test_a_new_worker_is_sent_its_tables_rounds_whole(
    round_: Round[Any, Any, Any],
) -> None:
    workers = Workers()
    pool = DecisionPool(1, workers, FakeClock())
    pool.warm()
    (lost,) = workers.ready()
    first = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    lost.answer()
    await first
    lost.killed = True
    lost.events.lost(DIED)
    (_, fresh) = workers.made
    fresh.events.ready()
    assert pool.kept_tables() == [[]]
    again = pool.think(round_, SEAT, "strong", random.Random(2), table=1)
    (job,) = fresh.jobs
    assert job.delta is None and pickle.loads(job.pickled).history == []
    fresh.answer()
    await again
    pool.close()


async def test_of_two_free_workers_a_decision_goes_to_the_one_keeping_its_table_s_round(
    round_: Round[Any, Any, Any],
) -> None:
    pool, (first, second) = ready_pool(2, FakeClock())
    other = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="other")
    asked = [
        pool.think(other, SEAT, "strong", random.Random(0), table=0),  # to the first
        pool.think(round_, SEAT, "strong", random.Random(1), table=1),  # to the second
    ]
    first.answer()
    second.answer()
    await asyncio.gather(*asked)
    play(round_, 1)
    again = pool.think(round_, round_.to_act()[0], "strong", random.Random(2), table=1)
    assert len(first.jobs) == 1 and len(second.jobs) == 2  # both free: the one keeping it
    assert second.jobs[-1].delta == ((SEAT, str(round_.history[0][1])),)
    second.answer()
    await again
    pool.close()


async def test_the_pool_s_mirror_drops_the_tables_its_worker_drops_at_the_same_job() -> None:
    """Four rounds kept at most; decisions for eight tables in a random order, each table's
    round moving on: every job fits what the worker keeps (a delta to a round it dropped
    would be a misfit), and a round goes whole exactly when the worker no longer keeps it."""
    keep = 4
    pool, (worker,) = ready_pool(1, FakeClock(), keep=keep)
    rounds = [EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed=t) for t in range(8)]
    reference: Kept[Round[Any, Any, Any]] = Kept(keep)  # what a worker keeping `keep` keeps
    rng = random.Random(5)
    expected_whole = 0
    for _ in range(120):
        table = rng.randrange(8)
        round_ = rounds[table]
        if round_.finished or not round_.to_act():
            round_ = rounds[table] = EUCHRE.new_round(
                EUCHRE.options(), RoundSetup(n_seats=4), seed=rng.random()
            )
        sent = len(worker.jobs)
        asked = pool.think(round_, round_.to_act()[0], "strong", rng, table=table)
        if len(worker.jobs) > sent:  # not a forced move
            expected_whole += reference.get(table) is not round_  # not kept, or another round
            reference.put(table, round_)
            assert worker.jobs[-1].delta is None or reference.get(table) is round_
            assert pool.kept_tables() == [worker.rounds.order()] == [reference.order()]
            worker.answer(notation="pass")  # what it answers does not matter here
        await asyncio.gather(asked, return_exceptions=True)
        play(round_, 1)
    assert not [a for a in worker.asked if isinstance(a, Exception)]  # no misfit
    assert pool.stats.whole == expected_whole < pool.stats.sent
    pool.close()


def test_a_skipped_or_failed_decision_still_moves_the_kept_round_on(
    round_: Round[Any, Any, Any],
) -> None:
    """The worker follows every job it is sent, whatever becomes of its decision: the next
    delta, sent after them, fits."""
    rounds: Kept[tuple[int, Any]] = Kept(4)
    now = 1_000.0

    def clock() -> float:
        return now

    def fails(asked: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
        raise ValueError("no decision")

    def delta(start: int, end: int) -> tuple[tuple[int, str], ...]:
        return tuple((s, str(a)) for s, a in round_.history[start:end])

    play(round_, 3)
    whole = Job(1, pickle.dumps(replayed(round_, 1)), SEAT, "strong", 0, key=1, token=7)
    assert work(whole, fails, clock, rounds=rounds).error == "ValueError: no decision"
    late = Job(2, b"", SEAT, "strong", 0, left=0.5, sent=now - 1.0, key=1, token=7, base=1)
    late = late._replace(delta=delta(1, 2))
    assert work(late, fails, clock, rounds=rounds).skipped
    failed = Job(3, b"", SEAT, "strong", 0, key=1, token=7, base=2, delta=delta(2, 3))
    assert work(failed, fails, clock, rounds=rounds).error == "ValueError: no decision"
    kept = rounds.get(1)
    assert kept is not None and state(kept[1]) == state(replayed(round_, 3))


@pytest.mark.parametrize(
    ("token", "base", "reason"),
    [(8, 1, "another round"), (7, 0, "at other actions"), (7, 1, "an illegal action")],
)
def test_a_delta_that_does_not_fit_the_kept_round_is_not_decided_on(
    round_: Round[Any, Any, Any], token: int, base: int, reason: str
) -> None:
    rounds: Kept[tuple[int, Any]] = Kept(4)
    decided: list[Any] = []

    def decider(asked: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
        decided.append(asked)
        return "pass"

    play(round_, 2)
    whole = Job(1, pickle.dumps(replayed(round_, 1)), SEAT, "strong", 0, key=1, token=7)
    work(whole, decider, rounds=rounds)
    actions = tuple((s, str(a)) for s, a in round_.history[1:2])
    if reason == "an illegal action":
        actions = ((actions[0][0], "play AS"),)  # nobody plays a card while bidding
    misfit = Job(2, b"", SEAT, "strong", 0, key=1, token=token, base=base, delta=actions)
    answer = work(misfit, decider, rounds=rounds)
    assert answer.misfit and answer.error and answer.notation is None
    assert len(decided) == 1 and rounds.get(1) is None  # dropped: the next one goes whole


async def test_a_misfit_is_logged_played_simply_and_its_table_sent_whole_next(
    round_: Round[Any, Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    pool, (worker,) = ready_pool(1, FakeClock())
    first = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    worker.answer()
    await first
    worker.rounds.drop(1)  # a bug: the worker lost the table's round
    broken = pool.think(round_, SEAT, "strong", random.Random(2), table=1)
    assert worker.jobs[-1].delta == ()
    worker.answer()
    assert await broken == simple_move(round_, 2)
    assert pool.stats.fallbacks == {MISFIT: 1}
    assert any(r.levelno == logging.ERROR and "table 1" in r.getMessage() for r in caplog.records)
    assert pool.kept_tables() == [[]]
    again = pool.think(round_, SEAT, "strong", random.Random(3), table=1)
    assert worker.jobs[-1].delta is None
    worker.answer()
    await again
    pool.close()


async def test_a_fallback_for_a_round_that_moved_on_ends_quietly(
    round_: Round[Any, Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """At its deadline, a decision whose round moved on (a click came first) ends `Stale`
    (the follow-up drops it), without deciding for a state gone by or logging an error; one
    whose round moved on before it could be sent is not sent."""
    clock = FakeClock()
    pool, (worker,) = ready_pool(1, clock, pipeline=1)
    sent = pool.think(round_, SEAT, "strong", random.Random(1), table=1)
    other = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="other")
    waiting = pool.think(other, SEAT, "strong", random.Random(2), table=2)
    play(round_, 1)
    play(other, 1)
    await clock.advance(pool.deadline)
    for future in (sent, waiting):
        with pytest.raises(Stale):
            future.result()
    assert pool.stats.fallbacks == {DEADLINE: 2}
    worker.answer()  # late: dropped
    waits = pool.think(other, other.to_act()[0], "strong", random.Random(3), table=2)
    mover = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="third")
    behind = pool.think(mover, SEAT, "strong", random.Random(4), table=3)
    play(mover, 1)  # before it could be sent whole
    worker.answer()
    await waits
    with pytest.raises(Stale):
        behind.result()
    assert pool.stats.stale == 1 and len(worker.jobs) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    pool.close()


async def test_rounds_kept_by_a_real_worker_equal_replays_after_many_decisions() -> None:
    """Policies never change the round they decide for: after every game's strong bots
    decided a round's moves (searches in a worker, heuristics here), the rounds the worker
    keeps and the live ones equal the rounds replayed from their records (and its tables are
    the pool's mirror's, in the same order)."""
    clock = FakeClock()
    pool = DecisionPool(1, lambda events: ProcessWorker(events), clock, aim=0.02)
    tables: dict[int, Round[Any, Any, Any]] = {}
    sent_at: dict[int, int] = {}  # per table, its round's actions when last sent to the worker
    try:
        for table, name in enumerate(("dutch", "euchre", "dame")):
            game: Game[Any, Any, Any] = get_game(name) if name != "dutch" else DUTCH
            round_ = tables[table] = game.new_round(
                game.options(), RoundSetup(n_seats=4), seed=f"kept-{name}"
            )
            rng = random.Random(table)
            for _ in range(40):
                if round_.finished:
                    break
                seat = round_.to_act()[0]
                asked = pool.think(round_, seat, "strong", rng, table=table)
                if not asked.done():  # not a forced move: sent
                    sent_at[table] = len(round_.history)
                round_.apply(seat, await asked)
        answer = json.loads(await pool.chore(deciders.KeptRounds(), 5.0))
        assert [[key for key, _ in answer]] == pool.kept_tables()
        for key, pickled in answer:
            kept = pickle.loads(bytes.fromhex(pickled))
            assert state(kept) == state(replayed(tables[key], len(kept.history)))
            assert len(kept.history) == sent_at[key]
        assert pool.stats.whole == len(sent_at) and not pool.stats.fallbacks
        # the heuristics (Dutch's and Dame's strong bots) decided here, on the live rounds,
        # and changed nothing in them either
        assert set(pool.stats.here) == {"dutch", "dame"} and set(sent_at) == {1}
        for round_ in tables.values():
            assert state(round_) == state(replayed(round_, len(round_.history)))
    finally:
        pool.close()
