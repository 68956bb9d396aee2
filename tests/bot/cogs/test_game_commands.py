"""A game's command group offers a rule set to choose only when the game has several, and
`learn` only when the game has a guided hand."""

from __future__ import annotations

from typing import Any

from bot.cogs.game import game_commands


def _parameters(game: str) -> dict[str, list[str]]:
    commands = game_commands(game, cog_name=f"Test{game}", min_target=1, max_target=10)
    return {c.name: [p.name for p in c.parameters] for c in commands.__cog_app_commands__}


def test_a_game_of_one_rule_set_has_no_preset_option() -> None:
    assert _parameters("dame") == {
        "start": ["target", "bots", "spectators", "coach"],
        "rules": [],
        "leave": [],
        "stop": [],
        "learn": [],
    }


def test_a_game_of_several_rule_sets_offers_them() -> None:
    commands = _parameters("dutch")
    assert commands["start"] == ["preset", "target", "bots", "spectators", "coach"]
    assert commands["rules"] == ["preset"]


def test_only_a_game_with_a_guided_hand_has_a_learn_command(monkeypatch: Any) -> None:
    assert _parameters("dutch")["learn"] == []
    monkeypatch.setattr("bot.cogs.game.lesson_of", lambda game: None)
    assert "learn" not in _parameters("dutch")
