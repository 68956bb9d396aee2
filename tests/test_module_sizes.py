"""A module one reads in one sitting: no Python module of the bot, nor of its benchmarks, is
over 700 lines (split it by responsibility, as bot/service/ and bot/local/ are, when it grows
past that)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 700


def test_no_module_of_the_bot_or_its_benchmarks_is_over_700_lines() -> None:
    modules = sorted((ROOT / "bot").rglob("*.py")) + sorted((ROOT / "benchmarks").rglob("*.py"))
    assert modules, "the bot's modules were not found"
    sizes = {
        m.relative_to(ROOT).as_posix(): len(m.read_text("utf-8").splitlines()) for m in modules
    }
    too_long = {name: lines for name, lines in sizes.items() if lines > MOST_LINES}
    assert not too_long, f"over {MOST_LINES} lines: {too_long}"
