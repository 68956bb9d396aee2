"""A table's "Last actions" survive a restart: a service killed with SIGKILL at a moment of a
match and restarted on the same store (SQLite and PostgreSQL) shows the very log it showed,
lines from before the current round included (the previous match's end, the rematch, the new
match's start, a timeout). Also: a table stored before the log was kept (V14), and a damaged
kept log, restore with the log rebuilt from their round."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import subprocess
import sys
from itertools import count
from pathlib import Path
from typing import Any, cast

import pytest

from bot.service import FakeClock, RecordingNotifier, TableError, TableService
from bot.service._table_log import kept
from bot.service.followup import RETRY_SECONDS
from storage import Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    FailingStore,
    click_any,
    end_round_quickly,
    open_dutch,
    peek_all,
    user_at,
)
from tests.storage.conftest import Location, raw_sql

ROOT = Path(__file__).resolve().parents[3]
CHILD_SECONDS = 100  # a child that never reaches its moment has failed (it would hang)


@pytest.fixture(params=["sqlite", "postgresql"])
async def location(request: pytest.FixtureRequest, db_path: Path) -> Location:
    """Where the store lives, on both backends (as tests/storage's fixture of that name)."""
    if request.param == "sqlite":
        return db_path
    server = request.getfixturevalue("postgres_server")
    return str(await server.create_database())


async def killed_at(
    location: Location, game: str, moment: str, tmp_path: Path
) -> tuple[int, list[Any]]:
    """Run the service to `moment` in a child process, read the log it shows, SIGKILL it."""
    errors = (tmp_path / f"{game}-{moment}.err").open("w")
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.service.kill_table", str(location), game, moment],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
    )
    assert child.stdout is not None
    try:
        line = await asyncio.wait_for(asyncio.to_thread(child.stdout.readline), CHILD_SECONDS)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        errors.close()
    assert line, f"the service died first: {(tmp_path / f'{game}-{moment}.err').read_text()}"
    assert child.returncode == -signal.SIGKILL
    shown = json.loads(line)
    return shown["table_id"], shown["log"]


async def restored_log(location: Location, table_id: int) -> list[Any]:
    """The log a new service shows for the table once it is restored from the store."""
    store = await Store.open(location)
    seeds = count(500)
    clock = FakeClock(start=1_900_000_500.0)
    service = TableService(store, clock, RecordingNotifier(), seeds.__next__)
    try:
        await service.restoring.restore()
        return json.loads(json.dumps([kept(e) for e in service.public_snapshot(table_id).log]))
    finally:
        await service.close()
        await store.close()


def kinds(log: list[Any]) -> list[str]:
    return [entry["kind"] for entry in log]


@pytest.mark.parametrize("game", ["dame", "dutch"])  # Euchre's forced card plays itself first
async def test_a_kill_mid_round_restores_the_log_with_its_timeout_line(
    location: Location, tmp_path: Path, game: str
) -> None:
    table_id, shown = await killed_at(location, game, "mid_round", tmp_path)
    assert "timeout" in kinds(shown)  # a line no other write carried
    assert await restored_log(location, table_id) == shown


@pytest.mark.parametrize("game", ["dame", "dutch", "euchre"])
async def test_a_kill_at_a_round_s_end_before_next_round_restores_the_same_log_and_back(
    location: Location, tmp_path: Path, game: str
) -> None:
    table_id, shown = await killed_at(location, game, "round_end", tmp_path)
    assert kinds(shown)[-2:] == ["round_over", "back"]  # back after being away: no other write
    assert await restored_log(location, table_id) == shown


@pytest.mark.parametrize("game", ["dame", "dutch", "euchre"])
async def test_a_kill_after_a_match_end_a_rematch_and_a_new_round_keeps_their_lines(
    location: Location, tmp_path: Path, game: str
) -> None:
    """The case restarts got wrong: the lines before the current round (the previous match's
    end, the rematch, the new match's start) were lost, only the current round's rebuilt."""
    table_id, shown = await killed_at(location, game, "rematch", tmp_path)
    said = kinds(shown)
    for kind in ("match_over", "rematch", "started", "round_started"):
        assert kind in said
    assert said.index("match_over") < said.index("rematch") < said.index("started")
    assert await restored_log(location, table_id) == shown


async def played_a_little(location: Location) -> tuple[int, list[Any]]:
    """A Dutch table of Ann and Bob one click into its first round, the service then closed:
    the log it showed (its lobby's lines, the start, the round's)."""
    store = await Store.open(location)
    seeds = count(7)
    service = TableService(store, FakeClock(), RecordingNotifier(), seeds.__next__)
    try:
        table_id = await open_dutch(service, [ANN, BOB])
        await peek_all(service, table_id)
        before = service.public_snapshot(table_id)
        await service.play.act(table_id, user_at(before, before.to_act[0]), 0, "draw")
        log = json.loads(json.dumps([kept(e) for e in service.public_snapshot(table_id).log]))
    finally:
        await service.close()
        await store.close()
    return table_id, log


def this_round(log: list[Any]) -> list[Any]:
    """What a restore without a kept log rebuilds: the round's start and its lines."""
    return log[len(log) - 1 - kinds(log)[::-1].index("round_started") :]


async def test_a_table_stored_before_logs_were_kept_restores_with_its_round_s_lines(
    location: Location,
) -> None:
    table_id, shown = await played_a_little(location)
    # the database as a V14 bot left it: no kept log
    await raw_sql(location, "DROP TABLE table_logs")
    await raw_sql(location, "DELETE FROM schema_version WHERE version = 15")
    restored = await restored_log(location, table_id)
    assert restored == this_round(shown) != shown  # the lobby's lines were not kept then
    async with await Store.open(location) as store:
        assert store.schema_version >= 15


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("entries", "[{no json"),
        ("entries", '[{"kind": 5, "source": "elsewhere"}]'),
        ("round_no", 7),  # not the table's round: its later actions cannot be told
    ],
)
async def test_a_damaged_kept_log_restores_the_table_with_its_round_s_lines_and_a_warning(
    location: Location, caplog: pytest.LogCaptureFixture, column: str, value: object
) -> None:
    table_id, shown = await played_a_little(location)
    await raw_sql(
        location, f"UPDATE table_logs SET {column} = ? WHERE table_id = ?", (value, table_id)
    )
    with caplog.at_level(logging.WARNING, logger="bot.service.restore"):
        restored = await restored_log(location, table_id)
    assert restored == this_round(shown)
    assert any(f"table {table_id}: its kept log" in r.getMessage() for r in caplog.records)


async def test_a_line_the_store_failed_to_keep_is_shown_and_kept_by_the_table_s_next_change(
    store: Store, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A timeout's line is kept alone (no other write carries it): if that write fails, the
    line is shown all the same (a log line never undoes a move) and kept at the next change."""
    failing = FailingStore(store, "save_table_log")
    clock = FakeClock()
    seeds = count(7)
    service = TableService(cast(Store, failing), clock, RecordingNotifier(), seeds.__next__)
    try:
        table_id = await open_dutch(service, [ANN, BOB])
        deadline = service.public_snapshot(table_id).turn_deadline
        assert deadline is not None
        with caplog.at_level(logging.WARNING, logger="bot.service.tables"):
            await clock.advance(deadline - clock.now() + 1)  # the peeks time out
            await service.followup.settle(table_id)
        assert "timeout" in [e.kind for e in service.public_snapshot(table_id).log]
        assert any("log not kept" in r.getMessage() for r in caplog.records)
        failing.failing.clear()
        await click_any(service, table_id, random.Random(1))  # the next change keeps it
        shown = json.loads(json.dumps([kept(e) for e in service.public_snapshot(table_id).log]))
    finally:
        await service.close()
        await store.close()
    assert await restored_log(db_path, table_id) == shown


async def test_a_join_the_store_refuses_adds_no_line_and_a_restart_shows_none(
    store: Store, db_path: Path
) -> None:
    failing = FailingStore(store)
    service = TableService(
        cast(Store, failing), FakeClock(), RecordingNotifier(), count(7).__next__
    )
    try:
        table_id = (await service.seating.open_table(1, 10, ANN, "dutch")).table_id
        failing.failing.add("save_seats")
        with pytest.raises(TableError):
            await service.seating.join(table_id, BOB)
        shown = [kept(e) for e in service.public_snapshot(table_id).log]
        assert kinds(shown) == ["opened"]
    finally:
        await service.close()
        await store.close()
    assert await restored_log(db_path, table_id) == shown


async def test_a_round_the_store_refuses_to_deal_leaves_the_start_s_line_kept_alone(
    store: Store, db_path: Path
) -> None:
    """The match's start is stored, its first round's is not: the log says the match starts
    (kept alone at the lock's release), not that a round does."""
    failing = FailingStore(store, "start_round")
    service = TableService(
        cast(Store, failing), FakeClock(), RecordingNotifier(), count(7).__next__
    )
    try:
        table_id = await open_dutch(service, [ANN, BOB], start=False)
        with pytest.raises(TableError):
            await service.seating.start(table_id, ANN.user_id)
        shown = json.loads(json.dumps([kept(e) for e in service.public_snapshot(table_id).log]))
        assert kinds(shown)[-1] == "started"
    finally:
        await service.close()
        await store.close()
    assert await restored_log(db_path, table_id) == shown


async def test_a_round_end_the_store_refuses_is_said_once_when_it_is_stored(
    store: Store, db_path: Path
) -> None:
    failing = FailingStore(store, "finish_round")
    clock = FakeClock()
    service = TableService(cast(Store, failing), clock, RecordingNotifier(), count(7).__next__)
    try:
        table_id = await open_dutch(service, [ANN, BOB])
        await end_round_quickly(service, table_id)  # its end is refused, tried again later
        assert "round_over" not in kinds([kept(e) for e in service.public_snapshot(table_id).log])
        failing.failing.clear()
        await clock.advance(RETRY_SECONDS)
        await service.followup.settle(table_id)
        shown = json.loads(json.dumps([kept(e) for e in service.public_snapshot(table_id).log]))
        assert kinds(shown).count("round_over") == 1 and kinds(shown)[-1] == "round_over"
    finally:
        await service.close()
        await store.close()
    assert await restored_log(db_path, table_id) == shown
