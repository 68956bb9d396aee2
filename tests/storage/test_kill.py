"""Durability: a writer killed with SIGKILL at random moments loses no acknowledged action,
leaves nothing half-written, and every table still replays."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from storage import Store
from tests.storage.conftest import Location, resolve_toy, stored_seqs

ROOT = Path(__file__).resolve().parents[2]
TABLES = 40


def run_and_kill(location: Location, acks_path: Path, delay: float) -> None:
    errors_path = acks_path.with_suffix(".err")
    with acks_path.open("w") as acks, errors_path.open("w") as errors:
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.storage.kill_writer", str(location), str(TABLES)],
            cwd=ROOT,
            stdout=acks,
            stderr=errors,
        )
        deadline = time.monotonic() + 30
        while acks_path.stat().st_size == 0:  # wait for the first acknowledged action
            if child.poll() is not None or time.monotonic() > deadline:
                child.kill()
                child.wait()
                pytest.fail(f"writer never acknowledged: {errors_path.read_text()}")
            time.sleep(0.01)
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL, f"writer died first: {errors_path.read_text()}"


def acknowledged(acks_path: Path) -> dict[tuple[int, int], list[int]]:
    text = acks_path.read_text()
    lines = text.split("\n")[:-1]  # a last line without its newline was not fully printed
    acked: dict[tuple[int, int], list[int]] = defaultdict(list)
    for line in lines:
        table_id, round_no, seq = map(int, line.split())
        acked[(table_id, round_no)].append(seq)
    return acked


@pytest.mark.parametrize("run", range(5))
async def test_no_acknowledged_action_is_lost_when_the_writer_is_killed(
    location: Location, tmp_path: Path, run: int
) -> None:
    acks_path = tmp_path / "acks.txt"
    run_and_kill(location, acks_path, delay=random.Random(run).uniform(0.05, 0.8))
    acked = acknowledged(acks_path)
    assert acked, "the writer acknowledged nothing before it was killed"

    async with await Store.open(location, games_resolver=resolve_toy) as store:
        stored = await stored_seqs(location)  # read after the store recovered the WAL
        for seqs in stored.values():
            assert seqs == list(range(len(seqs)))  # no hole: nothing half-written
        for (table_id, round_no), seqs in acked.items():
            assert seqs == list(range(len(seqs)))  # acknowledged in order, one by one
            record = await store.load_round(table_id, round_no)
            # every acknowledged action is stored; anything stored beyond them is whole
            # (committed before the kill, acknowledged too late to be printed)
            assert len(record.actions) >= len(seqs)
        loaded = await store.load_active_tables()
        assert loaded.broken == []  # every stored log replays through the engine
        assert len(loaded.tables) == TABLES
        for active in loaded.tables:
            assert active.match is not None
            if active.round is None:  # killed between two rounds: the last one is finished
                assert active.match.round_no >= 1
                continue
            assert active.round_no is not None
            stored = await store.load_round(active.table.id, active.round_no)
            assert active.round.record() == stored
            assert len(stored.actions) >= len(acked.get((active.table.id, active.round_no), []))
