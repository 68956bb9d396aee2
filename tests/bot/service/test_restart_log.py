"""A table's "Last actions" survive a restart: a service killed with SIGKILL at a moment of a
match and restarted on the same store (SQLite and PostgreSQL) shows the very log it showed,
lines from before the current round included (the previous match's end, the rematch, the new
match's start, a timeout). Also: a table stored before the log was kept (V14), and a damaged
kept log, restore with the log rebuilt from their round."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.service.table_log import kept
from storage import Store
from tests.storage.conftest import Location

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
        await service.restore()
        return json.loads(json.dumps([kept(e) for e in service.public_snapshot(table_id).log]))
    finally:
        await service.close()
        await store.close()


def kinds(log: list[Any]) -> list[str]:
    return [entry["kind"] for entry in log]


@pytest.mark.parametrize("game", ["dame", "dutch"])
async def test_a_kill_mid_round_restores_the_log_with_its_timeout_line(
    location: Location, tmp_path: Path, game: str
) -> None:
    table_id, shown = await killed_at(location, game, "mid_round", tmp_path)
    assert "timeout" in kinds(shown)  # a line no other write carried
    assert await restored_log(location, table_id) == shown


@pytest.mark.parametrize("game", ["dame", "dutch"])
async def test_a_kill_at_a_round_s_end_before_next_round_restores_the_same_log_and_back(
    location: Location, tmp_path: Path, game: str
) -> None:
    table_id, shown = await killed_at(location, game, "round_end", tmp_path)
    assert kinds(shown)[-2:] == ["round_over", "back"]  # back after being away: no other write
    assert await restored_log(location, table_id) == shown


@pytest.mark.parametrize("game", ["dame", "dutch"])
async def test_a_kill_after_a_match_end_a_rematch_and_a_new_round_keeps_their_lines(
    location: Location, tmp_path: Path, game: str
) -> None:
    """The issue's case: the lines before the current round (the previous match's end, the
    rematch, the new match's start) were lost, only the current round's rebuilt."""
    table_id, shown = await killed_at(location, game, "rematch", tmp_path)
    said = kinds(shown)
    for kind in ("match_over", "rematch", "started", "round_started"):
        assert kind in said
    assert said.index("match_over") < said.index("rematch") < said.index("started")
    assert await restored_log(location, table_id) == shown
