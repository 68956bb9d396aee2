"""A coach's hint (games/coach.py): the strong bot's move for the seat now, from what the seat
knows only, and a reason found by the game's own weighing (its search's estimates, the pack's
points, the hand's expected value)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from bot.runtime.policy import policy_for
from games.cards import card
from games.coach import HintStep, advise, hint_from_json
from games.contract import Round, RoundSetup
from games.dame.rules import VALUE
from games.registry import get_game
from games.review import WorldSampler, positions_of

GAMES = ["dutch", "euchre", "dame"]


def played_hand(name: str, seed: int) -> Round[Any, Any, Any]:
    game = get_game(name)
    n = 3 if name == "dutch" else 4
    round_ = game.new_round(game.options(), RoundSetup(n_seats=n, dealer=0), seed=seed)
    rng, policy = random.Random(seed), policy_for(game, "simple")
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, policy.choose(round_, seat, rng))
    return round_


def decisions(name: str, seed: int, seat: int) -> list[tuple[Round[Any, Any, Any], Any]]:
    """The seat's decisions in a played hand: the round then, and where it was."""
    record = played_hand(name, seed).record()
    game = get_game(name)
    found = []
    for position in positions_of(record, seat):
        prefix = record.model_copy(update={"actions": record.actions[: position.index]})
        found.append((game.replay(prefix), position))
    return found


@pytest.mark.parametrize("name", GAMES)
def test_a_hint_is_a_legal_move_with_a_reason_the_game_words(name: str) -> None:
    module = __import__(f"games.{name}.bots.explain", fromlist=["KINDS"])
    for round_, _ in decisions(name, 3, 0):
        hint = advise(round_, 0, random.Random(1), None)
        pickle.loads(pickle.dumps(round_)).apply(0, hint.move)  # legal: it applies
        assert hint.reason is not None and hint.reason.kind in module.KINDS


@pytest.mark.parametrize("name", GAMES)
def test_a_hint_reads_only_what_the_seat_knows(name: str) -> None:
    """The hidden cards dealt anew (a world the seat cannot tell from the real one): the same
    hint, the same reason."""
    record = played_hand(name, 5).record()
    for round_, position in decisions(name, 5, 1)[:8]:
        world = WorldSampler(record, 1, position).sample(random.Random(position.index))
        assert world is not None
        real = advise(round_, 1, random.Random(7), None)
        assert advise(world, 1, random.Random(7), None) == real


def test_a_hint_from_a_worker_piece_is_the_hint_given_here() -> None:
    round_, _ = decisions("euchre", 4, 2)[0]
    step = HintStep(round_.record(), 2, 9)
    assert hint_from_json(step.run(None)) == advise(round_, 2, random.Random(9), None)


def test_a_hint_is_refused_to_a_seat_that_may_not_act() -> None:
    round_, _ = decisions("euchre", 4, 2)[0]
    waiting = next(s for s in range(4) if s not in round_.to_act())
    with pytest.raises(ValueError):
        advise(round_, waiting, random.Random(0), None)


def test_a_euchre_reason_is_the_searchs_estimate_against_the_next_best_move() -> None:
    seen = 0
    for round_, _ in decisions("euchre", 6, 0):
        reason = advise(round_, 0, random.Random(2), None).reason
        assert reason is not None
        if "next" in reason.fields:
            assert float(reason.fields["margin"]) >= 0  # the move chosen is the best estimate
            assert reason.fields["next"] != advise(round_, 0, random.Random(2), None).move
            seen += 1
    assert seen


def test_a_euchre_card_that_takes_the_trick_as_it_stands_says_so() -> None:
    for seed in range(4, 30):
        for round_, _ in decisions("euchre", seed, 0):
            hint = advise(round_, 0, random.Random(2), None)
            assert hint.reason is not None
            if hint.reason.kind == "take_trick":
                view = round_.view(0)
                assert view.trick and hint.move == f"play {hint.reason.fields['card']}"
                assert hint.reason.fields["trick"] == len(view.tricks) + 1
                return
    pytest.fail("no card taking a trick in these hands")


def test_a_dame_pack_reason_gives_its_points_and_the_cards_left() -> None:
    for seed in range(3, 30):
        for round_, _ in decisions("dame", seed, 0):
            hint = advise(round_, 0, random.Random(2), None)
            assert hint.reason is not None
            if hint.reason.kind in ("pack", "pack_wild", "empties_hand"):
                cards = hint.reason.fields["cards"]
                assert isinstance(cards, tuple)
                assert hint.reason.fields["value"] == sum(VALUE[card(c)] for c in cards)
                assert hint.reason.fields["left"] == len(round_.view(0).hand) - len(cards)
                return
    pytest.fail("no pack laid in these hands")


def test_a_dutch_swap_reason_gives_the_hands_expected_value_before_and_after() -> None:
    for seed in range(3, 30):
        for round_, _ in decisions("dutch", seed, 0):
            hint = advise(round_, 0, random.Random(2), None)
            assert hint.reason is not None
            if hint.reason.kind == "swap_known":
                fields = hint.reason.fields
                assert fields["card"] == round_.view(0).held
                assert float(fields["after"]) < float(fields["estimate"])  # the hand is lower
                return
    pytest.fail("no swap for a known card in these hands")
