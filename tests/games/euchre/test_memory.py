"""Deals carried from decision to decision (games.euchre.bots.memory): they obey everything the seat
saw since, depend on the view alone (the same with or without the remembered ones, in a fresh
process too), and spare a later decision most of its sampling."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.contract import RoundSetup
from games.euchre import GAME, EuchreRound
from games.euchre.bots import memory
from games.euchre.bots.inference import Knowledge
from games.euchre.bots.policy import choose_action as simple_choice
from games.euchre.bots.strong import choose_action, search


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
                source = memory.hand_deals(view, auto_discard=auto)
                assert source is not None
                deals = [d for d in map(source.deal, range(40)) if d is not None]
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
    along = [_first_deals(r) for r in steps]  # each step carries the last one's deals
    assert memory.hand_deals(steps[-1].view(1)).remembered > 0  # type: ignore[union-attr]
    for round_, deals in zip(steps, along, strict=True):
        memory._CACHE.clear()
        assert _first_deals(round_) == deals


def _first_deals(round_: EuchreRound, n: int = 48) -> list[memory.Deal | None]:
    source = memory.hand_deals(round_.view(1))
    assert source is not None
    return [source.deal(j) for j in range(n)]


def test_a_later_decision_takes_the_carried_deals_instead_of_sampling() -> None:
    memory._CACHE.clear()
    taken = [
        search(r, 1, random.Random(0), budget=None, reuse=True) for r in _views_of("carry-later", 1)
    ]
    searched = [d for d in taken if d.sampled or d.carried]
    assert searched, "the hand had no searched decision"
    first, *later = searched
    assert first.carried == 0 and first.sampled >= 32
    assert later, "the hand had one searched play only"
    for decision in later:  # at least the 32 deals of the test's first look were carried
        assert decision.carried >= 32 - 4  # (a deal that cannot be mended is dropped)


def _play_hand(reuse: bool) -> list[str]:
    """One hand, seat 3 searching (each decision seeded by the history's length)."""
    round_ = _round("carry-fresh", dealer=2)
    rng = random.Random(5)
    actions: list[str] = []
    while not round_.finished:
        (seat,) = round_.to_act()
        if seat == 3:
            seed = random.Random(len(round_.history))
            action = choose_action(round_, seat, seed, budget=None, reuse=reuse)
        else:
            action = simple_choice(round_, seat, rng)
        actions.append(str(action))
        round_.apply(seat, action)
    return actions


_FRESH = """
import sys
from tests.games.euchre.test_memory import _play_hand
print("\\n".join(_play_hand(sys.argv[1] == "reuse")))
"""


@pytest.mark.parametrize("reuse", [True, False])
def test_the_choices_are_the_same_in_a_fresh_process(reuse: bool) -> None:
    # in this process, with deals of other hands and of this one already remembered
    for n in range(3):
        choose_action(_round(f"other-{n}", dealer=2), 3, random.Random(n), budget=None, reuse=True)
    _play_hand(reuse)
    here = _play_hand(reuse)
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH, "reuse" if reuse else "fresh"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[3],  # the repository, where `tests` imports from
    ).stdout.splitlines()
    assert fresh == here
