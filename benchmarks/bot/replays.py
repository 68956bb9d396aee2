"""`python -m benchmarks.bot.replays`: how fast a replay opens and steps.

The target is a click's latency: p99 under 50 ms for a Dame de Pique hand.

A Dame de Pique hand is played to its end by simple bot players and stored as the bot stores
one (table, seats, match, round, each action, the result); then the replay viewer's work is
timed: opening (the finished hand read from the store, replayed to its start and rendered) and
every step forward and back (replayed to that step and rendered as the viewer does: its words,
buttons and the rows of its picture, named by their digest; the picture itself is drawn in a
drawing process, off the click's path, and is not timed here).
`--short`: a smaller run, for the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from benchmarks.bot.latency import latency_line
from bot.render.replay import Replayer, replay_message
from bot.runtime.policy import policy_for
from games.match import Match
from games.registry import get_game
from storage import SeatRecord, Store


async def stored_hand(store: Store, game_name: str, seed: int) -> tuple[int, int, int]:
    """One finished hand stored; returns (table id, round number, actions)."""
    game = get_game(game_name)
    options = game.options()
    n = 4 if game.min_seats <= 4 <= game.max_seats else game.min_seats
    table = await store.create_table(1, 2, game_name, options.model_dump(mode="json"), host_id=1)
    seats = [SeatRecord(seat=s, user_id=100 + s, display_name=f"Player {s}") for s in range(n)]
    await store.save_seats(table.id, seats)
    await store.update_table(table.id, status="playing")
    match = Match(game, options, n)
    await store.start_match(table.id, match.state())
    round_ = match.new_round(seed=seed)
    round_no = await store.start_round(table.id, round_.record())
    rng = random.Random(seed)
    policy = policy_for(game, "simple")
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, policy.choose(round_, seat, rng))
        seat_, notation = round_.record().actions[-1]
        await store.record_action(table.id, round_no, len(round_.history) - 1, seat_, notation)
    result = round_.result()
    match.add_round(result)
    await store.finish_round(table.id, round_no, result, list(match.totals))
    return table.id, round_no, len(round_.history)


async def measure(hands: int, game: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "replays.sqlite3", synchronous="NORMAL")
        try:
            opened: list[float] = []
            stepped: list[float] = []
            lengths = []
            replayer = Replayer()
            warm, _, _ = await stored_hand(store, game, 999)  # first renders load catalogs
            replay_message(replayer.frame(await store.finished_hand(warm, 0), 1), "en")
            for seed in range(hands):
                table_id, round_no, actions = await stored_hand(store, game, seed)
                lengths.append(actions)
                started = time.perf_counter()
                hand = await store.finished_hand(table_id, round_no)
                replay_message(replayer.frame(hand, 0), "en")
                opened.append(time.perf_counter() - started)
                for step in (*range(1, actions + 1), *range(actions - 1, -1, -1)):
                    started = time.perf_counter()
                    replay_message(replayer.frame(hand, step), "en")
                    stepped.append(time.perf_counter() - started)
        finally:
            await store.close()
    print(
        f"{game}: {hands} finished hands of {min(lengths)}-{max(lengths)} actions, "
        f"{len(stepped)} steps"
    )
    print(latency_line("replay opened", opened, 14))
    print(latency_line("replay step", stepped, 14))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot.replays", description=__doc__)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--game", default="dame")
    parser.add_argument("--short", action="store_true", help="two hands (the test suite's run)")
    args = parser.parse_args(argv)
    asyncio.run(measure(2 if args.short else args.hands, args.game))


if __name__ == "__main__":
    main()
