"""`python -m benchmarks` lists every script a contributor can run, and only scripts that exist."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import benchmarks
from benchmarks.__main__ import SCRIPTS, main

FOLDER = Path(benchmarks.__file__).parent


def module_of(command: str) -> str:
    return command.split()[2]


@pytest.mark.parametrize("command", [command for command, _ in SCRIPTS])
def test_every_listed_script_exists(command: str) -> None:
    assert command.startswith("python -m benchmarks")
    assert importlib.util.find_spec(module_of(command)) is not None, command


def test_every_script_of_the_bot_is_listed() -> None:
    listed = {module_of(command) for command, _ in SCRIPTS}
    runnable = {
        f"benchmarks.bot.{path.stem}"
        for path in (FOLDER / "bot").glob("*.py")
        if 'if __name__ == "__main__":' in path.read_text("utf-8") and path.stem != "__main__"
    }
    # clicks.py is the one `python -m benchmarks.bot` runs; activity_pages.py (the open pages)
    # and activity_discord.py (who they are) are processes activity_load.py starts
    started = {"benchmarks.bot.activity_pages", "benchmarks.bot.activity_discord"}
    assert runnable - {"benchmarks.bot.clicks"} - started <= listed
    assert {"benchmarks.bot", "benchmarks.games", "benchmarks.strength", "benchmarks.storage"} <= (
        listed
    )


def test_the_listing_prints_each_command(capsys: pytest.CaptureFixture[str]) -> None:
    main()
    out = capsys.readouterr().out
    assert all(command in out for command, _ in SCRIPTS)
    assert "docs/performance.md" in out
