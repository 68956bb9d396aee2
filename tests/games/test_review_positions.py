"""Known positions: hand-built hands where one move is clearly best. Whichever move was played
there, the review must find the best one, and mark every other move offered as costly (a
mistake at least); the best move played costs nothing."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.dame.bots.simple import choose_action as simple_dame
from games.dutch.bots.policy import PATIENCE as SIMPLE_PATIENCE
from games.dutch.bots.policy import choose_action as simple_dutch
from games.dutch.bots.strong import PATIENCE as STRONG_PATIENCE
from games.dutch.knowledge import knowledge_of
from games.euchre.bots.policy import choose_action as simple_euchre
from games.review import positions_of, review_decision
from tests.games.dame.stacking import draw_and_discard
from tests.games.dame.stacking import stacked_round as dame_round
from tests.games.dutch.stack import deal
from tests.games.euchre.helpers import bower_for_the_last_trick


def euchre_position() -> tuple[Any, int, str]:
    return bower_for_the_last_trick(), 0, "play 9D"


def _dutch_turn(round_: Any, *power: str) -> None:
    """The seat to act draws and discards the card drawn, using a Queen as `power` says (or
    skipping any power)."""
    seat = round_.to_act()[0]
    round_.apply(seat, "draw")
    round_.apply(seat, "discard")
    for move in power:
        round_.apply(seat, move)
    if round_.to_act() == (seat,) and "skip" in {str(a) for a in round_.legal_actions(seat)}:
        round_.apply(seat, "skip")


def dutch_position() -> tuple[Any, int, str]:
    # Classic rules, two players. Seat 0 peeked at 3D AC, then looked with Queens at its 6S 5H
    # (its total: 13) and at seat 1's hidden KH KD (seat 1 holds at least 30 - 3 - 3 = 24, and
    # knows only its AS AH). The round has gone on long: the strong bot calls now, and calling
    # scores 0, as the lowest. Waiting, seat 1 (whose own estimate is low) calls on its next
    # turn, fails, and seat 0 scores its 13 or so.
    round_ = deal("classic", ["6S 5H 3D AC", "KH KD AS AH"], "9S", "QH 9C QD 9D QS 9H QC 8C")
    for look in ("0:1", "0:2", "1:1", "1:2"):
        _dutch_turn(round_, f"look {look}")
        _dutch_turn(round_)
    while knowledge_of(round_, 0).turns < STRONG_PATIENCE * 2 or round_.to_act() != (0,):
        _dutch_turn(round_)
    assert knowledge_of(round_, 1).turns >= SIMPLE_PATIENCE * 2  # seat 1 would call at once
    return round_, 0, "dutch"


def dame_position() -> tuple[Any, int, str]:
    # Seat 1 holds pairs of 7s, Queens and aces; the pile is Q♠ A♣ A♦ under seat 0's 7♦: taking
    # it lays a pack of 7s and turns the Queens (with the Q♠, 100 points) and the aces into
    # packs. Drawing instead leaves that pile to the others.
    hand = "7S 7H QH QD AS AH 4D 5C 6H 8S 9D 10C JH"
    round_ = dame_round({0: "7D", 1: hand}, stock="QS AC AD 9S")
    for seat in (1, 2, 3):
        draw_and_discard(round_, seat)
    round_.apply(0, "draw")
    round_.apply(0, "discard 7D")
    return round_, 1, "take 7S 7H"


POSITIONS: dict[str, tuple[Callable[[], tuple[Any, int, str]], Callable[..., Any]]] = {
    "euchre": (euchre_position, simple_euchre),
    "dutch": (dutch_position, simple_dutch),
    "dame": (dame_position, simple_dame),
}


def _finish(round_: Any, simple: Callable[..., Any], seed: int = 0) -> None:
    """Every seat plays the simple policy to the hand's end."""
    rng = random.Random(seed)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, simple(round_, seat, rng))


def _offered() -> list[tuple[str, str]]:
    cases = []
    for name, (position, _) in POSITIONS.items():
        round_, seat, _ = position()
        cases += [(name, str(a)) for a in round_.legal_actions(seat)]
    return cases


@pytest.mark.parametrize(("game", "played"), _offered())
def test_the_clearly_best_move_is_found_and_every_other_move_marked_costly(
    game: str, played: str
) -> None:
    position, simple = POSITIONS[game]
    round_, seat, best = position()
    decision_at = len(round_.history)
    round_ = pickle.loads(pickle.dumps(round_))
    round_.apply(seat, played)
    _finish(round_, simple)
    record = round_.record()
    (at,) = [p for p in positions_of(record, seat) if p.index == decision_at]
    decision = review_decision(record, seat, at, seed=1, samples=12, budget=None)
    assert decision.best == best
    if played == best:
        assert decision.cost == 0.0 and decision.grade == ""
    else:
        assert decision.grade in ("mistake", "blunder"), decision
        assert decision.samples == 12
