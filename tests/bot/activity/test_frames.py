"""What a frame makes of each kind of value a view holds."""

from __future__ import annotations

import asyncio
import enum
import json
from dataclasses import dataclass, field
from typing import NamedTuple

import orjson
import pytest

from benchmarks.bot.renders import PrivateRender, TableRender, collect
from bot.activity.frames import plain, view_json
from games.cards import card


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 2


class Slot(NamedTuple):
    slot: int
    card: object


@dataclass(frozen=True)
class View:
    hand: tuple[object, ...]
    slots: list[Slot]
    marks: frozenset[str]
    colour: Colour
    level: Level
    by_seat: dict[int, object]
    _hidden: str = "never sent"
    extra: object = field(default_factory=lambda: complex(1, 2))


def test_a_view_becomes_plain_json_of_its_fields_with_cards_as_their_names() -> None:
    view = View(
        hand=(card("QS"), card("10H")),
        slots=[Slot(1, card("JK")), Slot(2, None)],
        marks=frozenset({"b", "a"}),
        colour=Colour.RED,
        level=Level.HIGH,
        by_seat={0: [card("AD")], 1: ()},
    )
    for _ in range(2):  # the first of a type finds its fields, the next reuses them
        assert plain(view) == {
            "hand": ["QS", "10H"],
            "slots": [{"slot": 1, "card": "JK"}, {"slot": 2, "card": None}],
            "marks": ["a", "b"],
            "colour": "red",
            "level": 2,
            "by_seat": {"0": ["AD"], "1": []},
            "extra": "(1+2j)",
        }
    assert json.dumps(plain(view))
    assert json.loads(orjson.dumps(view_json(view))) == plain(view)  # as a frame sends it


@pytest.mark.parametrize("game", ["dame", "dutch", "euchre"])
def test_a_view_sent_encoded_is_its_plain_json(game: str) -> None:
    """Every view of seeded games, public and each seat's, reveals and round ends: what a
    frame sends encoded (`view_json`, orjson calling back for the engine's types) reads back
    as the same JSON as the view walked in Python (`plain`)."""
    views: list[object] = []
    for render in asyncio.run(collect((game,), 1, 120))[game]:
        if isinstance(render, PrivateRender):
            views.append(render.private.view)
            views.extend(reveal.data for reveal in render.reveals)
        elif isinstance(render, TableRender):
            views.append(render.public.view)
            if render.public.last_round is not None:
                views.append(render.public.last_round.view)
    assert len(views) > 100
    for view in views:
        assert json.loads(orjson.dumps(view_json(view))) == json.loads(json.dumps(plain(view)))


def test_a_view_nested_too_deep_is_refused() -> None:
    deep: list[object] = []
    for _ in range(40):
        deep = [deep]
    with pytest.raises(ValueError, match="too deep"):
        plain(deep)
