"""Presets and targets are a game's choice: a game with one rule set names none in its title,
and the lobby says how a match is won in the game's own words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games import plugin_for
from bot.render.table import render_table
from bot.snapshots import LOBBY
from tests.bot.render.snapshots import public

ROOT = Path(__file__).resolve().parents[3]


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


@pytest.mark.parametrize(
    ("language", "sentences"),
    [
        (
            "en",
            (
                "A knock binds nothing: the bot players knock on every turn, so their knock "
                "tells nothing about their hands",
                "`/deck auto_knock` knocks for you before your discard",
            ),
        ),
        (
            "fr",
            (
                "Un cogne n'engage à rien : les joueurs robots cognent à chaque tour, leur cogne "
                "ne dit donc rien de leur main",
                "`/paquet cogner_auto` cogne pour vous avant votre défausse",
            ),
        ),
    ],
)
def test_the_dame_rules_say_a_knock_binds_nothing_as_the_bots_knock_every_turn(
    language: str, sentences: tuple[str, ...]
) -> None:
    """The strong bots knock on every turn, which is legal: the rules text (`/dame rules` in
    each language, and docs/rules/dame.md) says so, so a player reads nothing into it."""
    _, shown = plugin_for("dame").rules_text("standard", language)
    for sentence in sentences:
        assert sentence in shown
    written = " ".join((ROOT / "docs" / "rules" / "dame.md").read_text(encoding="utf-8").split())
    assert "An announcement binds nothing: a player who announced need not go out." in written
    assert "The bot players announce on every turn" in written
    assert "a bot's announcement says nothing about its hand" in written
    assert "(`/deck auto_knock`)" in written
