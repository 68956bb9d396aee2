"""Two processes on one PostgreSQL database, one shard each, both writing as fast as they can:
one is killed with SIGKILL at a random moment and restarted with the same shard. It restores
exactly its tables from PostgreSQL and plays on while the other never stops; no acknowledged
action of either is lost, and every table replays."""

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
from tests.postgres_server import PostgresServer
from tests.storage.conftest import resolve_toy, stored_seqs

ROOT = Path(__file__).resolve().parents[2]
TABLES = 15  # per process


def start(url: str, acks: Path, shard: int, *restore: str) -> subprocess.Popen[bytes]:
    command = ["-m", "tests.storage.kill_writer", url, str(TABLES), str(shard), "2", *restore]
    with acks.open("w") as out, acks.with_suffix(".err").open("w") as err:
        return subprocess.Popen([sys.executable, *command], cwd=ROOT, stdout=out, stderr=err)


def lines(acks: Path) -> list[str]:
    return acks.read_text().split("\n")[:-1]  # a last line without its newline was not printed


def wait_until(child: subprocess.Popen[bytes], acks: Path, at_least: int) -> None:
    deadline = time.monotonic() + 60
    while len(lines(acks)) < at_least:
        if child.poll() is not None or time.monotonic() > deadline:
            child.kill()
            pytest.fail(f"writer stopped acknowledging: {acks.with_suffix('.err').read_text()}")
        time.sleep(0.01)


def kill(child: subprocess.Popen[bytes]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait() == -signal.SIGKILL


def acknowledged(*files: Path) -> dict[tuple[int, int], set[int]]:
    acked: dict[tuple[int, int], set[int]] = defaultdict(set)
    for acks in files:
        for line in lines(acks):
            if not line.startswith("restored"):
                table_id, round_no, seq = map(int, line.split())
                acked[(table_id, round_no)].add(seq)
    return acked


async def test_a_killed_shard_process_restarts_from_postgresql_while_the_other_plays(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = await postgres_server.create_database()
    first, other = tmp_path / "shard0.txt", tmp_path / "shard1.txt"
    shard0 = start(url, first, 0)
    wait_until(shard0, first, 1)  # its tables exist (and the schema) before the other starts
    shard1 = start(url, other, 1)
    try:
        wait_until(shard1, other, 1)
        time.sleep(random.uniform(0.05, 0.5))
        kill(shard0)
        before_restart = len(lines(other))
        again = tmp_path / "shard0-again.txt"
        shard0 = start(url, again, 0, "restore")
        wait_until(shard0, again, 5)  # restored, and acknowledging again
        wait_until(shard1, other, before_restart + 5)  # the other process kept playing
    finally:
        for child in (shard0, shard1):
            if child.poll() is None:
                kill(child)

    assert lines(again)[0] == f"restored {TABLES}"
    mine = {int(line.split()[0]) for line in lines(first)}
    assert {int(line.split()[0]) for line in lines(again)[1:]} <= mine  # only its own tables
    stored = await stored_seqs(url)
    for seqs in stored.values():
        assert seqs == list(range(len(seqs)))  # no hole: nothing half-written
    for key, seqs in acknowledged(first, again, other).items():
        assert seqs <= set(stored[key]), key  # every acknowledged action is stored
    async with await Store.open(url, games_resolver=resolve_toy) as store:
        loaded = await store.load_active_tables()
    assert loaded.broken == [] and len(loaded.tables) == 2 * TABLES
