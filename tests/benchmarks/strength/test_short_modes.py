"""Every game's bot strength script runs in its short mode (`python -m benchmarks.strength GAME
--short`: a match or a few rounds in this process), so none breaks unseen."""

from __future__ import annotations

import pytest

from benchmarks.strength.__main__ import GAMES, main


@pytest.mark.parametrize("game", GAMES)
def test_the_short_mode_prints_its_figures(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([game, "--short"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"{game}:")
    assert "95%" in printed or "±" in printed
