"""The Dame de Pique reference player (games/dame/bots/reference.py): it searches from its
seat's view alone, its worlds keep what the seat sees and deal the rest anew, and its moves are
legal."""

from __future__ import annotations

import copy
import random
from collections import Counter

from games.contract import RoundSetup
from games.dame import GAME, DameRound
from games.dame.bots import reference, strong


def _redealt(round_: DameRound, seat: int, rng: random.Random) -> DameRound:
    """The same round with the cards `seat` cannot see (other hands, stock) dealt anew."""
    other = copy.deepcopy(round_)
    hidden = [c for s in range(4) if s != seat for c in other.hands[s]] + other.stock
    rng.shuffle(hidden)
    for s in range(4):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], hidden = hidden[:size], hidden[size:]
    other.stock = hidden
    return other


def _cards(round_: DameRound) -> tuple[list[list[str]], list[str]]:
    return [[c.code for c in hand] for hand in round_.hands], [c.code for c in round_.stock]


def test_the_reference_never_reads_a_card_its_seat_cannot_see() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=1), seed="reference")
    assert isinstance(round_, DameRound)
    rng = random.Random(5)
    for step in range(60):
        if round_.finished:
            break
        seat = round_.to_act()[0]
        other = _redealt(round_, seat, rng)
        assert _cards(other) != _cards(round_)
        info = reference.information(round_, seat)
        assert reference.information(other, seat) == info  # the search's whole input
        a = reference.world(round_, info, random.Random(step))
        b = reference.world(other, info, random.Random(step))
        assert _cards(a) == _cards(b)
        if step % 10 == 0:
            found = reference.analyse(round_, seat, random.Random(step), budget=None, rollouts=8)
            again = reference.analyse(other, seat, random.Random(step), budget=None, rollouts=8)
            assert found == again
        round_.apply(seat, strong.choose_action(round_, seat, rng))


def test_a_world_keeps_the_seats_hand_and_the_table_and_deals_every_other_card_once() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=0), seed="world")
    assert isinstance(round_, DameRound)
    rng = random.Random(2)
    for _ in range(30):
        seat = round_.to_act()[0]
        round_.apply(seat, strong.choose_action(round_, seat, rng))
    seat = round_.to_act()[0]
    world = reference.world(round_, reference.information(round_, seat), random.Random(0))
    assert world.hands[seat] == round_.hands[seat]
    assert [len(h) for h in world.hands] == [len(h) for h in round_.hands]
    assert world.pile == round_.pile and world.packs == round_.packs
    everything = [c.code for hand in world.hands for c in hand] + [c.code for c in world.stock]
    everything += [c.code for c in world.pile]
    everything += [c.code for team in world.packs for pack in team.values() for c in pack]
    assert Counter(everything) == Counter(c.code for c in GAME.deck(round_.options))


def test_reference_players_play_a_whole_hand_with_legal_moves() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=2), seed="legal")
    assert isinstance(round_, DameRound)
    rng = random.Random(4)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.check(seat, action := reference.choose_action(round_, seat, rng, rollouts=4))
        round_.apply(seat, action)
