"""Games register themselves: a package `games/<name>/` that defines `GAME` is a game, found
without any shared list naming it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import games
from games import registry
from games.registry import game_names, get_game

GAMES_DIR = Path(games.__file__).parent


@pytest.fixture
def extra_games(tmp_path: Path) -> Iterator[Path]:
    """A folder searched for games like games/ itself (where a test's own game lives)."""
    games.__path__.append(str(tmp_path))
    registry.forget()
    try:
        yield tmp_path
    finally:
        games.__path__.remove(str(tmp_path))
        registry.forget()


def _package(root: Path, folder: str, body: str) -> None:
    (root / folder).mkdir()
    (root / folder / "__init__.py").write_text(body, encoding="utf-8")


def test_every_package_with_a_game_is_registered_by_its_name() -> None:
    packages = [
        importlib.import_module(f"games.{p.parent.name}") for p in GAMES_DIR.glob("*/__init__.py")
    ]
    names = sorted(p.GAME.name for p in packages if hasattr(p, "GAME"))
    assert game_names() == tuple(names)
    for name in game_names():
        assert get_game(name).name == name


def test_tool_packages_are_not_games() -> None:
    assert "bench" not in game_names() and "strength" not in game_names()


def test_an_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="nope"):
        get_game("nope")


def test_a_new_package_is_a_game_with_no_shared_change(extra_games: Path) -> None:
    _package(extra_games, "toyplugged", "from tests.games.toygame import GAME\n")
    assert "toy" in game_names()
    assert get_game("toy").title


def test_two_packages_of_one_game_name_are_refused(extra_games: Path) -> None:
    _package(extra_games, "toyone", "from tests.games.toygame import GAME\n")
    _package(extra_games, "toytwo", "from tests.games.toygame import GAME\n")
    both = "games/{}/ and games/{}/".format("toyone", "toytwo")  # made by the test only
    with pytest.raises(RuntimeError, match=f"two games named 'toy': {both}"):
        game_names()
