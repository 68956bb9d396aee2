"""End-to-end tests: the real bot (bot.app.create_bot) against a fake Discord in this process.

- bot.local.server serves Discord's REST API and gateway on 127.0.0.1 and records every request
  (route, payload, the interaction and user it answers, ephemeral or not); tests inject slash
  commands, clicks and select choices (`slash`, `click`, `choose`) and wait on answers. The
  `fake_discord` fixture (tests/bot/conftest.py) runs one per test.
- harness.py starts the bot on a temporary database with a FakeClock (timers move only when a
  test advances it) and plays for the users: they click what their messages offer.
- leak_checker.py reads every payload as it arrives and flags a card face its viewer may not see.
- bot_processes.py runs the bot as real `python -m bot` processes (one per shard, PostgreSQL)
  instead, and people.py plays for users who see only Discord's messages (test_shards_e2e.py).
- faults/ injects faults into the bot (a full or read-only SQLite file, a killed, cut or slow
  PostgreSQL server, Discord's 5xx and 429 storms, gateway drops, wall clock steps, a stuck
  shard process) and judges every click made meanwhile; `python -m tests.bot.e2e.faults`
  runs each for a minute and prints the fault table (docs/operations.md).
Every test here fails on an ERROR log line or on a route the fake does not know.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.local.server import LocalDiscord, running_local_discord
from tests.bot.e2e.harness import EIGHT, BotUnderTest


@pytest.fixture
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The bot must log nothing at ERROR level (nor the fake: an invalid payload, a late answer)."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "errors were logged:\n" + "\n".join(r.getMessage() for r in errors)


@pytest.fixture
async def harness(
    fake_discord: LocalDiscord, tmp_path: Path, no_errors_logged: None
) -> AsyncIterator[BotUnderTest]:
    yield BotUnderTest(fake_discord, tmp_path / "cardtable.sqlite3")


@pytest.fixture
async def eight_players(tmp_path: Path, no_errors_logged: None) -> AsyncIterator[BotUnderTest]:
    async with running_local_discord(user_names=EIGHT) as fake:
        yield BotUnderTest(fake, tmp_path / "cardtable.sqlite3")
        assert not fake.unknown_routes, (
            f"the client called routes the fake lacks: {fake.unknown_routes}"
        )
