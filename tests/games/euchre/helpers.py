"""Stacked Euchre rounds and short action scripts for the rule tests."""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.contract import Event, RoundSetup
from games.euchre import GAME, EuchreRound
from games.euchre.deal import stack_deck


def stacked_round(
    hands: Mapping[int, str],
    turned: str,
    *,
    dealer: int = 0,
    buried: str = "",
    **changes: object,
) -> EuchreRound:
    """A round dealt from a stacked deck; `changes` are option changes from `standard`."""
    deck = stack_deck(dealer, hands, turned, buried)
    options = GAME.options("standard", **changes)
    round_ = GAME.new_round(options, RoundSetup(n_seats=4, dealer=dealer), deck=deck)
    assert isinstance(round_, EuchreRound)
    return round_


def act(round_: EuchreRound, script: str) -> list[Event]:
    """Apply `"1 pass; 2 order; 0 discard 9C"`: seat, then notation, separated by `;`."""
    events: list[Event] = []
    for step in script.split(";"):
        seat, notation = step.strip().split(" ", 1)
        events += round_.apply(int(seat), notation)
    return events


def play_randomly(round_: EuchreRound, seed: int) -> None:
    """Finish the round with uniformly random legal actions."""
    rng = random.Random(seed)
    while not round_.finished:
        (seat,) = round_.to_act()
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))


ALL_PASS_ROUND_ONE = "1 pass; 2 pass; 3 pass; 0 pass"  # dealer 0
