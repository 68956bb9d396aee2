"""Euchre engine benchmark: `python -m games.bench euchre` (one core, numbers only).

- random hands: deal from a seeded shuffle, then uniformly random legal actions (bidding,
  the dealer's discard, play) until the hand is over; legal-action generation included.
- policy hands: the same, every seat played by `games.euchre.policy.choose_action`.
- replays: `GAME.replay(record)` of finished random hands.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.contract import RoundRecord, RoundSetup
from games.euchre import GAME
from games.euchre.policy import choose_action
from games.euchre.round import EuchreRound

SECONDS = 2.0


def _random_hand(index: int, rng: random.Random) -> tuple[EuchreRound, int]:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=index % 4), seed=index)
    actions = 0
    while not round_.finished:
        (seat,) = round_.to_act()
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
        actions += 1
    return round_, actions  # type: ignore[return-value]


def _policy_hand(index: int, rng: random.Random) -> tuple[EuchreRound, int]:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=index % 4), seed=index)
    actions = 0
    while not round_.finished:
        (seat,) = round_.to_act()
        round_.apply(seat, choose_action(round_, seat, rng))  # type: ignore[arg-type]
        actions += 1
    return round_, actions  # type: ignore[return-value]


def _measure(play: Callable[[int, random.Random], tuple[EuchreRound, int]]) -> tuple[float, float]:
    rng = random.Random(0)
    hands = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < SECONDS:
        for _ in range(100):
            actions += play(hands, rng)[1]
            hands += 1
    return hands / elapsed, actions / elapsed


def _measure_replay() -> float:
    rng = random.Random(1)
    records: list[RoundRecord] = [_random_hand(i, rng)[0].record() for i in range(500)]
    replays = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < SECONDS:
        for record in records:
            GAME.replay(record)
        replays += len(records)
    return replays / elapsed


def main() -> None:
    hands, actions = _measure(_random_hand)
    print(f"euchre random hands/s (one core): {hands:,.0f}  ({actions:,.0f} actions/s)")
    hands, actions = _measure(_policy_hand)
    print(f"euchre policy hands/s (one core): {hands:,.0f}  ({actions:,.0f} actions/s)")
    print(f"euchre replays/s (one core): {_measure_replay():,.0f}")


if __name__ == "__main__":
    main()
