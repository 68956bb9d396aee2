"""Euchre engine benchmark: `python -m benchmarks.games euchre` (one core, numbers only).

- random hands, integer engine: `games.euchre.bots.fast.random_hand` (shuffle, deal, uniformly
  random legal bids, discard and cards to the end of the hand, scored), the unit a search
  bot's rollouts are made of. When the optional `open_spiel` package is installed (`pip
  install -e '.[openspiel]'`), OpenSpiel's C++ euchre plays the same unit in the same run
  (`pyspiel.evaluate_bots` with four uniform random bots: chance deals and play all in C++),
  interleaved with ours in short windows, best window of each: a busy machine disturbs both.
- random hands, public API: a seeded shuffle, then `round.apply(seat, rng.choice(
  round.legal_actions(seat)))` until the hand is over (events, history, validation).
- policy hands: the same, every seat played by `games.euchre.bots.policy.choose_action`.
- replays: `GAME.replay(record)` of finished random hands.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.contract import RoundRecord, RoundSetup
from games.euchre import GAME
from games.euchre.bots.fast import random_hand
from games.euchre.bots.policy import choose_action
from games.euchre.round import EuchreRound

SECONDS = 2.0
WINDOWS = 8  # interleaved windows of the integer engine and OpenSpiel
WINDOW_SECONDS = 0.5


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


def _measure(
    play: Callable[[int, random.Random], tuple[EuchreRound, int]], seconds: float
) -> tuple[float, float]:
    rng = random.Random(0)
    hands = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            actions += play(hands, rng)[1]
            hands += 1
    return hands / elapsed, actions / elapsed


def _measure_replay(seconds: float, hands: int) -> float:
    rng = random.Random(1)
    records: list[RoundRecord] = [_random_hand(i, rng)[0].record() for i in range(hands)]
    replays = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for record in records:
            GAME.replay(record)
        replays += len(records)
    return replays / elapsed


def _window(play_batch: Callable[[int], None], seconds: float) -> float:
    """Hands per second of `play_batch(100)` repeated for one window."""
    hands = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        play_batch(100)
        hands += 100
    return hands / elapsed


def _integer_batch(rng: random.Random) -> Callable[[int], None]:
    def play(n: int) -> None:
        for i in range(n):
            random_hand(rng, i & 3)

    return play


def _openspiel_batch() -> Callable[[int], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]  # optional extra
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    bots = [pyspiel.make_uniform_random_bot(seat, 1000 + seat) for seat in range(4)]
    seeds = iter(range(1 << 62))

    def play(n: int) -> None:
        for _ in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))

    return play


def main(short: bool = False) -> None:
    """`short`: every measure for a few hundredths of a second (the test suite's run)."""
    seconds, windows, window_seconds = (
        (0.05, 1, 0.02) if short else (SECONDS, WINDOWS, WINDOW_SECONDS)
    )
    ours_batch, theirs_batch = _integer_batch(random.Random(0)), _openspiel_batch()
    ours = theirs = 0.0
    for _ in range(windows):
        ours = max(ours, _window(ours_batch, window_seconds))
        if theirs_batch is not None:
            theirs = max(theirs, _window(theirs_batch, window_seconds))
    print(f"euchre random hands/s, integer engine (one core): {ours:,.0f}")
    if theirs_batch is None:
        print("OpenSpiel random hands/s: not measured (pip install -e '.[openspiel]')")
    else:
        print(f"OpenSpiel C++ euchre random hands/s (same run): {theirs:,.0f}")
        print(f"  ratio: {ours / theirs:.2f}x OpenSpiel")
    hands, actions = _measure(_random_hand, seconds)
    print(f"euchre random hands/s, public API (one core): {hands:,.0f}  ({actions:,.0f} actions/s)")
    hands, actions = _measure(_policy_hand, seconds)
    print(f"euchre policy hands/s (one core): {hands:,.0f}  ({actions:,.0f} actions/s)")
    print(f"euchre replays/s (one core): {_measure_replay(seconds, 20 if short else 500):,.0f}")


if __name__ == "__main__":
    main()
