"""Deals carried from decision to decision (games.euchre.memory): they obey everything the seat
saw since, depend on the view alone (the same with or without the remembered ones, in a fresh
process too), and spare a later decision most of its sampling."""

from __future__ import annotations

import random
import subprocess
import sys

from games.contract import RoundSetup
from games.euchre import GAME, EuchreRound, memory
from games.euchre.inference import Knowledge
from games.euchre.policy import choose_action as simple_choice
from games.euchre.strong import choose_action, search


def _round(seed: str, dealer: int = 0, preset: str = "standard") -> EuchreRound:
    round_ = GAME.new_round(GAME.options(preset), RoundSetup(n_seats=4, dealer=dealer), seed=seed)
    assert isinstance(round_, EuchreRound)
    return round_


def _views_of(seed: str, seat: int, preset: str = "standard") -> list[EuchreRound]:
    """Copies of one hand at each of `seat`'s turns in play (simple bots everywhere)."""
    import copy

    round_ = _round(seed, preset=preset)
    rng = random.Random(seed)
    out: list[EuchreRound] = []
    while not round_.finished:
        (to_act,) = round_.to_act()
        if to_act == seat and round_.view(seat).phase == "play":
            out.append(copy.deepcopy(round_))
        round_.apply(to_act, simple_choice(round_, to_act, rng))
    return out


def test_carried_deals_obey_every_certain_rule_seen_since() -> None:
    checked = 0
    for n in range(6):
        for seat in (0, 1):
            for round_ in _views_of(f"carry-{n}", seat, "cards4net" if n % 2 else "standard"):
                view = round_.view(seat)
                auto = round_.options.dealer_discard == "auto"
                knowledge = Knowledge.of(view, auto_discard=auto)
                deals = memory.carried(view, auto_discard=auto).deals
                held = [d for d in deals if knowledge.holds(d[:4])]
                checked += len(deals)
                # the auto discard's hint alone may be broken by a mended deal (the search
                # then drops it): every other rule holds
                assert len(held) == len(deals) or auto
                plain = Knowledge.of(view, auto_discard=False)
                assert all(plain.holds(d[:4]) for d in deals)
    assert checked > 200


def test_carried_deals_are_the_same_without_the_remembered_ones() -> None:
    steps = _views_of("carry-same", 1)
    assert len(steps) >= 3
    along = [memory.carried(r.view(1)).deals for r in steps]  # each step extends the last
    for round_, deals in zip(steps, along, strict=True):
        memory._CACHE.clear()
        assert memory.carried(round_.view(1)).deals == deals


def test_a_later_decision_takes_the_carried_deals_instead_of_sampling() -> None:
    memory._CACHE.clear()
    taken = [search(r, 1, random.Random(0), budget=None) for r in _views_of("carry-later", 1)]
    searched = [d for d in taken if d.sampled or d.carried]
    assert searched, "the hand had no searched decision"
    first, *later = searched
    assert first.carried == 0 and first.sampled >= memory.POOL  # it drew the pool
    assert any(d.carried >= memory.POOL // 2 for d in later) or not later


_FRESH = """
import random, sys
from games.contract import RoundSetup
from games.euchre import GAME
from games.euchre.policy import choose_action as simple
from games.euchre.strong import choose_action
round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=2), seed="carry-fresh")
rng = random.Random(5)
while not round_.finished:
    (seat,) = round_.to_act()
    if seat == 3:
        action = choose_action(round_, seat, random.Random(len(round_.history)), budget=None)
    else:
        action = simple(round_, seat, rng)
    print(action)
    round_.apply(seat, action)
"""


def test_the_choices_are_the_same_in_a_fresh_process() -> None:
    # in this process, with deals of other hands (and of this one) already remembered
    for n in range(3):
        choose_action(_round(f"other-{n}", dealer=2), 3, random.Random(n), budget=None)
    round_ = _round("carry-fresh", dealer=2)
    rng = random.Random(5)
    here: list[str] = []
    while not round_.finished:
        (seat,) = round_.to_act()
        if seat == 3:
            action = choose_action(round_, seat, random.Random(len(round_.history)), budget=None)
        else:
            action = simple_choice(round_, seat, rng)
        here.append(str(action))
        round_.apply(seat, action)
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH], capture_output=True, text=True, check=True
    ).stdout.split("\n")[:-1]
    assert fresh == here
