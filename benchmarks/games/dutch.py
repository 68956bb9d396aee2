"""Dutch engine benchmark: `python -m benchmarks.games dutch`.

For each preset, 4 players play whole rounds with the simple policy (games.dutch.bots.policy).
Prints full rounds per second with the policy deciding (each decision reads the seat's decision view
and knowledge, then the action is applied), then the engine alone: the same rounds replayed from
their decks and action lists, with `legal_actions` asked before every `apply`. Each timing is the
best of 3 runs of this process's CPU time (`time.process_time`): a busy machine disturbs them less.
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple

from games.cards import Card
from games.contract import RoundSetup
from games.dutch import GAME, DutchAction, DutchOptions, DutchRound
from games.dutch.bots.policy import choose_action

SEATS = 4
ROUNDS = 400
REPEATS = 3  # each timing is the best of these runs (a busy machine adds noise)


class Played(NamedTuple):
    """What the replay needs of a played round. Not the round itself: 400 finished rounds kept
    alive with all their events made the garbage collector's full passes a fifth of the timing."""

    options: DutchOptions
    setup: RoundSetup
    deck: tuple[Card, ...]
    history: list[tuple[int, DutchAction]]


def _play(preset: str, seed: int) -> Played:
    rng = random.Random(seed)
    setup = RoundSetup(n_seats=SEATS, dealer=seed % SEATS)
    round_ = GAME.new_round(GAME.options(preset), setup, seed=seed)
    assert isinstance(round_, DutchRound)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, choose_action(round_, seat, rng))
    return Played(round_.options, setup, round_.deck_order, round_.history)


def _replay_seconds(played: list[Played]) -> float:
    started = time.process_time()
    for options, setup, deck, history in played:
        again = GAME.new_round(options, setup, deck=deck)
        for seat, action in history:
            again.legal_actions(seat)
            again.apply(seat, action)
    return time.process_time() - started


def _play_seconds(preset: str, rounds: int) -> tuple[float, list[Played]]:
    started = time.process_time()
    played = [_play(preset, seed) for seed in range(rounds)]
    return time.process_time() - started, played


def _bench(preset: str, rounds: int, repeats: int) -> None:
    with_policy, played = float("inf"), list[Played]()
    for _ in range(repeats):  # the same rounds every time (seeded)
        played = []  # the previous run's rounds are not kept alive during this one
        seconds, played = _play_seconds(preset, rounds)
        with_policy = min(with_policy, seconds)
    actions = sum(len(p.history) for p in played)

    engine = min(_replay_seconds(played) for _ in range(repeats))

    print(
        f"{preset:8} {SEATS} players: {rounds} rounds, {actions / rounds:.0f} actions/round | "
        f"with policy: {rounds / with_policy:,.0f} rounds/s, "
        f"{with_policy / actions * 1e6:.1f} µs/action | "
        f"engine (legal_actions + apply): {rounds / engine:,.0f} rounds/s, "
        f"{engine / actions * 1e6:.1f} µs/action"
    )


def main(short: bool = False) -> None:
    """`short`: a few rounds once (the test suite's run: it proves the script runs)."""
    for preset in GAME.presets:
        _bench(preset, 10 if short else ROUNDS, 1 if short else REPEATS)


if __name__ == "__main__":
    main()
