"""The watcher's view (`Round.spectator_view`): the public view, and the hands one turn late.

Every registered game is played to the end of several deals by its simple bot; the hands a
watcher is shown are compared at every step with the hands this test saw itself at the last
change of the seats to act (its own record of the turn boundaries, not the engine's)."""

from __future__ import annotations

import importlib
import random

import pytest

from games.contract import Round, RoundSetup
from games.registry import bots_module_name, game_names, get_game


def _hands(round_: Round) -> dict[int, tuple[str, ...]]:  # type: ignore[type-arg]
    return {seat: tuple(c.code for c in cards) for seat, cards in round_.open_hands().items()}


def _shown(round_: Round) -> dict[int, tuple[str, ...]] | None:  # type: ignore[type-arg]
    hands = round_.spectator_view(with_hands=True).hands
    if hands is None:
        return None
    return {seat: tuple(c.code for c in cards) for seat, cards in hands.items()}


@pytest.mark.parametrize("name", game_names())
def test_a_watcher_sees_the_hands_as_at_the_start_of_the_turn_never_a_card_moved_since(
    name: str,
) -> None:
    game = get_game(name)
    n_seats = max(game.min_seats, min(4, game.max_seats))
    choose = importlib.import_module(bots_module_name(name, "simple")).choose_action
    rng = random.Random(11)
    mid_turn_changes = 0
    for deal in range(3):
        round_ = game.new_round(game.options(), RoundSetup(n_seats=n_seats, dealer=deal), seed=deal)
        round_.keep_turn_hands()
        at_turn_start = _hands(round_)  # the deal is the first boundary
        to_act = round_.to_act()
        while not round_.finished:
            assert _shown(round_) == at_turn_start
            assert round_.spectator_view(with_hands=True).public == round_.public_view()
            seat = round_.to_act()[0]
            round_.apply(seat, choose(round_, seat, rng))
            if round_.to_act() != to_act:
                to_act, at_turn_start = round_.to_act(), _hands(round_)
            elif _hands(round_) != at_turn_start:
                mid_turn_changes += 1  # a card drawn or moved this turn: not shown yet
        assert _shown(round_) == at_turn_start
    if name == "dame":  # a card drawn into the hand before the discard ends the turn
        assert mid_turn_changes > 0


@pytest.mark.parametrize("name", game_names())
def test_a_table_shown_without_hands_gives_a_watcher_the_public_view_only(name: str) -> None:
    game = get_game(name)
    round_ = game.new_round(game.options(), RoundSetup(n_seats=4), seed=3)
    round_.keep_turn_hands()
    seen = round_.spectator_view(with_hands=False)
    assert seen.hands is None
    assert seen.public == round_.public_view()


@pytest.mark.parametrize("name", game_names())
def test_hands_are_not_kept_unless_asked(name: str) -> None:
    """A table nobody may watch with hands costs no copy of the hands at each turn."""
    game = get_game(name)
    round_ = game.new_round(game.options(), RoundSetup(n_seats=4), seed=3)
    seat = round_.to_act()[0]
    round_.apply(seat, round_.legal_actions(seat)[0])
    assert round_.spectator_view(with_hands=True).hands is None


@pytest.mark.parametrize("name", game_names())
def test_a_round_rebuilt_mid_turn_shows_hands_from_its_next_turn_only(name: str) -> None:
    """After a restart the hands at the start of the current turn are unknown: a watcher is
    shown none rather than the cards now, which may hold one drawn this turn."""
    game = get_game(name)
    choose = importlib.import_module(bots_module_name(name, "simple")).choose_action
    rng = random.Random(5)
    round_ = game.new_round(game.options(), RoundSetup(n_seats=4), seed=4)
    for _ in range(3):
        seat = round_.to_act()[0]
        round_.apply(seat, choose(round_, seat, rng))
    rebuilt = game.replay(round_.record())
    rebuilt.keep_turn_hands()
    assert rebuilt.spectator_view(with_hands=True).hands is None
    to_act = rebuilt.to_act()
    while rebuilt.to_act() == to_act and not rebuilt.finished:
        seat = rebuilt.to_act()[0]
        rebuilt.apply(seat, choose(rebuilt, seat, rng))
    assert _shown(rebuilt) == _hands(rebuilt)
