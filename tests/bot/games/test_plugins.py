"""The bot's games are plug-ins: found by name, and never named by the shared code."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import bot
import games
from bot.games import plugin_for, plugin_names, plugins
from bot.games.plugin import GamePlugin
from bot.i18n import catalog
from games.contract import RoundSetup
from games.registry import game_names, get_game

BOT = Path(bot.__file__).resolve().parent
GAMES = Path(games.__file__).resolve().parent
GAME_WORD = re.compile(r"\b(" + "|".join(game_names()) + r")\b", re.IGNORECASE)
# The benchmarks and the soak test pick the games they drive: tools, not part of the running bot;
# so do the engines' benchmarks and strength matches.
NOT_SHARED = (BOT / "bench", GAMES / "bench", GAMES / "strength")
PROTOCOL_MEMBERS = [m for m in vars(GamePlugin) if not m.startswith("_")] + list(
    GamePlugin.__annotations__
)


def _shared_modules() -> list[Path]:
    """The modules of bot/ and games/ outside a game's own folder (plug-in or engine)."""
    own_dirs = [BOT / "games" / name for name in plugin_names()]
    own_dirs += [GAMES / name for name in game_names()]
    return [
        path
        for path in sorted([*BOT.rglob("*.py"), *GAMES.rglob("*.py")])
        if not any(path.is_relative_to(d) for d in (*NOT_SHARED, *own_dirs))
    ]


def test_no_shared_module_names_a_game() -> None:
    """Neither the bot's shared code nor the engines' (contract, review, records, …) names a
    game: each game declares what is its own (its plug-in, its `Game`)."""
    shared = _shared_modules()
    assert GAMES / "review.py" in shared and BOT / "app.py" in shared
    named = []
    for path in shared:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_WORD.search(line):
                named.append(f"{path.relative_to(BOT.parent)}:{number}: {line.strip()}")
    assert not named, "shared code names a game:\n" + "\n".join(named)


def test_no_shared_text_names_a_game() -> None:
    """Shared texts (bot/i18n/*.json) are the same for every game: a game's words live in its
    plug-in's catalogs (`<game>.help`, its rules, …)."""
    named = []
    for path in sorted((BOT / "i18n").glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            if GAME_WORD.search(key) or GAME_WORD.search(value):
                named.append(f"{path.name}: {key}: {value}")
    assert not named, "a shared text names a game:\n" + "\n".join(named)


def test_the_guard_sees_a_game_name() -> None:
    assert GAME_WORD.search('if snapshot.game == "dutch":')
    assert not GAME_WORD.search("a game of the bot, its dutchess")
    assert GAME_WORD.search("help.how.slots: in Dutch your cards are numbered")


def test_every_plugin_plays_a_registered_engine_under_its_package_name() -> None:
    assert plugins(), "the bot has at least one game"
    for plugin in plugins():
        assert plugin.name in game_names()
        assert plugin_for(plugin.name) is plugin
        missing = [m for m in PROTOCOL_MEMBERS if not hasattr(plugin, m)]
        assert not missing, f"{plugin.name} lacks {missing}"
        assert (BOT / "games" / plugin.name / "__init__.py").is_file()


def test_an_unknown_game_has_no_plugin() -> None:
    with pytest.raises(KeyError):
        plugin_for("chess")


def test_each_plugin_brings_its_texts() -> None:
    for plugin in plugins():
        for language in ("en", "fr"):
            words = catalog(language)
            assert f"{plugin.name}.name" in words
            assert f"{plugin.name}.cmd" in words
            for preset in get_game(plugin.name).presets:
                title, body = plugin.rules_text(preset, language)
                assert title and body and "rules." not in title + body


@pytest.mark.parametrize("name", plugin_names())
def test_a_waiting_key_reads_the_same_from_every_seats_view_and_the_public_one(name: str) -> None:
    """The follower compares a waiting message's key, read from the seat's view it was drawn
    from, with the public view's, to skip building views that would change nothing."""
    engine, plugin = get_game(name), plugin_for(name)
    n_seats = engine.max_seats if engine.min_seats == engine.max_seats else 4
    for seed in range(20):
        round_ = engine.new_round(engine.options(), RoundSetup(n_seats=n_seats), seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if round_.finished:
                break
            public = plugin.waiting_key(round_.public_view())
            for seat in range(n_seats):
                assert plugin.waiting_key(round_.view(seat)) == public
            seat = round_.to_act()[0]
            round_.apply(seat, rng.choice(round_.legal_actions(seat)))
