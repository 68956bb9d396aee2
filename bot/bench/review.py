"""`python -m bot.bench.review`: how long a whole hand's review takes, per game (issue: under
10 s for Euchre and Dutch, under 30 s for Dame de Pique, on one core).

For each game, hands are played to their end by the simple bot players (a player weaker than
the strong bot, so its moves often differ from the bot's and are played out: a strong player's
review, mostly agreeing with the bot, is quicker), then seat 0's play is reviewed with the
game's time budget (`games.review.BUDGETS`, `HAND_BUDGETS`), as the bot does when a player
asks. Prints, per game, the decisions reviewed
and the time of each hand's review (mean and worst). `--short`: one hand per game with a few
worlds per decision and no time budget, for the test suite.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bot.service.policy import policy_for
from games.contract import RoundRecord, RoundSetup
from games.registry import get_game
from games.review import review_hand

GAMES = ("euchre", "dutch", "dame")


def played_hand(game_name: str, seed: int, level: str = "simple") -> RoundRecord:
    game = get_game(game_name)
    n = 4 if game.min_seats <= 4 <= game.max_seats else game.min_seats
    round_: Any = game.new_round(game.options(), RoundSetup(n_seats=n, dealer=seed % n), seed=seed)
    rng = random.Random(seed)
    policy = policy_for(game, level)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, policy.choose(round_, seat, rng, budget=0.02))
    return round_.record()  # type: ignore[no-any-return]


def measure(game_name: str, hands: int, *, short: bool) -> str:
    times: list[float] = []
    decisions = 0
    accuracies: list[float] = []
    for seed in range(hands):
        record = played_hand(game_name, seed + 1, "simple")
        start = time.perf_counter()
        if short:
            review = review_hand(record, 0, seed=seed, samples=2, budget=None)
        else:
            review = review_hand(record, 0, seed=seed)
        times.append(time.perf_counter() - start)
        decisions += len(review.decisions)
        accuracies.append(review.accuracy)
    mean = sum(times) / len(times)
    return (
        f"review {game_name}: {hands} hands, {decisions / hands:.1f} decisions per hand, "
        f"{mean:.2f} s per hand (worst {max(times):.2f} s), "
        f"accuracy {sum(accuracies) / len(accuracies):.0f}%"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.review", description=__doc__)
    parser.add_argument("--hands", type=int, default=3, help="hands per game")
    parser.add_argument("--game", choices=GAMES, action="append", help="default: all three")
    parser.add_argument("--short", action="store_true", help="one quick hand per game (tests)")
    args = parser.parse_args(argv)
    for game_name in args.game or GAMES:
        print(measure(game_name, 1 if args.short else args.hands, short=args.short), flush=True)


if __name__ == "__main__":
    main()
