"""Say once, at the end of a run, how to enable the browser tests when they were skipped."""

from __future__ import annotations

from typing import Any

from tests.bot.local.browser import HOW_TO_ENABLE


def pytest_terminal_summary(terminalreporter: Any) -> None:
    skipped = terminalreporter.stats.get("skipped", [])
    if any(HOW_TO_ENABLE in str(getattr(report, "longrepr", "")) for report in skipped):
        terminalreporter.write_line(HOW_TO_ENABLE)
