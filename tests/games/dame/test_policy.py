from __future__ import annotations

import random
from types import ModuleType

import pytest

from games.cards import cards
from games.dame.bots import simple, strong
from games.dame.bots.simple import cheapest_discard, choose_action
from tests.games.dame.stacking import stacked_round

RNG_SEED = 7


def test_policy_lays_the_packs_it_holds_then_discards_a_cheap_card() -> None:
    round_ = stacked_round({1: "7S 7H 7D 9C 9D 2C AS KS QS AH KH QH JH"}, stock="AD")
    rng = random.Random(RNG_SEED)
    assert str(choose_action(round_, 1, rng)) == "draw"
    round_.apply(1, "draw")
    played = []
    while round_.to_act() == (1,):
        action = choose_action(round_, 1, rng)
        played.append(str(action))
        round_.apply(1, action)
    assert {"meld AS AH AD", "meld 7S 7H 7D", "meld 9D 9C 2C"} <= set(played)
    # left: KS QS KH QH JH; the discard is a cheapest one (10 points), never QS (100)
    assert played[-1] in {"discard KS", "discard KH", "discard QH", "discard JH"}


def test_policy_takes_the_pile_when_it_can() -> None:
    round_ = stacked_round({1: "7C", 2: "7S 7H"})
    round_.apply(1, "draw")
    round_.apply(1, "discard 7C")
    assert str(choose_action(round_, 2, random.Random(RNG_SEED))) == "take 7S 7H"


def test_policy_announces_when_its_hand_is_small() -> None:
    round_ = stacked_round({1: "3S 3H 3D 4S 4H 4D 5S 5H 5D 8C 9C JC KC"})
    rng = random.Random(RNG_SEED)
    round_.apply(1, "draw")
    actions = []
    while round_.to_act() == (1,):
        action = choose_action(round_, 1, rng)
        actions.append(str(action))
        round_.apply(1, action)
    assert "announce" in actions and round_.public_view().announced[1]
    assert round_.to_act() == (2,) and actions[-1].startswith("discard")


def test_policy_discards_a_wild_card_only_when_it_holds_nothing_else() -> None:
    rng = random.Random(RNG_SEED)
    assert cheapest_discard(cards("JK 2C KS QS"), rng).name == "KS"
    assert cheapest_discard(cards("JK 2C"), rng).name == "2C"
    assert cheapest_discard(cards("JK"), rng).name == "JK"


@pytest.mark.parametrize("policy", [simple, strong], ids=["simple", "strong"])
def test_policy_decides_only_from_what_its_seat_may_know(policy: ModuleType) -> None:
    """The policy reads the round directly (for speed), so pin that it reads nothing hidden:
    dealing the other hands and the stock anew never changes its choice."""
    import copy

    from games.contract import RoundSetup
    from games.dame import GAME

    for seed in range(6):
        round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=seed % 4), seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not round_.finished and steps < 400:
            seat = round_.to_act()[0]
            state = random.Random(seed).getstate()
            expected = policy.choose_action(round_, seat, _seeded(state))
            other = copy.deepcopy(round_)
            hidden = [c for s in range(4) if s != seat for c in other.hands[s]] + other.stock
            rng.shuffle(hidden)
            for s in range(4):
                if s != seat:
                    size = len(other.hands[s])
                    other.hands[s], hidden = hidden[:size], hidden[size:]
            other.stock = hidden
            assert policy.choose_action(other, seat, _seeded(state)) == expected
            round_.apply(seat, expected)
            steps += 1


def _seeded(state: object) -> random.Random:
    rng = random.Random()
    rng.setstate(state)  # type: ignore[arg-type]
    return rng
