"""A tournament survives a kill -9 at any moment: a writer running tournaments through the
store is killed with SIGKILL at random moments; every transition it acknowledged is there,
nothing is half-written (each event reads back as exactly the state after its acknowledged
transitions, or the one after them, committed but not yet printed), and each event resumes
from what was read back to its end."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.tournament.event import FINISHED
from storage import Store
from tests.storage.conftest import Location, resolve_toy
from tests.storage.tournament_kill_writer import next_step, replayed

ROOT = Path(__file__).resolve().parents[2]


def run_and_kill(location: Location, acks_path: Path, delay: float) -> None:
    errors_path = acks_path.with_suffix(".err")
    with acks_path.open("w") as acks, errors_path.open("w") as errors:
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.storage.tournament_kill_writer", str(location)],
            cwd=ROOT,
            stdout=acks,
            stderr=errors,
        )
        deadline = time.monotonic() + 30
        while acks_path.stat().st_size == 0:  # wait for the first acknowledged transition
            if child.poll() is not None or time.monotonic() > deadline:
                child.kill()
                child.wait()
                pytest.fail(f"writer never acknowledged: {errors_path.read_text()}")
            time.sleep(0.01)
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL, f"writer died first: {errors_path.read_text()}"


def acknowledged(acks_path: Path) -> dict[int, int]:
    """The transitions acknowledged per tournament (a last line cut short is not)."""
    done: dict[int, int] = {}
    for line in acks_path.read_text().split("\n")[:-1]:
        tournament_id, steps = map(int, line.split())
        done[tournament_id] = steps
    return done


@pytest.mark.parametrize("run", range(3))
async def test_no_acknowledged_tournament_step_is_lost_when_the_writer_is_killed(
    location: Location, tmp_path: Path, run: int
) -> None:
    acks_path = tmp_path / "acks.txt"
    run_and_kill(location, acks_path, delay=random.Random(run).uniform(0.05, 0.6))
    acked = acknowledged(acks_path)
    assert acked, "the writer acknowledged nothing before it was killed"
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        for tournament_id, steps in acked.items():
            event = (await store.tournaments.load(tournament_id)).event
            assert event in (replayed(tournament_id, steps), replayed(tournament_id, steps + 1))
        # the event in progress resumes from what was read back, to its end
        last = max(acked)
        event = (await store.tournaments.load(last)).event
        while (keep := next_step(event, last, store.tournaments)) is not None:
            await keep()
        assert event.status == FINISHED
        assert (await store.tournaments.load(last)).event == event
