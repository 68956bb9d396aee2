"""Every game's engine benchmark runs in its short mode (`python -m benchmarks.games GAME --short`),
so a change that breaks one is seen by the suite, not by the next person who measures."""

from __future__ import annotations

import pytest

from benchmarks.games.__main__ import GAMES, main
from games.registry import game_names


def test_every_game_with_a_benchmark_is_offered() -> None:
    assert GAMES and set(GAMES) <= set(game_names())


@pytest.mark.parametrize("game", GAMES)
def test_the_short_mode_prints_its_figures(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([game, "--short"]) == 0
    printed = capsys.readouterr().out
    assert game in printed.lower() or "rounds/s" in printed
    assert any(char.isdigit() for char in printed)


def test_an_unknown_game_or_option_is_a_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chess"]) == 2
    assert main([GAMES[0], "--long"]) == 2
    assert "usage: python -m benchmarks.games" in capsys.readouterr().err
