"""The store benchmark runs in its short mode (`python -m storage.bench --short`, SQLite)."""

from __future__ import annotations

import pytest

from storage.bench import main


async def test_the_short_mode_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert await main(["--short"]) == 0
    printed = capsys.readouterr().out
    assert "durable actions/s" in printed and "active" in printed
