"""Each fault injected into the bot under test for a few seconds (`SHORT`): clicks answered
within 3 s (a move or one sentence), no acknowledged move lost, no hidden card shown, play
going on within 10 s of the fault's end, and what each fault asks of the bot besides.
`python -m tests.bot.e2e.faults` runs them for a minute each and prints the fault table."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.local.server import LocalDiscord
from tests.bot.e2e.faults import postgres, scenarios
from tests.bot.e2e.faults.run import RECOVERY_TARGET, FaultRow
from tests.bot.e2e.faults.shards import shard_stopped
from tests.bot.e2e.harness import BotUnderTest
from tests.postgres_server import binaries_or_skip

SHORT = 2.0  # seconds each fault holds in the tests
RETRY_AFTER = 1.0  # seconds the storms' 429s ask the bot to wait (scenarios._rest_storm)


@dataclass
class Faulty:
    """The bot under test, and the ERROR lines its fault causes (allowed in the log)."""

    harness: BotUnderTest
    expected_errors: tuple[str, ...] = ()

    def held(self, row: FaultRow) -> FaultRow:
        """The targets every fault must meet: clicks made during it, none missed."""
        self.expected_errors = row.expected_errors
        assert row.clicks > 0, "no click was made during the fault"
        assert row.targets_missed() == [], f"{row.fault}: {row.targets_missed()} ({row.notes})"
        return row


@pytest.fixture
async def faulty(
    fake_discord: LocalDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[Faulty]:
    """The bot under test; after the test, no ERROR line but those its fault causes."""
    caplog.set_level(logging.WARNING)
    under_test = Faulty(BotUnderTest(fake_discord, tmp_path / "cardtable.sqlite3"))
    yield under_test
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert [e for e in errors if not e.startswith(under_test.expected_errors)] == []


async def test_a_full_sqlite_file_refuses_every_move_in_one_sentence_then_plays_on(
    faulty: Faulty,
) -> None:
    row = faulty.held(await scenarios.sqlite_full(faulty.harness, SHORT))
    assert row.refused == row.clicks


async def test_a_read_only_sqlite_file_refuses_moves_in_one_sentence_then_plays_on(
    faulty: Faulty,
) -> None:
    row = faulty.held(await scenarios.sqlite_read_only(faulty.harness, SHORT))
    assert row.refused >= row.clicks - 1  # all but a "My cards" opened to find the move


async def test_discord_s_5xx_on_table_edits_lose_nothing_and_the_table_catches_up(
    faulty: Faulty,
) -> None:
    row = faulty.held(await scenarios.rest_5xx_table_messages(faulty.harness, SHORT))
    assert row.requests_refused > 0


async def test_with_every_answer_refused_by_discord_nothing_is_lost_and_play_resumes(
    faulty: Faulty,
) -> None:
    """Discord itself down (5xx on every route, an interaction's answer included): no bot can
    answer; the clicks' moves are kept or refused whole, and play resumes after."""
    row = faulty.held(await scenarios.rest_5xx_everything(faulty.harness, SHORT))
    assert row.answers_refused_by_discord and row.requests_refused > 0


@pytest.mark.parametrize("storm", ["rest_429_route", "rest_429_global"])
async def test_under_429s_the_bot_waits_as_discord_asks_and_the_table_catches_up(
    faulty: Faulty, storm: str
) -> None:
    row = faulty.held(await scenarios.SCENARIOS[storm](faulty.harness, SHORT))
    # each bucket (edits of a message; the global one) tried again once per retry_after
    tries_per_bucket = SHORT / RETRY_AFTER + 1
    assert 0 < row.requests_refused <= 2 * tries_per_bucket, row.notes


@pytest.mark.parametrize("drop", ["gateway_resume", "gateway_identify"])
async def test_after_a_gateway_drop_the_bot_reconnects_and_play_goes_on(
    faulty: Faulty, drop: str
) -> None:
    """Clicks made while the gateway is down never reach the bot (Discord drops them)."""
    row = faulty.held(await scenarios.SCENARIOS[drop](faulty.harness, SHORT))
    assert row.undelivered == row.clicks
    assert row.sessions == ((0, 1) if drop == "gateway_resume" else (1, 0))


@pytest.mark.parametrize("step", ["clock_forward", "clock_back"])
async def test_a_wall_clock_step_neither_fires_the_turn_timer_at_once_nor_never(
    faulty: Faulty, step: str
) -> None:
    """The reminder at half time, the timeout at the turn's end (scenarios._clock_step)."""
    faulty.held(await scenarios.SCENARIOS[step](faulty.harness, SHORT))


@pytest.mark.parametrize("fault", sorted(postgres.POSTGRES_SCENARIOS))
async def test_a_postgresql_fault_loses_no_acknowledged_move_and_play_recovers(
    faulty: Faulty, fault: str
) -> None:
    """The server killed mid-transaction, connections cut, every query slow."""
    binaries_or_skip()
    faulty.held(await postgres.POSTGRES_SCENARIOS[fault](faulty.harness, SHORT))


@pytest.mark.timeout(360)  # two bot processes start: on a busy machine that takes minutes
async def test_a_stuck_shard_loses_no_move_and_answers_again_once_continued(
    caplog: pytest.LogCaptureFixture,
) -> None:
    binaries_or_skip()
    caplog.set_level(logging.WARNING)
    row = await shard_stopped(SHORT)
    assert row.clicks > 0, "no click was made during the fault"
    assert row.lost == 0 and row.broken == [], f"{row.fault}: {row.targets_missed()} ({row.notes})"
    assert row.recovery is not None and row.recovery <= RECOVERY_TARGET, row.notes
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert [e for e in errors if not e.startswith(row.expected_errors)] == []
