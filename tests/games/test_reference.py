"""The deep search behind the reference players (games/reference.py): sequential halving on
shared worlds, and the strong bot's move kept unless another is clearly better."""

from __future__ import annotations

import random
from typing import Any

from games.reference import search


class _Coin:
    """A one-decision 'round': the seat picks a move, then a coin worth its bias is thrown."""

    finished = False

    def __init__(self) -> None:
        self.move: Any = None
        self.noise = 0.0

    def apply(self, seat: int, move: Any) -> None:
        self.move, self.finished = move, True

    def to_act(self) -> tuple[int, ...]:
        return (0,)


BIAS = {"a": 0.0, "b": 0.0, "c": 1.0, "d": 0.2}


def _world(rng: random.Random) -> Any:
    world = _Coin()
    world.noise = rng.gauss(0.0, 1.0)  # the world's luck, the same for every move
    return world


def _value(world: Any, seat: int) -> float:
    return float(BIAS[world.move] + world.noise)


def test_the_search_finds_the_move_that_is_better_on_the_same_worlds() -> None:
    found = search(
        0, list(BIAS), "a", _world, lambda *_: None, _value, random.Random(1), budget=None,
        rollouts=64,
    )  # fmt: skip
    assert found.move == "c"
    assert found.baseline == "a"
    assert found.value > found.baseline_value


def test_the_strong_bots_move_stays_when_no_move_is_clearly_better() -> None:
    even = dict.fromkeys(BIAS, 0.0)

    def value(world: Any, seat: int) -> float:
        return float(even[world.move] + world.noise)

    for seed in range(5):
        found = search(
            0, list(BIAS), "b", _world, lambda *_: None, value, random.Random(seed),
            budget=None, rollouts=64,
        )  # fmt: skip
        assert found.move == "b"


def test_no_budget_or_a_single_move_is_no_search() -> None:
    rng = random.Random(0)
    found = search(0, ["a", "c"], "a", _world, lambda *_: None, _value, rng, budget=None)
    assert (found.move, found.rollouts) == ("a", 0)
    found = search(0, ["a"], "a", _world, lambda *_: None, _value, rng, budget=1.0)
    assert (found.move, found.rollouts) == ("a", 0)
