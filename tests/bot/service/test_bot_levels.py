"""A table's `bots` option (simple or strong, strong by default, the guild's default when not
given) picks its bot players' policy, survives a restart, and strong bots decide in a worker
process for the real bot."""

from __future__ import annotations

import os
import pickle
import random
import select
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.runtime.policy import SeatPolicy, policy_for
from bot.runtime.runner import InlinePolicyRunner, ProcessPolicyRunner, decide_here
from bot.service import FakeClock, RecordingNotifier, TableError, TableService
from games.contract import Round, RoundSetup
from games.dutch.bots import policy as dutch_simple
from games.dutch.bots import strong as dutch_strong
from games.euchre import GAME as EUCHRE
from games.registry import get_game
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD


class CountingRunner(InlinePolicyRunner):
    """Decides in this process and remembers the level of every decision."""

    def __init__(self) -> None:
        self.levels: list[str] = []

    def think(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: Any, **where: Any
    ) -> Awaitable[Any]:
        self.levels.append(level)
        return super().think(round_, seat, level, rng, **where)


def test_strong_level_picks_the_game_s_strong_module_and_keeps_the_safe_default() -> None:
    dutch = get_game("dutch")
    assert policy_for(dutch, "strong")._choose is dutch_strong.choose_action
    assert policy_for(dutch, "simple")._choose is dutch_simple.choose_action
    assert policy_for(dutch, "strong")._default is dutch_simple.default_action
    assert policy_for(dutch)._choose is dutch_strong.choose_action  # strong by default


@pytest.mark.parametrize("bots", [None, "simple", "strong"])
async def test_table_bots_follow_the_option_or_the_guild_default(
    store: Store, clock: FakeClock, seeds: Callable[[], int], bots: str | None
) -> None:
    settings = await store.get_guild_settings(GUILD)
    assert settings.bots == "strong"
    await store.save_guild_settings(settings.model_copy(update={"bots": "simple"}))
    runner = CountingRunner()
    service = TableService(store, clock, RecordingNotifier(), seeds, policy_runner=runner)
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", bots=bots)
    await service.seating.add_bot(snapshot.table_id, ANN.user_id)
    await service.seating.start(snapshot.table_id, ANN.user_id)
    await service.play.act(snapshot.table_id, ANN.user_id, 0, "peek 3 4")  # the bot peeks too
    await service.followup.settle(snapshot.table_id)
    assert runner.levels and set(runner.levels) == {bots or "simple"}


async def test_the_bots_option_survives_a_restart_and_a_bad_value_is_refused(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", bots="simple")
    await service.seating.join(snapshot.table_id, BOB)
    with pytest.raises(TableError) as refused:
        await service.seating.open_table(GUILD, CHANNEL + 1, BOB, "dutch", bots="genius")
    assert refused.value.key == "bad_option"
    options = service._table(snapshot.table_id).options
    await store.close()
    reopened = await Store.open(db_path, synchronous="NORMAL")
    try:
        again = TableService(reopened, FakeClock(), RecordingNotifier(), seeds)
        await again.restoring.restore()
        assert again._table(snapshot.table_id).bots == "simple"
        assert again._table(snapshot.table_id).options == options
    finally:
        await reopened.close()


async def test_the_process_runner_decides_a_legal_move_in_a_worker_process() -> None:
    round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="worker")
    runner = ProcessPolicyRunner()
    try:
        move = await runner.choose(round_, 1, "strong", random.Random(0))
        workers = runner.worker_pids()
    finally:
        runner.close()
    assert move in round_.legal_actions(1)  # an interned action again, not a copy
    assert workers and runner.worker_pids() == []
    for pid in workers:  # stopped and reaped, not left to outlive this process
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_the_process_runner_reads_the_round_when_asked_not_when_the_worker_starts() -> None:
    """The table's lock is free while its bot thinks: the worker decides for the round as it
    was when asked, whatever happens to the live round meanwhile."""
    round_ = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="asked")
    asked = pickle.dumps(round_)
    runner = ProcessPolicyRunner()
    try:
        thinking = runner.think(round_, 1, "simple", random.Random(0))
        round_.apply(1, round_.legal_actions(1)[0])  # the table moves on meanwhile
        move = await thinking
    finally:
        runner.close()
    assert str(move) == str(decide_here(asked, 1, "simple", random.Random(0).getrandbits(64)))


WORKER_OF_A_KILLED_BOT = """
import asyncio, os, random
from bot.runtime.runner import ProcessPolicyRunner
from games.contract import RoundSetup
from games.euchre import GAME

async def main():
    runner = ProcessPolicyRunner()
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4), seed="killed")
    await runner.choose(round_, 1, "simple", random.Random(0))
    print(runner.worker_pids()[0], flush=True)
    os._exit(0)  # gone without closing its runner, as a bot killed outright

asyncio.run(main())
"""


def test_the_worker_process_exits_when_the_bot_process_dies_without_closing_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WORKER_OF_A_KILLED_BOT],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    worker = int(done.stdout.split()[-1])
    try:
        handle = os.pidfd_open(worker)  # readable once the process has exited
    except ProcessLookupError:
        return  # already gone
    try:
        readable, _, _ = select.select([handle], [], [], 30)
    finally:
        os.close(handle)
    assert readable, f"the worker {worker} outlived its bot process"


def test_a_searching_policy_searches_for_the_smaller_of_its_budget_and_the_time_left() -> None:
    budgets: list[float] = []

    def choose_action(round_: Any, seat: int, rng: Any, *, budget: float = 0.12) -> str:
        budgets.append(budget)
        return "move"

    policy = SeatPolicy(None, SimpleNamespace(choose_action=choose_action))  # type: ignore[arg-type]
    rng = random.Random(0)
    for left in (0.05, 0.5, None):
        assert policy.choose(EUCHRE_ROUND, 1, rng, budget=left) == "move"
    assert budgets == [0.05, 0.12, 0.12]


EUCHRE_ROUND = EUCHRE.new_round(EUCHRE.options(), RoundSetup(n_seats=4), seed="budget")
