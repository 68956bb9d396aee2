from __future__ import annotations

import importlib
import pickle
import random

import pytest

from games.cards import standard_deck
from games.contract import RoundRecord, RoundSetup
from games.errors import IllegalAction, NotationError
from games.match import Match
from games.registry import bots_module_name, game_names, get_game
from tests.games.toygame import GAME


def test_round_from_explicit_deck_deals_that_order() -> None:
    deck = standard_deck()
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=2, dealer=1), deck=deck)
    round_.apply(0, "draw")
    assert round_.view(0).own == ("AS",)


def test_deck_that_is_not_the_game_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="not a full"):
        GAME.new_round(GAME.options(), RoundSetup(n_seats=2), deck=standard_deck()[:10])


def test_illegal_action_names_the_rule_and_changes_nothing() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=2), seed=1)
    before = round_.record()
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "draw")  # seat 1 starts (left of dealer 0)
    assert error.value.rule == "not_your_turn"
    with pytest.raises(NotationError):
        round_.apply(1, "fly")
    assert round_.record() == before


def test_replay_rebuilds_an_equal_round() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=3, dealer=2), seed="x")
    for _ in range(4):
        seat = round_.to_act()[0]
        round_.apply(seat, "draw" if seat else "pass")
    record = RoundRecord.model_validate_json(round_.record().model_dump_json())
    again = GAME.replay(record)
    assert [again.view(s) for s in range(3)] == [round_.view(s) for s in range(3)]
    assert again.record() == round_.record()


def test_replay_refuses_another_rules_version() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=2), seed=1)
    record = round_.record().model_copy(update={"rules_version": 99})
    with pytest.raises(ValueError, match="v99"):
        GAME.replay(record)


def test_options_presets_and_single_changes() -> None:
    assert GAME.options().target == 30
    assert GAME.options("short").target == 10
    assert GAME.options("short", draws_per_seat=3).draws_per_seat == 3
    with pytest.raises(ValueError):
        GAME.options("nope")


def test_event_visibility() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=2), seed=1)
    (event,) = round_.apply(1, "draw")
    assert event.visible_to(1) and not event.visible_to(0) and not event.visible_to(None)


def _play_round(match: Match, seed: int) -> None:
    round_ = match.new_round(seed=seed)
    while not round_.finished:
        round_.apply(round_.to_act()[0], "draw")
    match.add_round(round_.result())


def test_match_adds_rounds_rotates_dealer_and_ends_at_target() -> None:
    match = Match(GAME, GAME.options("standard", target=60), 2)
    dealers = []
    seed = 0
    while not match.finished:
        dealers.append(match.next_setup().dealer)
        _play_round(match, seed)
        seed += 1
    assert max(match.totals) >= 60
    assert dealers[:3] == [0, 1, 0]
    assert match.winners == (match.totals.index(min(match.totals)),) or len(match.winners) > 1
    with pytest.raises(IllegalAction):
        match.new_round(seed=1)


def test_match_equal_best_totals_share_the_win() -> None:
    assert GAME.match_winners([30, 12, 12], 30) == (1, 2)
    assert GAME.match_winners([29, 12, 12], 30) is None


def test_match_state_round_trip() -> None:
    match = Match(GAME, GAME.options(), 3, first_dealer=1)
    _play_round(match, 5)
    again = Match.restore(GAME, match.state())
    assert again.totals == match.totals and again.next_setup() == match.next_setup()


GAMES_AND_PRESETS = [("dutch", "classic"), ("dutch", "house"), ("euchre", None), ("dame", None)]


@pytest.mark.parametrize(("name", "preset"), GAMES_AND_PRESETS)
def test_what_a_state_shows_is_remembered_until_the_next_action(
    name: str, preset: str | None
) -> None:
    """Views and legal actions are kept per state and per viewer: at every step of a round
    each seat's (and the public) view, legal actions and notation equal those of a round
    rebuilt by replay, which remembers nothing; asked twice, a view is the same object."""
    game = get_game(name)
    choose = importlib.import_module(bots_module_name(name, "simple")).choose_action
    rng = random.Random(3)
    round_ = game.new_round(game.options(preset), RoundSetup(n_seats=4, dealer=1), seed=5)
    steps = 0
    while not round_.finished:
        fresh = game.replay(round_.record())
        for seat in range(4):
            view = round_.view(seat)
            assert view == fresh.view(seat)
            assert round_.view(seat) is view
            round_.legal_actions(seat).clear()  # a caller's list: the remembered one is intact
            assert round_.legal_actions(seat) == fresh.legal_actions(seat)
            assert round_.legal_notation(seat) == tuple(map(str, fresh.legal_actions(seat)))
        assert round_.public_view() == fresh.public_view()
        seat = round_.to_act()[0]
        round_.apply(seat, choose(round_, seat, rng))
        steps += 1
    assert steps > 20
    assert round_.public_view() == game.replay(round_.record()).public_view()


@pytest.mark.parametrize("name", game_names())
def test_a_view_of_a_seat_not_at_the_table_is_a_value_error(name: str) -> None:
    """A seat outside the table is the caller's mistake, not a move the rules refuse: every
    engine raises ValueError (not IllegalAction, which the bot shows a player as a refusal)."""
    game = get_game(name)
    round_ = game.new_round(game.options(), RoundSetup(n_seats=4), seed=5)
    for seat in (-1, 4):
        with pytest.raises(ValueError, match=f"^there is no seat {seat}$"):
            round_.view(seat)
    assert round_.view(3) is round_.view(3)


def test_a_pickled_round_leaves_what_it_remembers_behind() -> None:
    """A round sent to a bot's worker process carries its state, not its remembered views."""
    game = get_game("dame")
    round_ = game.new_round(game.options(), RoundSetup(n_seats=4), seed=2)
    seat = round_.to_act()[0]
    view = round_.view(seat)
    round_.legal_notation(seat)
    clone = pickle.loads(pickle.dumps(round_))
    assert clone._memo == {}
    assert clone.view(seat) == view
    assert round_._memo  # the original keeps its own


@pytest.mark.parametrize("name", game_names())
def test_every_offered_move_is_legal_and_a_game_listing_every_move_refuses_the_rest(
    name: str,
) -> None:
    """`legal_actions` means what the contract says, in every registered game: each move it
    offers passes `check` (and its notation reads back as the same move); in a game whose
    list is every legal move (`lists_every_move`), every other move seen in the round (offered
    to any seat at any moment) is refused by `check` whenever it is not listed for that seat
    then. Dame de Pique offers a bounded set instead: its bigger lays are covered by
    tests/games/dame (reached by offered moves)."""
    game = get_game(name)
    n_seats = max(game.min_seats, min(4, game.max_seats))
    rng = random.Random(7)
    seen: dict[str, object] = {}
    for deal in range(3):
        round_ = game.new_round(game.options(), RoundSetup(n_seats=n_seats, dealer=deal), seed=deal)
        steps = 0
        while not round_.finished and steps < 120:
            for seat in range(n_seats):
                listed = round_.legal_actions(seat)
                assert (seat in round_.to_act()) == bool(listed)
                for action in listed:
                    round_.check(seat, action)
                    assert game.parse_action(str(action)) == action
                    seen.setdefault(str(action), action)
                if not round_.lists_every_move:
                    continue
                offered = set(round_.legal_notation(seat))
                for notation, action in seen.items():
                    if notation in offered:
                        continue
                    with pytest.raises(IllegalAction):
                        round_.check(seat, action)
            seat = round_.to_act()[0]
            round_.apply(seat, rng.choice(round_.legal_actions(seat)))
            steps += 1
    assert len(seen) > 20
