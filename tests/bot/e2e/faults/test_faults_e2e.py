"""Each fault injected into the bot under test for a few seconds: clicks answered within 3 s
(a move or one sentence), no acknowledged move lost, no hidden card shown, play going on
within 10 s of the fault's end. `python -m tests.bot.e2e.faults` runs them for a minute each."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.local.server import LocalDiscord
from tests.bot.e2e.faults.postgres import available as postgres_available
from tests.bot.e2e.faults.run import RECOVERY_TARGET
from tests.bot.e2e.faults.scenarios import SCENARIOS
from tests.bot.e2e.faults.shards import shard_stopped
from tests.bot.e2e.harness import BotUnderTest
from tests.postgres_server import SKIP_REASON

SHORT = 2.0  # seconds each fault holds in the tests


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_a_fault_loses_no_move_shows_no_card_and_play_recovers(
    fake_discord: LocalDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    if name.startswith("postgres") and not postgres_available():
        pytest.skip(SKIP_REASON)
    caplog.set_level(logging.WARNING)
    harness = BotUnderTest(fake_discord, tmp_path / "cardtable.sqlite3")
    row = await SCENARIOS[name](harness, SHORT)
    assert row.clicks > 0, "no click was made during the fault"
    assert row.targets_met() == [], f"{row.fault}: {row.targets_met()} ({row.notes})"
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert [e for e in errors if not e.startswith(row.expected_errors)] == []


@pytest.mark.timeout(360)  # two bot processes start: on a busy machine that takes minutes
async def test_a_stuck_shard_loses_no_move_and_answers_again_once_continued(
    caplog: pytest.LogCaptureFixture,
) -> None:
    if not postgres_available():
        pytest.skip(SKIP_REASON)
    caplog.set_level(logging.WARNING)
    row = await shard_stopped(SHORT)
    assert row.clicks > 0, "no click was made during the fault"
    assert row.lost == 0 and row.broken == [], f"{row.fault}: {row.targets_met()} ({row.notes})"
    assert row.recovery is not None and row.recovery <= RECOVERY_TARGET, row.notes
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert [e for e in errors if not e.startswith(row.expected_errors)] == []
