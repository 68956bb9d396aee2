"""`python -m benchmarks.bot.review`: how long a whole hand's review takes, per game.

The target is under 10 s for Euchre and Dutch and under 30 s for Dame de Pique, on one
core. It also measures how long bot moves wait for a worker while a review runs.

For each game, hands are played to their end by the simple bot players (a player weaker than
the strong bot, so its moves often differ from the bot's and are played out: a strong player's
review, mostly agreeing with the bot, is quicker), then seat 0's play is reviewed with the
game's time budget (`Game.review_terms`: per decision, per hand), as the bot does when a player
asks: in pieces, by one bot worker process (`bot.runtime.reviews`, one core). Prints, per game,
the decisions reviewed and the time of each hand's review (mean and worst); then one more hand
is reviewed while a table asks the same worker for a strong bot's move every 0.2 s, and the
moves' waits (asked -> answered: p50, worst) and fallbacks to the simple policy are printed.
`--inline`: the review in this process, in one go (`games.review.review_hand`), no bot moves.
`--short`: one hand per game with a few worlds per decision and no time budget, for the test
suite.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from typing import Any

from bot.runtime.policy import policy_for
from bot.runtime.reviews import review_in_workers
from bot.runtime.runner import ProcessPolicyRunner
from games.contract import Round, RoundRecord, RoundSetup
from games.registry import get_game
from games.review import Review, review_hand

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
    return round_.record()


MOVE_EVERY = 0.2  # seconds between two bot moves asked while a review runs


def _options(seed: int, short: bool) -> dict[str, Any]:
    return {"seed": seed, "samples": 2, "budget": None} if short else {"seed": seed}


def a_decision(game_name: str, seed: int) -> tuple[Round[Any, Any, Any], int]:
    """A round of the game at a decision with more than one move (a bot move to ask for)."""
    game = get_game(game_name)
    n = 4 if game.min_seats <= 4 <= game.max_seats else game.min_seats
    round_: Any = game.new_round(game.options(), RoundSetup(n_seats=n), seed=f"moves{seed}")
    rng = random.Random(seed)
    simple = policy_for(game, "simple")
    while True:
        seat = round_.to_act()[0]
        if len(round_.legal_actions(seat)) > 1:
            return round_, seat
        round_.apply(seat, simple.choose(round_, seat, rng))


def _line(game_name: str, times: list[float], reviews: list[Review], where: str) -> str:
    hands = len(times)
    decisions = sum(len(r.decisions) for r in reviews)
    accuracy = sum(r.accuracy for r in reviews) / hands
    return (
        f"review {game_name}: {hands} hands, {decisions / hands:.1f} decisions per hand, "
        f"{sum(times) / hands:.2f} s per hand (worst {max(times):.2f} s), "
        f"accuracy {accuracy:.0f}% ({where})"
    )


def measure(game_name: str, hands: int, *, short: bool) -> str:
    """The review in this process, in one go."""
    times: list[float] = []
    reviews: list[Review] = []
    for seed in range(hands):
        record = played_hand(game_name, seed + 1, "simple")
        start = time.perf_counter()
        reviews.append(review_hand(record, 0, **_options(seed, short)))
        times.append(time.perf_counter() - start)
    return _line(game_name, times, reviews, "inline")


async def measure_in_worker(game_name: str, hands: int, *, short: bool) -> list[str]:
    """The review in pieces by one worker; then one more, with bot moves asked meanwhile."""
    runner = ProcessPolicyRunner(1)
    try:
        await runner.ping()  # the worker's start is not the review's time
        times: list[float] = []
        reviews: list[Review] = []
        for seed in range(hands):
            record = played_hand(game_name, seed + 1, "simple")
            start = time.perf_counter()
            reviews.append(await review_in_workers(runner, record, 0, **_options(seed, short)))
            times.append(time.perf_counter() - start)
        lines = [_line(game_name, times, reviews, "one worker")]
        record = played_hand(game_name, hands + 1, "simple")
        review = asyncio.ensure_future(
            review_in_workers(runner, record, 0, **_options(hands, short))
        )
        before = runner.stats.copy()
        waits: list[float] = []
        rng = random.Random(0)
        while not review.done() or not waits:
            round_, seat = a_decision(game_name, len(waits))
            asked = time.perf_counter()
            await runner.think(round_, seat, "strong", rng, table="bench")
            waits.append(time.perf_counter() - asked)
            await asyncio.sleep(MOVE_EVERY)
        await review
        fallbacks = sum(runner.stats.fallbacks.values()) - sum(before.fallbacks.values())
        lines.append(
            f"review {game_name}, bot moves meanwhile: {len(waits)} moves, waited "
            f"p50 {statistics.median(waits) * 1000:.0f} ms, worst {max(waits) * 1000:.0f} ms, "
            f"{fallbacks} played simply"
        )
        return lines
    finally:
        runner.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot.review", description=__doc__)
    parser.add_argument("--hands", type=int, default=3, help="hands per game")
    parser.add_argument("--game", choices=GAMES, action="append", help="default: all three")
    parser.add_argument("--short", action="store_true", help="one quick hand per game (tests)")
    parser.add_argument("--inline", action="store_true", help="in this process, in one go")
    args = parser.parse_args(argv)
    hands = 1 if args.short else args.hands
    for game_name in args.game or GAMES:
        if args.inline:
            print(measure(game_name, hands, short=args.short), flush=True)
        else:
            for line in asyncio.run(measure_in_worker(game_name, hands, short=args.short)):
                print(line, flush=True)


if __name__ == "__main__":
    main()
