"""A review of one seat's play in a finished hand (docs/review.md).

`review_hand(record, seat)` replays the hand and, at each decision of `seat` with more than one
offered move, asks the strong bot what it would have played from that seat's knowledge, then
estimates what the player's move cost against the bot's by Monte Carlo, on worlds the seat
could not tell apart (`WorldSampler`). **Cost** = value of the bot's move - value of the
player's move (0 when they agree), graded by the game's `Game.review_terms`; **accuracy** is
the share of decisions whose cost is below the inaccuracy threshold, in percent.

Pure and deterministic for a seed when `budget` is None (a sample count only).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import pickle
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any

from games.cards import Card, card
from games.contract import Game, Round, RoundRecord
from games.errors import IllegalAction
from games.registry import bots_module_name, get_game

GRADES = ("inaccuracy", "mistake", "blunder")
DEFAULT_SAMPLES = 48  # worlds per decision, at most
MIN_SAMPLES = 3  # even past the budget, this many worlds per estimate…
SHORT_BUDGET = 0.1  # …unless the decision's budget is below this (the hand's time is running out)
SAMPLE_TRIES = 400  # random decks tried per accepted world, at most
BOT_SAMPLES = 24  # the strong bot's own sample count when the review is deterministic
ROLLOUT_CAP = 2000  # actions played out at most (a guard: every hand ends far sooner)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat: the action's index in the record (from 0), the move
    played and the bot's, how many moves were offered, the estimated values (None when they
    agree: not played out) and the cost, graded ("" when below the inaccuracy threshold)."""

    index: int
    played: str
    best: str
    offered: int
    played_value: float | None
    best_value: float | None
    cost: float
    grade: str
    samples: int


@dataclass(frozen=True, slots=True)
class Review:
    game: str
    seat: int
    decisions: tuple[Decision, ...]
    accuracy: float  # percent of decisions within the inaccuracy threshold (100 when none)

    def count(self, grade: str) -> int:
        return sum(1 for d in self.decisions if d.grade == grade)


def grade_of(game: str, cost: float) -> str:
    """The grade of a move that cost `cost` (in the game's points): "" below the game's
    inaccuracy threshold (`Game.review_terms`)."""
    thresholds = get_game(game).review_terms.thresholds
    grade = ""
    for name, threshold in zip(GRADES, thresholds, strict=True):
        if cost >= threshold:
            grade = name
    return grade


def accuracy_of(game: str, costs: Iterable[float]) -> float:
    costs = list(costs)
    if not costs:
        return 100.0
    inaccuracy = get_game(game).review_terms.thresholds[0]
    return round(100.0 * sum(1 for c in costs if c < inaccuracy) / len(costs), 1)


def _value(game_name: str, round_: Round[Any, Any, Any], seat: int) -> float:
    return get_game(game_name).review_value(round_.result().points, seat, round_.setup.n_seats)


def seen_now(game: Game[Any, Any, Any], round_: Round[Any, Any, Any], seat: int) -> set[Card]:
    """The cards `seat`'s view shows it now (`Game.seen_in`)."""
    return {card(code) for code in game.seen_in(round_.view(seat))}


# -- sampling worlds --------------------------------------------------------------------------
@dataclass(slots=True)
class _Position:
    """A decision of the seat: the record's prefix before it and what the seat had seen."""

    index: int
    seen: frozenset[Card]
    view: Any
    offered: int


class WorldSampler:
    """Decks the seat could not tell from the real one at a decision.

    The cards the seat has seen up to the decision (`Game.seen_in`, each game reading the
    seat's views: its hand, cards played, the turned card, what it peeked at…) keep their place
    in the deck; every other card is dealt anew at random. The hidden cards are put in a
    canonical order before shuffling, so the real places of cards the seat never saw are never
    read. A sampled deck is kept when the recorded actions replay on it and the seat's view at
    the decision is the real one; the strong bot decides on such a world, never on the real
    one. On each world the player's move and the bot's are played, then every seat plays the
    simple policy to the hand's end, with the same random draws for both moves; a move's value
    is the mean of the seat's side's result as its game weighs it (`Game.review_value`)."""

    def __init__(self, record: RoundRecord, seat: int, position: _Position) -> None:
        self.record, self.seat, self.position = record, seat, position
        self.deck = [card(code) for code in record.deck]
        self.hidden_at = [i for i, c in enumerate(self.deck) if c not in position.seen]
        self.hidden = sorted((self.deck[i] for i in self.hidden_at), key=lambda c: c.code)
        self.prefix = record.actions[: position.index]
        self.game = get_game(record.game)

    def sample(self, rng: random.Random) -> Round[Any, Any, Any] | None:
        """A world at the decision (the round replayed on a sampled deck), or None after
        SAMPLE_TRIES decks that do not fit."""
        for _ in range(SAMPLE_TRIES):
            cards = list(self.hidden)
            rng.shuffle(cards)
            deck = list(self.deck)
            for at, c in zip(self.hidden_at, cards, strict=True):
                deck[at] = c
            try:
                world = self.game.replay(
                    self.record.model_copy(
                        update={"deck": [c.code for c in deck], "actions": self.prefix}
                    )
                )
            except (IllegalAction, ValueError):
                continue
            if world.view(self.seat) == self.position.view:
                return world
        return None


_COPY = re.compile(r"#\d+")


def same_move(a: str, b: str) -> bool:
    """The same move for the player: notations equal but for which copy of a card (`QS#1`, `QS`)."""
    return plain(a) == plain(b)


def plain(notation: str) -> str:
    return _COPY.sub("", notation)


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def _simple(game_name: str) -> Callable[..., Any]:
    module = _module(bots_module_name(game_name, "simple"))
    choose = getattr(module, "choose_action", None)
    if choose is None:
        return lambda round_, seat, rng: rng.choice(round_.legal_actions(seat))
    return choose  # type: ignore[no-any-return]


def _strong(game_name: str, budget: float | None) -> Callable[..., Any]:
    module = _module(bots_module_name(game_name, "strong")) or _module(
        bots_module_name(game_name, "simple")
    )
    choose = getattr(module, "choose_action", None)
    if choose is None:
        return _simple(game_name)
    parameters = inspect.signature(choose).parameters
    extra: dict[str, Any] = {}
    if "budget" in parameters:
        extra["budget"] = budget
        if "max_samples" in parameters and budget is None:
            extra["max_samples"] = BOT_SAMPLES
        elif budget is None:
            extra["budget"] = 0.2  # a searching bot with no sample cap gets a short search
    return lambda round_, seat, rng: choose(round_, seat, rng, **extra)


def _copy(round_: Round[Any, Any, Any]) -> Round[Any, Any, Any]:
    return pickle.loads(pickle.dumps(round_))  # type: ignore[no-any-return]


def _play_out(
    game_name: str,
    world: Round[Any, Any, Any],
    seat: int,
    move: str,
    simple: Callable[..., Any],
    seed: int,
) -> float:
    world.apply(seat, move)
    rng = random.Random(seed)
    for _ in range(ROLLOUT_CAP):
        if world.finished:
            break
        who = world.to_act()[0]
        world.apply(who, simple(world, who, rng))
    return _value(game_name, world, seat)


# -- the review -------------------------------------------------------------------------------
Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


def positions_of(record: RoundRecord, seat: int) -> list[_Position]:
    """The seat's decisions with more than one offered move, with what it had seen then."""
    game = get_game(record.game)
    round_ = game.replay(record.model_copy(update={"actions": []}))
    seen: set[Card] = set()
    positions = []
    for index, (who, notation) in enumerate(record.actions):
        seen |= seen_now(game, round_, seat)
        offered = len(round_.legal_actions(seat)) if who == seat else 0
        if offered > 1:
            positions.append(_Position(index, frozenset(seen), round_.view(seat), offered))
        round_.apply(who, notation)
    return positions


def best_move(
    record: RoundRecord, seat: int, position: _Position, *, seed: int, budget: float | None
) -> str | None:
    """The strong bot's move at the decision, chosen on one world the seat could not tell from
    the real one (`budget`: the bot's search time; None: its deterministic sample count), or
    None when no world fits (should not happen: the move is not judged)."""
    rng = random.Random(f"{seed}:{position.index}")
    world = WorldSampler(record, seat, position).sample(rng)
    if world is None:
        return None
    return plain(str(_strong(record.game, budget)(world, seat, rng)))


def estimate(
    record: RoundRecord,
    seat: int,
    position: _Position,
    moves: tuple[str, str],
    *,
    seed: int,
    chunk: int = 0,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None,
    least: int = 1,
) -> tuple[float, float, int]:
    """The played move's and the bot's move's totals over up to `samples` worlds, each played
    out to the hand's end with the same random draws for both, and the worlds played: at least
    `least` (when any fits), then until `budget` seconds are spent (None: `samples` exactly).
    `chunk` numbers the estimate's pieces: each draws its own worlds."""
    rng = random.Random(f"{seed}:{position.index}:{chunk}")
    sampler = WorldSampler(record, seat, position)
    simple = _simple(record.game)
    deadline = None if budget is None else time.perf_counter() + budget
    totals = [0.0, 0.0]
    n = 0
    while n < samples:
        world = sampler.sample(rng)
        if world is None:
            break
        rollout_seed = rng.getrandbits(32)
        for i, move in enumerate(moves):
            totals[i] += _play_out(record.game, _copy(world), seat, move, simple, rollout_seed)
        n += 1
        if deadline is not None and n >= least and time.perf_counter() > deadline:
            break
    return totals[0], totals[1], n


def judged(
    game_name: str,
    index: int,
    offered: int,
    played: str,
    best: str | None,
    totals: tuple[float, float, int],
) -> Decision:
    """The decision at action `index`, from the bot's move (None: not judged) and the
    estimate's totals."""
    played_total, best_total, n = totals
    if best is None or same_move(best, played) or n == 0:
        return Decision(index, played, best or played, offered, None, None, 0.0, "", 0)
    played_value, best_value = played_total / n, best_total / n
    cost = max(0.0, best_value - played_value)
    return Decision(
        index,
        played,
        best,
        offered,
        round(played_value, 3),
        round(best_value, 3),
        round(cost, 3),
        grade_of(game_name, cost),
        n,
    )


# -- the review in pieces (each one a bot worker can run: `run(budget)`, a JSON-ready result) -
@functools.lru_cache(maxsize=8)
def _positions(record_json: str, seat: int) -> dict[int, _Position]:
    record = RoundRecord.model_validate_json(record_json)
    return {p.index: p for p in positions_of(record, seat)}


def position_at(record: RoundRecord, seat: int, index: int) -> _Position:
    """The seat's decision at action `index` (the hand's positions are kept for the next
    piece of the same review)."""
    return _positions(record.model_dump_json(), seat)[index]


@dataclass(frozen=True, slots=True)
class PositionsStep:
    """The seat's decisions: `[[action index, moves offered], …]`."""

    record: RoundRecord
    seat: int

    def run(self, budget: float | None) -> list[list[int]]:
        positions = _positions(self.record.model_dump_json(), self.seat)
        return [[p.index, p.offered] for p in positions.values()]


@dataclass(frozen=True, slots=True)
class BestMoveStep:
    """`best_move` at the decision of action `index` (None: not judged)."""

    record: RoundRecord
    seat: int
    index: int
    seed: int

    def run(self, budget: float | None) -> str | None:
        position = position_at(self.record, self.seat, self.index)
        return best_move(self.record, self.seat, position, seed=self.seed, budget=budget)


@dataclass(frozen=True, slots=True)
class EstimateStep:
    """A chunk of `estimate` at the decision of action `index`: `[played total, best total,
    worlds]`."""

    record: RoundRecord
    seat: int
    index: int
    moves: tuple[str, str]
    seed: int
    chunk: int
    samples: int
    least: int

    def run(self, budget: float | None) -> list[float]:
        played, best, n = estimate(
            self.record,
            self.seat,
            position_at(self.record, self.seat, self.index),
            self.moves,
            seed=self.seed,
            chunk=self.chunk,
            samples=self.samples,
            budget=budget,
            least=self.least,
        )
        return [played, best, n]


def review_decision(
    record: RoundRecord,
    seat: int,
    position: _Position,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None,
) -> Decision:
    """One decision reviewed here: the bot's move (a third of `budget`), then the estimate."""
    played = record.actions[position.index][1]
    best = best_move(record, seat, position, seed=seed, budget=budget and budget / 3)
    index, offered = position.index, position.offered
    if best is None or same_move(best, played):
        return judged(record.game, index, offered, played, best, (0.0, 0.0, 0))
    least = MIN_SAMPLES if budget is not None and budget >= SHORT_BUDGET else 1
    totals = estimate(
        record,
        seat,
        position,
        (played, best),
        seed=seed,
        samples=samples,
        budget=budget,
        least=least,
    )
    return judged(record.game, index, offered, played, best, totals)


def review_hand(
    record: RoundRecord,
    seat: int,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None | str = "game",
    progress: Progress | None = None,
) -> Review:
    """Review `seat`'s decisions in this finished hand (`budget`: seconds per decision; "game":
    the game's `review_terms` decision budget, within its hand budget, the time left shared
    among the decisions left; None: `samples` worlds each, deterministic for the seed)."""
    if not 0 <= seat < record.n_seats:
        raise ValueError(f"seat {seat} is not at this table")
    start = time.perf_counter()
    positions = positions_of(record, seat)
    per_game = isinstance(budget, str)
    terms = get_game(record.game).review_terms
    hand_budget, own = terms.hand_budget, terms.decision_budget
    decisions = []
    for done, position in enumerate(positions):
        if progress is not None:
            progress(done, len(positions))
        spend: float | None = None if per_game else budget  # type: ignore[assignment]
        if per_game:  # the hand's time left, shared among the decisions left
            left = hand_budget - (time.perf_counter() - start)
            spend = max(0.0, min(own, left / (len(positions) - done)))
        decisions.append(
            review_decision(record, seat, position, seed=seed, samples=samples, budget=spend)
        )
    if progress is not None:
        progress(len(positions), len(positions))
    return Review(
        record.game,
        seat,
        tuple(decisions),
        accuracy_of(record.game, (d.cost for d in decisions)),
    )


def review_to_json(review: Review) -> str:
    """The review as JSON text (what the bot stores)."""
    return json.dumps(asdict(review), separators=(",", ":"))


def review_from_json(data: str) -> Review:
    raw = json.loads(data)
    decisions = tuple(Decision(**d) for d in raw["decisions"])
    return Review(raw["game"], raw["seat"], decisions, raw["accuracy"])
