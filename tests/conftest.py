"""Fixtures every test folder may use: a throwaway PostgreSQL server (one per test process),
skipped where PostgreSQL is not installed, failed instead when CARDTABLE_REQUIRE_POSTGRES is set
(CI); and, at the end of a run, one line for each kind of skipped test saying how to enable it
(browser, PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.bot.local.browser import HOW_TO_ENABLE
from tests.postgres_server import SKIP_REASON, PostgresServer, binaries_or_skip


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer(binaries_or_skip())
    server.start()
    try:
        yield server
    finally:
        server.stop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    skipped = [str(getattr(r, "longrepr", "")) for r in terminalreporter.stats.get("skipped", [])]
    if any(HOW_TO_ENABLE in reason for reason in skipped):
        terminalreporter.write_line(HOW_TO_ENABLE)
    postgres = sum(SKIP_REASON in reason for reason in skipped)
    if postgres:  # one line, not one per test
        terminalreporter.write_line(f"{postgres} {SKIP_REASON}.")
