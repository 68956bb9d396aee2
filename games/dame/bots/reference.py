"""A Dame de Pique player that searches far deeper than the strong one.

It is the reference the strength script measures the strong bot against (`python -m
benchmarks.strength gap`); `analyse` gives the search's estimates with its move.

`choose_action(round, seat, rng, budget=…)` gathers what the seat may know (`information`: its
own hand and the public table: the pile, the packs, the size of every hand and of the stock),
deals every other card anew on each world (`world`), and lets `games.reference.search` play
every offered move out to the end of the hand, every seat playing the strong bot. It never reads
a hidden card: `world` overwrites the other hands and the stock before anything plays on it.
(The cards a seat took from the pile are known to all until it lays them; the reference deals
them anew like any other hidden card: it knows less than it could, never more.)
"""

from __future__ import annotations

import pickle
import random
import re
from dataclasses import dataclass
from typing import Any

from games.cards import Card
from games.dame.actions import DameAction
from games.dame.bots import strong
from games.dame.game import GAME
from games.dame.round import DameRound
from games.dame.rules import N_SEATS
from games.reference import Searched, search


@dataclass(frozen=True, slots=True)
class Information:
    """What `seat` may know now: its hand, the pile, the packs (card codes), the size of every
    hand and of the stock."""

    seat: int
    hand: tuple[str, ...]
    pile: tuple[str, ...]
    packs: tuple[tuple[str, ...], ...]
    hand_sizes: tuple[int, ...]
    stock: int


def information(round_: DameRound, seat: int) -> Information:
    """The seat's information, read from its view alone."""
    view = round_.view(seat)
    return Information(
        seat=seat,
        hand=tuple(view.hand),
        pile=tuple(view.discard),
        packs=tuple(tuple(code for pack in team for code in pack.cards) for team in view.packs),
        hand_sizes=tuple(view.hand_sizes),
        stock=view.stock_size,
    )


def world(round_: DameRound, info: Information, rng: random.Random) -> DameRound:
    """A copy of the round in which the other hands and the stock are dealt anew from the
    cards `info` does not show."""
    copy: DameRound = pickle.loads(pickle.dumps(round_))
    shown = {*info.hand, *info.pile, *(code for team in info.packs for code in team)}
    deck = list(GAME.deck(round_.options))
    unseen = [c for c in deck if c.code not in shown]
    unseen.sort(key=lambda c: c.code)
    rng.shuffle(unseen)
    for s in range(N_SEATS):
        if s != info.seat:
            size = info.hand_sizes[s]
            copy.hands[s], unseen = unseen[:size], unseen[size:]
    if len(unseen) != info.stock:
        raise RuntimeError(f"{len(unseen)} cards left for a stock of {info.stock}")
    copy.stock = unseen
    order: list[Card] = list(deck)
    rng.shuffle(order)
    copy.deck_order = tuple(order)  # the seed of a reshuffle: not the real deal's
    copy._memo.clear()
    return copy


def _value(round_: Any, seat: int) -> float:
    """The hand's result for the seat's team: its points minus the other team's."""
    points = round_.result().points
    side = seat % 2
    return float(points[side] - points[1 - side])


_COPY = re.compile(r"#\d+")


def _moves(round_: DameRound, seat: int, baseline: DameAction) -> list[DameAction]:
    """The offered moves, one per move as the player sees it (any copy of a card), with the
    strong bot's move among them."""
    found: dict[str, DameAction] = {_COPY.sub("", str(baseline)): baseline}
    for move in round_.legal_actions(seat):
        found.setdefault(_COPY.sub("", str(move)), move)
    return list(found.values())


def analyse(
    round_: DameRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None,
    rollouts: int | None = None,
) -> Searched:
    """The deep search's answer for `seat`, to act now."""
    baseline = strong.choose_action(round_, seat, rng)
    moves = _moves(round_, seat, baseline)
    if len(moves) <= 1:
        return Searched(baseline, baseline, 0.0, 0.0, 0)
    info = information(round_, seat)
    return search(
        seat,
        moves,
        baseline,
        lambda r: world(round_, info, r),
        strong.choose_action,
        _value,
        rng,
        budget=budget,
        rollouts=rollouts,
    )


def choose_action(
    round_: DameRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None = None,
    rollouts: int | None = None,
) -> DameAction:
    """The reference player's move (ValueError if `seat` may not act now)."""
    if seat not in round_.to_act():
        raise ValueError(f"seat {seat} may not act now")
    move: DameAction = analyse(round_, seat, rng, budget=budget, rollouts=rollouts).move
    return move
