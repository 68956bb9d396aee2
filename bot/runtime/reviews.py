"""A review of a player's play (`games.review`), run in the bot players' workers, piece by piece.

Nothing of a review runs on the event loop: the runner (`PolicyRunner.chore`) sends each piece
to a bot worker, after the bots' moves waiting (`bot.runtime.pool`), and the hand's review is
put together here from the pieces' answers. No piece runs longer than `SLICE` seconds (and a
little, the last world played out), so a bot move asked meanwhile waits at most that long for
a worker. A piece that fails (its worker died or hung, or it waited too long) fails the review
with `bot.runtime.pool.ChoreFailed`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from games.contract import RoundRecord
from games.registry import get_game
from games.review import (
    DEFAULT_SAMPLES,
    MIN_SAMPLES,
    SHORT_BUDGET,
    BestMoveStep,
    EstimateStep,
    PositionsStep,
    Review,
    accuracy_of,
    judged,
    same_move,
)

if TYPE_CHECKING:
    from bot.runtime.runner import PolicyRunner

SLICE = 0.25  # seconds of work per piece at most: a bot move waits no longer for a worker
LEAST_SLICE = 0.02  # a decision's time left below this is not worth another piece

Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


async def _run(runner: PolicyRunner, task: Any, budget: float | None) -> Any:
    return json.loads(await runner.chore(task, budget))


async def review_in_workers(
    runner: PolicyRunner,
    record: RoundRecord,
    seat: int,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None | str = "game",
    progress: Progress | None = None,
) -> Review:
    """`seat`'s play in this finished hand reviewed by the runner's workers (`budget`: as
    `games.review.review_hand`'s).

    The pieces, in order:

    1. the seat's decisions (`PositionsStep`);
    2. per decision, the strong bot's move (`BestMoveStep`, a third of the decision's time);
    3. when it differs from the move played, the estimate in chunks (`EstimateStep`), each at
       most `SLICE` seconds, until the decision's time is spent or its worlds are all played
       (as `review_decision`: the bot's third, then the decision's time for the estimate).

    The hand's time (the game's `review_terms.hand_budget`) is shared among the decisions left,
    as `review_hand` does, counted in the pieces' budgets (the time they wait for a worker is
    not the review's). With `budget=None` the review plays `samples` worlds per decision and
    gives what `review_hand` gives for the seed.
    """
    if not 0 <= seat < record.n_seats:
        raise ValueError(f"seat {seat} is not at this table")
    positions: list[list[int]] = await _run(runner, PositionsStep(record, seat), None)
    per_game = isinstance(budget, str)
    terms = get_game(record.game).review_terms
    left, own = terms.hand_budget, terms.decision_budget
    decisions = []
    for done, (index, offered) in enumerate(positions):
        if progress is not None:
            progress(done, len(positions))
        spend: float | None = None if per_game else budget  # type: ignore[assignment]
        if per_game:  # the hand's time left, shared among the decisions left
            spend = max(0.0, min(own, left / (len(positions) - done)))
        played = record.actions[index][1]
        think = None if spend is None else min(spend / 3, SLICE)
        best = await _run(runner, BestMoveStep(record, seat, index, seed), think)
        used = think or 0.0
        totals = [0.0, 0.0, 0]
        if best is not None and not same_move(best, played):
            moves = (played, best)
            # at least a few worlds, unless the hand's time is running out
            least = MIN_SAMPLES if spend is not None and spend >= SHORT_BUDGET else 1
            chunk, played_out = 0, 0.0
            while totals[2] < samples:
                piece = None if spend is None else min(SLICE, max(0.0, spend - played_out))
                step = EstimateStep(
                    record, seat, index, moves, seed, chunk, samples - int(totals[2]), least
                )
                found = await _run(runner, step, piece)
                totals = [t + f for t, f in zip(totals, found, strict=True)]
                played_out += piece or 0.0
                chunk += 1
                least = 1
                if spend is None or found[2] == 0 or spend - played_out < LEAST_SLICE:
                    break
            used += played_out
        decisions.append(
            judged(
                record.game,
                index,
                offered,
                played,
                best,
                (totals[0], totals[1], int(totals[2])),
            )
        )
        left -= used
    if progress is not None:
        progress(len(positions), len(positions))
    return Review(
        record.game,
        seat,
        tuple(decisions),
        accuracy_of(record.game, (d.cost for d in decisions)),
    )
