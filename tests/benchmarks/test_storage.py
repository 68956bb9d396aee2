"""The store benchmark runs in its short mode (`python -m benchmarks.storage --short`, SQLite)."""

from __future__ import annotations

import pytest

from benchmarks.storage import main
from tests.postgres_server import PostgresServer


async def test_the_short_mode_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert await main(["--short"]) == 0
    printed = capsys.readouterr().out
    assert "durable actions/s" in printed and "active" in printed


async def test_sqlite_too_puts_each_postgres_run_beside_sqlites(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(await postgres_server.create_database())
    args = ["--short", "--url", url, "--sqlite-too", "--tables", "5", "--load", ""]
    assert await main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    postgres = next(i for i, line in enumerate(lines) if line.startswith("PostgreSQL    5 tables"))
    assert lines[postgres + 1].startswith("SQLite        5 tables")  # the same size, next
