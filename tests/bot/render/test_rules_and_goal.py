"""Presets and targets are a game's choice: a game with one rule set names none in its title,
and the lobby says how a match is won in the game's own words."""

from __future__ import annotations

import json

from bot.render.table import render_table
from bot.snapshots import LOBBY
from tests.bot.render.snapshots import public


def _lobby(game: str, language: str, target: int) -> dict[str, object]:
    snapshot = public(None, game=game, n_seats=2, status=LOBBY, target=target)
    return render_table(snapshot, language).embed.to_dict()


def test_a_game_with_one_rule_set_names_none_in_its_title() -> None:
    assert _lobby("dame", "en", 60)["title"] == "Dame de Pique — table #12"
    assert _lobby("dame", "fr", 60)["title"] == "Dame de Pique — table n° 12"
    assert _lobby("dutch", "en", 100)["title"] == "Dutch · classic rules — table #12"


def test_the_lobby_says_how_the_match_is_won_in_the_game_s_words() -> None:
    dame = json.dumps(_lobby("dame", "en", 60), ensure_ascii=False)
    assert "the first team to 60 points wins." in dame and "The match ends at" not in dame
    dutch = json.dumps(_lobby("dutch", "fr", 50), ensure_ascii=False)
    assert "La partie se termine à 50 points ; le plus petit total gagne." in dutch
