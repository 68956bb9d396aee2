"""The policy's fast inputs equal the slow ones: `decision_view` is the projection of the full
view, and knowledge kept incrementally equals knowledge rebuilt from every event."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.contract import RoundSetup
from games.dutch import GAME, DutchRound
from games.dutch.bots.policy import choose_action
from games.dutch.knowledge import knowledge_from, knowledge_of
from games.dutch.views import DecisionView

ROUNDS = 10  # per preset and seat count: enough to meet every phase and power


def rounds_in_play(preset: str, n_seats: int, seed: int) -> Iterator[DutchRound]:
    """One round, yielded before every action and once over. Moves mix the policy with random
    legal actions (some of them matching), so views meet powers, penalties and reshuffles."""
    rng = random.Random(seed)
    options = GAME.options(preset, peek_choice=seed % 2 == 0)
    round_ = GAME.new_round(options, RoundSetup(n_seats=n_seats, dealer=seed % n_seats), seed=seed)
    assert isinstance(round_, DutchRound)
    while not round_.finished:
        yield round_
        seat = round_.to_act()[0]
        if rng.random() < 0.6:
            action = choose_action(round_, seat, rng)
        else:
            action = rng.choice(round_.legal_actions(seat))
        round_.apply(seat, action)
    yield round_


@pytest.mark.parametrize("preset", ["classic", "house"])
@pytest.mark.parametrize("n_seats", [2, 4, 7])
def test_decision_view_is_the_projection_of_the_full_view(preset: str, n_seats: int) -> None:
    phases, powers = set(), set()
    for seed in range(ROUNDS):
        for round_ in rounds_in_play(preset, n_seats, seed):
            for seat in range(n_seats):  # the seats that may not act too
                full = round_.view(seat)
                assert round_.decision_view(seat) == DecisionView.of(full)
                # the policy tries a 7 or 9 action only when the view names that power
                kinds = {a.kind for a in full.legal}
                assert "seven" not in kinds or full.power == "seven"
                assert "nine" not in kinds or full.power == "nine"
                phases.add(full.phase)
                powers.add(full.power)
    # classic turns end on the discard (no matching, Dutch called first); house rules have no
    # Queen/Jack power
    missing = "end" if preset == "classic" else "power"
    assert phases == {"peek", "start", "drawn", "power", "end", "over"} - {missing}
    assert powers == ({None, "queen", "jack"} if preset == "classic" else {None, "seven", "nine"})


def test_decision_view_exists_only_for_a_seat() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=3), seed=1)
    assert isinstance(round_, DutchRound)
    with pytest.raises(ValueError):
        round_.decision_view(3)
    with pytest.raises(ValueError):
        DecisionView.of(round_.public_view())


@pytest.mark.parametrize("preset", ["classic", "house"])
@pytest.mark.parametrize("ask_odds", [1.0, 0.2])  # every step, or now and then (many events)
def test_incremental_knowledge_equals_knowledge_from_every_event(
    preset: str, ask_odds: float
) -> None:
    rng = random.Random(7)
    for seed in range(ROUNDS):
        for round_ in rounds_in_play(preset, 4, seed):
            for seat in range(4):
                if rng.random() < ask_odds:
                    assert knowledge_of(round_, seat) == knowledge_from(round_.events, seat)
