"""Property tests: random legal play of whole matches, both presets, 2 to 10 players."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contract import Event, RoundRecord
from games.dutch import GAME, DutchAction, DutchRound
from games.dutch.knowledge import knowledge_from, knowledge_of
from games.errors import IllegalAction
from games.match import Match

CALL = GAME.parse_action("dutch")
# Candidate actions, legal or not: every kind with small (and some absurd) numbers.
CANDIDATES = [
    "peek 3 4", "peek 1 2", "peek 1 5", "dutch", "draw", "take", "discard", "skip", "end",
    "swap 1", "swap 4", "swap 5", "swap 0", "look 0:1", "look 1:4", "look 11:1", "look 1:9",
    "jack 1 1:1", "jack 2 0:3", "jack 9 1:1", "seven 1", "seven 6", "nine 1 1:2",
    "nine drawn 1:1", "nine drawn 0:1", "nine 3 2:4", "match 1", "match 3", "match 7",
]  # fmt: skip


def state(round_: DutchRound) -> tuple[Any, ...]:
    """Everything the rules depend on (for 'unchanged' and 'equal after replay')."""
    return (
        [[c.code if c else None for c in g] for g in round_.grids],
        [c.code for c in round_.stock],
        [c.code for c in round_.discard],
        round_.held.code if round_.held else None,
        round_.held_from,
        round_.phase,
        round_.turn,
        tuple(round_.peeked),
        round_.caller,
        round_.final_left,
        round_.power,
        round_.draw_power,
        sorted(round_.laid_wrong),
        round_.events,
        [str(a) for _, a in round_.history],
    )


def all_views(round_: DutchRound) -> list[Any]:
    return [round_.public_view()] + [round_.view(s) for s in range(round_.n)]


def check_cards_accounted_for(round_: DutchRound, deck: Counter[str]) -> None:
    present = [c.code for g in round_.grids for c in g if c is not None]
    present += [c.code for c in round_.stock] + [c.code for c in round_.discard]
    if round_.held is not None:
        present.append(round_.held.code)
    assert Counter(present) == deck


def check_views_hide_face_down_cards(round_: DutchRound, events: list[Event]) -> None:
    over = round_.finished
    public = round_.public_view()
    for grid in public.grids:
        assert all(s.card is None for s in grid) or over
    if public.held is not None:
        assert public.held_from == "discard" or round_.seven_shown
    for seat in range(round_.n):
        seen = {
            (e.data["seat"], e.data["slot"]): e.data["card"]
            for e in events
            if e.kind == "see" and e.to == frozenset({seat})
        }
        view = round_.view(seat)
        for owner, grid in enumerate(view.grids):
            for slot in grid:
                if slot.card is not None and not over:
                    assert seen.get((owner, slot.slot)) == slot.card
        if view.held is not None and seat != round_.turn:
            assert view.held == public.held


def check_knowledge_is_true(round_: DutchRound) -> None:
    for seat in range(round_.n):
        for (owner, slot), name in knowledge_of(round_, seat).cards.items():
            real = round_.grids[owner][slot - 1]
            assert real is not None and real.name == name


def check_illegal_actions(round_: DutchRound, rng: random.Random) -> None:
    seats = list(range(round_.n))
    for text in rng.sample(CANDIDATES, 6):
        seat = rng.choice(seats)
        action = GAME.parse_action(text)
        if action in round_.legal_actions(seat):
            continue
        before = state(round_)
        try:
            round_.apply(seat, action)
        except IllegalAction as error:
            assert error.rule and error.message
        else:
            raise AssertionError(f"{text} by seat {seat} was accepted but not legal")
        assert state(round_) == before


def check_replay(round_: DutchRound) -> None:
    stored = RoundRecord.model_validate_json(round_.record().model_dump_json())
    again = GAME.replay(stored)
    assert isinstance(again, DutchRound)
    assert state(again) == state(round_)
    assert all_views(again) == all_views(round_)


def pick(legal: list[DutchAction], rng: random.Random, dutch_odds: float) -> DutchAction:
    """A random legal action; Dutch calls and matching (which random play mostly gets wrong,
    growing grids without end) are picked only now and then."""
    if CALL in legal and len(legal) > 1 and rng.random() >= dutch_odds:
        legal = [a for a in legal if a != CALL]
    if rng.random() >= 0.2:
        legal = [a for a in legal if a.kind != "match"] or legal
    return rng.choice(legal)


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    preset=st.sampled_from(["classic", "house"]),
    n_seats=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    peek_choice=st.booleans(),
    dutch_odds=st.sampled_from([1.0, 0.03]),  # rare calls make long rounds (reshuffles)
)
def test_random_legal_play_keeps_every_invariant(
    preset: str, n_seats: int, seed: int, peek_choice: bool, dutch_odds: float
) -> None:
    rng = random.Random(seed)
    options = GAME.options(preset, target=25, peek_choice=peek_choice)
    deck = Counter(c.code for c in GAME.deck(options))
    match = Match(GAME, options, n_seats, first_dealer=rng.randrange(n_seats))
    while not match.finished:
        round_ = match.new_round(seed=rng.random())
        assert isinstance(round_, DutchRound)
        replay_at = rng.randrange(4 * n_seats)
        step = 0
        while not round_.finished:
            seat = rng.choice(round_.to_act())
            events = round_.apply(seat, pick(round_.legal_actions(seat), rng, dutch_odds))
            check_cards_accounted_for(round_, deck)
            check_views_hide_face_down_cards(round_, events)
            if step % 5 == 0:
                check_illegal_actions(round_, rng)
                check_knowledge_is_true(round_)
            if step == replay_at:
                check_replay(round_)
            step += 1
        check_replay(round_)
        assert round_.legal_actions(0) == [] and round_.to_act() == ()
        for seat in range(n_seats):
            assert knowledge_from(round_.events, seat).cards == knowledge_of(round_, seat).cards
        match.add_round(round_.result())
    assert match.winners


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(
    n_seats=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    changes=st.fixed_dictionaries(
        {
            "jokers": st.booleans(),
            "queen_jack_powers": st.booleans(),
            "seven_nine_powers": st.booleans(),
            "matching_discards": st.booleans(),
            "dutch_call": st.sampled_from(["start_of_turn", "end_of_turn"]),
            "caller_success": st.sampled_from(["zero", "own_total"]),
            "failed_call": st.sampled_from(["double", "plus_20"]),
            "first_player": st.sampled_from(["after_dealer", "highest_total"]),
        }
    ),
)
def test_any_mix_of_options_plays_to_the_end(
    n_seats: int, seed: int, changes: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    options = GAME.options("classic", target=20, **changes)
    deck = Counter(c.code for c in GAME.deck(options))
    match = Match(GAME, options, n_seats)
    while not match.finished:
        round_ = match.new_round(seed=rng.random())
        assert isinstance(round_, DutchRound)
        while not round_.finished:
            seat = rng.choice(round_.to_act())
            events = round_.apply(seat, pick(round_.legal_actions(seat), rng, 0.1))
            check_cards_accounted_for(round_, deck)
            check_views_hide_face_down_cards(round_, events)
        check_knowledge_is_true(round_)
        check_replay(round_)
        match.add_round(round_.result())
