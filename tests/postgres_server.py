"""The tests' throwaway PostgreSQL server (`storage.pg_server`, fsync off), a fresh schema per
test, and what a machine without PostgreSQL does: skip, or fail when CARDTABLE_REQUIRE_POSTGRES
is set (CI)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import asyncpg
import pytest

from storage.pg_server import PostgresServer as _Server
from storage.pg_server import find_binaries, free_port

__all__ = [
    "REQUIRE_POSTGRES",
    "SKIP_REASON",
    "PostgresServer",
    "binaries_or_skip",
    "find_binaries",
    "free_port",
]

REQUIRE_POSTGRES = "CARDTABLE_REQUIRE_POSTGRES"  # set (by .ci/run): a skip becomes a failure
SKIP_REASON = (
    "PostgreSQL tests skipped: install PostgreSQL's server binaries (Debian: apt-get install "
    "postgresql) or set PG_BIN to the folder holding pg_ctl"
)


def binaries_or_skip() -> Path:
    """The folder of PostgreSQL's binaries; without them, skip (fail when required: CI)."""
    binaries = find_binaries()
    if binaries is None:
        if os.environ.get(REQUIRE_POSTGRES):
            pytest.fail(f"{REQUIRE_POSTGRES} is set but no PostgreSQL binaries were found")
        pytest.skip(SKIP_REASON)
    return binaries


# Quick: the tests kill the bot, never the server, and a COMMIT is still acknowledged only
# once the server has it.
QUICK_SETTINGS = {"fsync": "off", "full_page_writes": "off"}


class PostgresServer(_Server):
    _names = itertools.count()

    def __init__(self, binaries: Path) -> None:
        super().__init__(binaries, QUICK_SETTINGS)

    async def create_database(self) -> str:
        """A new, empty place to store things; returns its URL. It is a schema of its own
        (the URL sets `search_path`), since a schema costs a millisecond and a database
        hundreds."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await admin.close()
        return f"{self.url()}?search_path={name}"
