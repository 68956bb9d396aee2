"""A Dutch player that searches far deeper than the strong one.

It is the reference the strength script measures the strong player against (`python -m
benchmarks.strength gap`); `analyse` gives the search's estimates with its move.

`choose_action(round, seat, rng, budget=…)` gathers what the seat knows (`information`: its
view, what it remembers from the events it witnessed, and the public table), deals the cards it
does not know anew on each world (`world`), and lets `games.reference.search` play every
offered move out to the end of the round, every seat playing the strong player. It never reads
a hidden card: `world` overwrites every card the seat does not know before anything plays on
it, and the other seats' memories in a world are rebuilt from the places the seat saw them look
at (a peek, a Queen, a 7, a swap of their own card, a failed match shown to all).
"""

from __future__ import annotations

import math
import pickle
import random
from dataclasses import dataclass
from typing import Any

from games.cards import Card
from games.dutch.actions import DutchAction
from games.dutch.bots import strong
from games.dutch.game import GAME
from games.dutch.knowledge import _CACHE, Knowledge, knowledge_of
from games.dutch.options import card_value
from games.dutch.round import PEEK, DutchRound
from games.reference import Searched, search

Place = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Information:
    """What `seat` knows of the round now, and nothing more: the cards it knows by place, the
    card it holds (if it knows it), the public table (the shape of every grid, the discard
    pile, the stock's size, whether a card is held) and, for each other seat, the places it
    saw that seat look at (not the cards: which places they know)."""

    seat: int
    known: tuple[tuple[Place, str], ...]
    held: str | None
    someone_holds: bool
    slots: tuple[tuple[int, ...], ...]
    discard: tuple[str, ...]
    stock: int
    turns: int
    seen_by: tuple[frozenset[Place], ...]
    kept: tuple[tuple[Place, int], ...]  # places holding a card their owner chose to keep


def information(round_: DutchRound, seat: int) -> Information:
    """The seat's information: its view, its memory (`knowledge_of`) and public events only."""
    view = round_.view(seat)
    knowledge = knowledge_of(round_, seat)
    slots = tuple(tuple(s.slot for s in grid if not s.empty) for grid in view.grids)
    seen_by, kept = _places_seen(round_, seat)
    return Information(
        seat=seat,
        known=tuple(sorted(knowledge.cards.items())),
        held=knowledge.held,
        someone_holds=round_.held is not None,  # public: a draw or a take was seen by all
        slots=slots,
        discard=tuple(c.name for c in round_.discard),  # every card in it was shown face up
        stock=view.stock,
        turns=knowledge.turns,
        seen_by=seen_by,
        kept=kept,
    )


def _places_seen(
    round_: DutchRound, seat: int
) -> tuple[tuple[frozenset[Place], ...], tuple[tuple[Place, int], ...]]:
    """From the events `seat` witnessed: per seat, the places `seat` saw it look at (and may
    still know: peeks, Queens, 7s, own swaps, cards shown to all, carried along exchanges); and
    the places where another seat swapped in a card it drew unseen by `seat`, with the most
    that card is likely worth: a player keeps a drawn card in a slot it knows when it is worth
    less than the card it replaces (shown face up), in a slot it does not know when it is below
    the deck's mean value."""
    places: list[set[Place]] = [set() for _ in range(round_.n)]
    values = {c.name: card_value(c, round_.options) for c in GAME.deck(round_.options)}
    below_mean = math.floor(sum(values.values()) / len(values) - 0.5)
    bounds: dict[Place, int] = {}
    holder_saw = False  # did `seat` see the card the turn player holds?
    for event in round_.events:
        if not (event.to is None or seat in event.to):
            continue
        kind, data, who = event.kind, event.data, event.seat
        if kind in ("turn", "draw", "discard"):
            holder_saw = False
        elif kind in ("drawn", "take"):
            holder_saw = True
        if kind == "swap" and who is not None:
            place = (who, data["slot"])
            bounds.pop(place, None)
            if who != seat and not holder_saw:
                knew = place in places[who]
                bounds[place] = values[data["card"]] if knew else below_mean
            holder_saw = False
        if kind in ("jack", "nine") and who is not None and data["slot"] is not None:
            _move_bounds(bounds, (who, data["slot"]), (data["seat"], data["target_slot"]))
        elif kind in ("nine", "match", "penalty") and who is not None:
            bounds.pop(
                (data["seat"], data["target_slot"]) if kind == "nine" else (who, data["slot"]), None
            )
        if kind == "peek" and who is not None:
            places[who].update((who, s) for s in data["slots"])
        elif kind == "look" and who is not None:
            places[who].add((data["seat"], data["slot"]))
        elif kind in ("seven", "swap") and who is not None:
            places[who].add((who, data["slot"]))
        elif kind in ("jack", "nine") and who is not None:
            target = (data["seat"], data["target_slot"])
            if data["slot"] is None:  # a 9 given face up: everyone knows it is there
                for known in places:
                    known.add(target)
            else:
                _exchange(places, (who, data["slot"]), target)
        elif kind == "match" and who is not None:
            place = (who, data["slot"])
            for known in places:
                if data["ok"]:
                    known.discard(place)
                else:
                    known.add(place)
        elif kind == "penalty" and who is not None:
            for known in places:
                known.discard((who, data["slot"]))
    return tuple(frozenset(p) for p in places), tuple(sorted(bounds.items()))


def _move_bounds(bounds: dict[Place, int], a: Place, b: Place) -> None:
    first, second = bounds.pop(a, None), bounds.pop(b, None)
    if first is not None:
        bounds[b] = first
    if second is not None:
        bounds[a] = second


def _exchange(places: list[set[Place]], a: Place, b: Place) -> None:
    for known in places:
        has_a, has_b = a in known, b in known
        known.discard(a)
        known.discard(b)
        if has_a:
            known.add(b)
        if has_b:
            known.add(a)


def world(round_: DutchRound, info: Information, rng: random.Random) -> DutchRound:
    """A copy of the round in which every card `info` does not name is dealt anew from the
    cards the seat has not seen, and every seat's memory is rebuilt from `info` alone."""
    copy: DutchRound = pickle.loads(pickle.dumps(round_))
    left: dict[str, list[Card]] = {}  # the deck's cards by name, each taken once
    for c in GAME.deck(round_.options):
        left.setdefault(c.name, []).append(c)

    def take(name: str) -> Card:
        return left[name].pop()

    known = dict(info.known)
    discard = [take(name) for name in info.discard]
    held = take(info.held) if info.held is not None else None
    placed = {place: take(name) for place, name in info.known}
    unseen = sorted((c for cards in left.values() for c in cards), key=lambda c: c.code)
    rng.shuffle(unseen)
    # a kept card first, among the unseen cards within its bound (the tightest bound first)
    for place, bound in sorted(info.kept, key=lambda kept: kept[1]):
        if place in placed:
            continue
        fits = [i for i, c in enumerate(unseen) if card_value(c, round_.options) <= bound]
        if fits:
            placed[place] = unseen.pop(fits[-1])
    for s, slots in enumerate(info.slots):
        grid: list[Card | None] = [None] * len(copy.grids[s])
        for slot in slots:
            found = placed.get((s, slot))
            grid[slot - 1] = found if found is not None else unseen.pop()
        copy.grids[s] = grid
    if info.someone_holds:
        copy.held = held if held is not None else unseen.pop()
    copy.discard = discard
    if len(unseen) != info.stock:
        raise RuntimeError(f"{len(unseen)} cards left for a stock of {info.stock}")
    copy.stock = unseen
    copy.events, copy.reveals = [], []
    copy._hidden_views = [None] * copy.n
    copy._own_slots = [None] * copy.n
    copy._legal = None
    memories: dict[int, Knowledge] = {}
    for s in range(copy.n):
        if s == info.seat:
            cards = dict(known)
        else:
            cards = {}
            for place in info.seen_by[s]:
                owner, slot = place
                found = copy.grids[owner][slot - 1] if slot <= len(copy.grids[owner]) else None
                if found is not None:
                    cards[place] = found.name
        holds = info.held if s == info.seat else None
        if s != info.seat and copy.held is not None and s == copy.turn:
            holds = copy.held.name  # a card drawn or taken: its holder saw it
        memories[s] = Knowledge(s, cards, holds, info.turns, 0)
    _CACHE[copy] = memories
    return copy


def _value(round_: Any, seat: int) -> float:
    """The seat's round result, higher is better: the others' mean points minus its own."""
    points = round_.result().points
    others = [p for s, p in enumerate(points) if s != seat]
    return float(sum(others) / len(others) - points[seat])


def _distinct(moves: list[DutchAction]) -> list[DutchAction]:
    seen: dict[str, DutchAction] = {}
    for move in moves:
        seen.setdefault(str(move), move)
    return list(seen.values())


def analyse(
    round_: DutchRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None,
    rollouts: int | None = None,
) -> Searched:
    """The deep search's answer for `seat`, to act now (the strong player's move when there is
    nothing to search: a single move, or the simultaneous peeks at the deal)."""
    baseline = strong.choose_action(round_, seat, rng)
    legal = round_.legal_actions(seat)
    if round_.phase == PEEK or len(legal) <= 1:
        return Searched(baseline, baseline, 0.0, 0.0, 0)
    info = information(round_, seat)
    return search(
        seat,
        _distinct(legal),
        baseline,
        lambda r: world(round_, info, r),
        strong.choose_action,
        _value,
        rng,
        budget=budget,
        rollouts=rollouts,
    )


def choose_action(
    round_: DutchRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None = None,
    rollouts: int | None = None,
) -> DutchAction:
    """The reference player's move (ValueError if `seat` may not act now)."""
    if not round_.legal_actions(seat):
        raise ValueError(f"seat {seat} may not act now")
    move: DutchAction = analyse(round_, seat, rng, budget=budget, rollouts=rollouts).move
    return move
