"""A game's bot players live apart from its rules, in `games/<game>/bots/`."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import games
from games.registry import bots_module_name, game_names

GAMES_DIR = Path(games.__file__).resolve().parent


def imported_modules(path: Path) -> set[str]:
    """The absolute module names a source file imports (at any depth of its code)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("name", game_names())
def test_a_games_rules_never_import_its_bot_players(name: str) -> None:
    package = GAMES_DIR / name
    bots = package / "bots"
    rules = [p for p in sorted(package.rglob("*.py")) if not p.is_relative_to(bots)]
    assert rules
    leaks = [
        f"{path.relative_to(GAMES_DIR)}: {module}"
        for path in rules
        for module in sorted(imported_modules(path))
        if module.startswith(f"games.{name}.bots")
    ]
    assert not leaks, "rules import bots:\n" + "\n".join(leaks)


@pytest.mark.parametrize("name", game_names())
def test_each_games_bot_players_are_in_its_bots_subpackage(name: str) -> None:
    simple = importlib.import_module(bots_module_name(name, "simple"))
    strong = importlib.import_module(bots_module_name(name, "strong"))
    for module in (simple, strong):
        assert Path(module.__file__ or "").parent == GAMES_DIR / name / "bots"
        assert callable(module.choose_action)
