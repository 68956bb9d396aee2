"""The Dutch reference player (games/dutch/bots/reference.py): it searches from what its seat
knows and nothing else, its worlds keep what the seat knows and deal the rest anew, and its
moves are legal."""

from __future__ import annotations

import random
from collections import Counter

from games.dutch import GAME, DutchRound
from games.dutch.bots import reference
from games.dutch.knowledge import knowledge_of
from tests.games.dutch.stack import deal, play

# Seat 0 knows its slots 3 and 4 (KH 4S) and will see seat 1's slot 1 (a Queen), its own slot 1
# and seat 1's slot 3 (swapped out face up). Its slot 2, seat 1's slots 2 and 4 (seat 1 peeks
# at 4) and the stock below the first four cards differ between the two deals.
ONE = (["AS 2S KH 4S", "5S 6S 7S 8S"], "9S", "QC 3D 10C JD")
OTHER = (["AS 6D KH 4S", "5S 10H 7S 6C"], "9S", "QC 3D 10C JD")
MOVES = ("draw", "discard", "look 1:1", "draw", "swap 3", "draw", "swap 1")


def _grids(round_: DutchRound) -> list[list[str | None]]:
    return [[c.name if c else None for c in grid] for grid in round_.grids]


def test_the_reference_never_reads_a_card_its_seat_does_not_know() -> None:
    one, other = deal("classic", *ONE), deal("classic", *OTHER)
    for move in (None, *MOVES):
        if move is not None:
            play(one, move)
            play(other, move)
        info = reference.information(one, 0)
        assert reference.information(other, 0) == info  # the search's whole input
        for seed in range(3):
            a = reference.world(one, info, random.Random(seed))
            b = reference.world(other, info, random.Random(seed))
            assert _grids(a) == _grids(b)
            assert [c.name for c in a.stock] == [c.name for c in b.stock]
            for seat in range(2):
                assert knowledge_of(a, seat).cards == knowledge_of(b, seat).cards
        if one.to_act() == (0,):
            for seed in range(2):
                found = reference.analyse(one, 0, random.Random(seed), budget=None, rollouts=24)
                again = reference.analyse(other, 0, random.Random(seed), budget=None, rollouts=24)
                assert found == again


def test_a_world_keeps_the_cards_the_seat_knows_and_deals_every_other_card_once() -> None:
    round_ = deal("classic", *ONE)
    play(round_, "draw", "discard", "look 1:1")
    info = reference.information(round_, 0)
    assert dict(info.known)[(1, 1)] == "5S"  # the Queen showed it
    world = reference.world(round_, info, random.Random(7))
    grids = _grids(world)
    for (seat, slot), name in info.known:
        assert grids[seat][slot - 1] == name
    everything = [n for g in grids for n in g if n] + [c.name for c in world.stock]
    everything += [c.name for c in world.discard] + ([world.held.name] if world.held else [])
    assert Counter(everything) == Counter(c.name for c in GAME.deck(round_.options))
    assert knowledge_of(world, 1).cards.keys() == {(1, 3), (1, 4)}  # its peek, not its values


def test_reference_players_play_a_whole_round_with_legal_moves() -> None:
    rng = random.Random(3)
    round_ = deal("house", *ONE)
    while not round_.finished:
        seat = round_.to_act()[0]
        action = reference.choose_action(round_, seat, rng, rollouts=6)
        assert action in round_.legal_actions(seat)
        round_.apply(seat, action)
