"""Dame de Pique benchmark: full hands played by the simple policy on one core.

Prints hands per second, µs per action (policy choice + `apply`, the target is ≤ 30 µs),
and, for reference, µs per `legal_actions` call, per `view`, and per replayed action.
"""

from __future__ import annotations

import random
import time

from games.contract import RoundSetup
from games.dame import GAME, DameRound
from games.dame.bots.simple import choose_action

HANDS = 2000
SAMPLED_HANDS = 200  # hands on which legal_actions, views and replay are also timed


def _play(seed: int, rng: random.Random) -> tuple[DameRound, int]:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=seed % 4), seed=seed)
    assert isinstance(round_, DameRound)
    actions = 0
    while round_.winner is None:
        seat = round_.turn
        round_.apply(seat, choose_action(round_, seat, rng))
        actions += 1
    return round_, actions


def main(short: bool = False) -> None:
    """`short`: a few hands (the test suite's run: it proves the script runs)."""
    hands, sampled_hands = (5, 2) if short else (HANDS, SAMPLED_HANDS)
    rng = random.Random(0)
    start = time.perf_counter()
    actions = 0
    for seed in range(hands):
        actions += _play(seed, rng)[1]
    elapsed = time.perf_counter() - start
    print(f"dame: {hands} hands by the simple policy, {actions} actions, {elapsed:.2f} s")
    print(f"  hands per second:        {hands / elapsed:10.0f}")
    print(f"  µs per action:           {elapsed / actions * 1e6:10.2f}  (target ≤ 30)")
    print(f"  actions per hand:        {actions / hands:10.1f}")

    legal_time = view_time = replay_time = 0.0
    legal_calls = view_calls = replayed = 0
    for seed in range(sampled_hands):
        round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4), seed=seed)
        assert isinstance(round_, DameRound)
        while round_.winner is None:
            seat = round_.turn
            t = time.perf_counter()
            round_.legal_actions(seat)
            legal_time += time.perf_counter() - t
            t = time.perf_counter()
            round_.view(seat)
            view_time += time.perf_counter() - t
            legal_calls += 1
            view_calls += 1
            round_.apply(seat, choose_action(round_, seat, rng))
        record = round_.record()
        t = time.perf_counter()
        GAME.replay(record)
        replay_time += time.perf_counter() - t
        replayed += len(record.actions)
    print(f"  µs per legal_actions:    {legal_time / legal_calls * 1e6:10.2f}")
    print(f"  µs per view:             {view_time / view_calls * 1e6:10.2f}")
    print(f"  µs per replayed action:  {replay_time / replayed * 1e6:10.2f}  (parses notation)")


if __name__ == "__main__":
    main()
