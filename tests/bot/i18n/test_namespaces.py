"""Each game's texts live in their own namespace (`<game>.…`), a clash names both files, and
what every game gets with only its words changed (its slash commands) is generated."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.games
import bot.i18n
from bot.games import plugin_names
from bot.i18n import LANGUAGES, catalog, error_key, error_text, text

PER_GAME = Path(__file__).resolve().parents[3] / "bot" / "i18n" / "per_game"


@pytest.fixture
def extra_plugins(tmp_path: Path) -> Iterator[Path]:
    """A folder searched for plug-ins like bot/games/ itself; the catalogs are read again."""
    bot.games.__path__.append(str(tmp_path))
    catalog.cache_clear()
    try:
        yield tmp_path
    finally:
        bot.games.__path__.remove(str(tmp_path))
        catalog.cache_clear()


def _plugin_texts(root: Path, game: str, words: dict[str, str]) -> Path:
    (root / game / "i18n").mkdir(parents=True)
    (root / game / "__init__.py").write_text("", encoding="utf-8")
    path = root / game / "i18n" / "en.json"
    path.write_text(json.dumps(words), encoding="utf-8")
    return path


def test_a_key_outside_the_namespace_is_refused_naming_its_file(extra_plugins: Path) -> None:
    path = _plugin_texts(extra_plugins, "crazy", {"error.illegal.draw_first": "Draw first."})
    with pytest.raises(ValueError, match="keys outside the game's namespace") as refused:
        catalog("en")
    assert str(path) in str(refused.value) and "'crazy.'" in str(refused.value)


def test_a_key_defined_twice_names_both_files(extra_plugins: Path) -> None:
    path = _plugin_texts(extra_plugins, "dame", {"dame.name": "Another"})
    with pytest.raises(ValueError, match="defined by both") as refused:
        catalog("en")
    message = str(refused.value)
    assert str(path) in message
    assert str(Path(bot.games.__file__).parent / "dame" / "i18n" / "en.json") in message


def test_the_commands_of_every_game_are_generated_in_every_language() -> None:
    for language in LANGUAGES:
        per_game = json.loads((PER_GAME / f"{language}.json").read_text(encoding="utf-8"))
        assert len(per_game) == 15
        for game in plugin_names():
            for key in per_game:
                generated = catalog(language)[f"{game}.{key}"]
                assert "{" not in generated, (language, game, key)
    assert text("en", "euchre.cmd.start.desc") == "Open a Euchre table in this channel"
    assert text("fr", "euchre.cmd.start.desc") == "Ouvrir une table d'euchre dans ce salon"
    assert text("fr", "dame.cmd.rules.desc") == "Les règles de la Dame de Pique, en bref"
    assert text("en", "dutch.cmd.start.target") == "Points that end the match (100)"
    assert text("en", "dutch.cmd") == "dutch"


def test_a_game_overrides_a_generated_text_by_defining_it() -> None:
    assert text("en", "dame.cmd.desc") == "Dame de Pique card tables (Québec)"
    assert text("en", "dame.cmd.start.target") == "Points that win the match (1000)"


def test_a_refused_move_reads_its_own_game_sentence_only() -> None:
    assert error_key("illegal:draw_first", "dame") == "dame.error.illegal.draw_first"
    # another game's rule of the same name does not borrow Dame's or Dutch's wording
    assert error_key("illegal:draw_first", "euchre") == "error.illegal"
    assert error_key("illegal:stock_empty", "dame") == "error.illegal"
    assert error_text("en", "illegal:stock_empty", game="dutch") == text(
        "en", "dutch.error.illegal.stock_empty"
    )


def test_a_game_key_clashing_with_a_shared_one_names_both_files(extra_plugins: Path) -> None:
    path = _plugin_texts(extra_plugins, "help", {"help.title": "Help!"})
    with pytest.raises(ValueError, match="defined by both") as refused:
        catalog("en")
    message = str(refused.value)
    assert str(path) in message and str(Path(bot.i18n.__file__).parent / "en.json") in message
