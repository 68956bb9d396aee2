"""Random legal play over many hands, to the end of matches: the invariants of docs/rules/euchre.md
and of the engine contract hold whatever the options, deck and choices."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import Event, RoundRecord
from games.errors import IllegalAction
from games.euchre import GAME, EuchreRound, EuchreView
from games.euchre.actions import CALL, CALL_ALONE, DISCARD, ORDER, ORDER_ALONE, PASS, PLAY
from games.euchre.bots.policy import choose_action
from games.match import Match

EVERY_ACTION = [
    PASS,
    ORDER,
    ORDER_ALONE,
    *CALL.values(),
    *CALL_ALONE.values(),
    *DISCARD.values(),
    *PLAY.values(),
]
PROPERTY_SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, database=None)


def _all_cards(round_: EuchreRound) -> list[str]:
    held = [c for hand in round_.hands for c in hand]
    played = [c for trick in round_.tricks for _, c in trick] + [c for _, c in round_.trick]
    out = list(round_.buried) + ([] if round_.picked_up else [round_.turned])
    out += [round_.discarded] if round_.discarded is not None else []
    return sorted(c.code for c in held + played + out)


def _hidden_from(round_: EuchreRound, seat: int | None) -> set[str]:
    """Card names this viewer must never see."""
    hidden = {c.name for c in round_.buried}
    for other in range(4):
        if other != seat:
            hidden |= {c.name for c in round_.hands[other] if c is not round_.turned}
    if round_.discarded is not None and seat != round_.dealer:
        hidden.add(round_.discarded.name)
    return hidden


def _assert_no_leak(round_: EuchreRound, seat: int | None, view: EuchreView) -> None:
    text = repr(view)
    for name in _hidden_from(round_, seat):
        assert f"'{name}'" not in text and f" {name}'" not in text, (seat, name)
    if seat is None:
        assert view.hand == () and view.discard is None and view.legal == ()


def _assert_events_leak_nothing(round_: EuchreRound, events: list[Event]) -> None:
    for viewer in (*range(4), None):
        hidden = _hidden_from(round_, viewer)
        for event in events:
            if event.visible_to(viewer):
                assert not hidden & {str(v) for v in event.data.values()}, (viewer, event)


def _snapshot(round_: EuchreRound) -> tuple[RoundRecord, list[EuchreView]]:
    return round_.record(), [round_.view(s) for s in range(4)] + [round_.public_view()]


def _try_illegal(round_: EuchreRound, seat: int, rng: random.Random) -> None:
    before = _snapshot(round_)
    legal = round_.legal_actions(seat)
    wrong = [a for a in EVERY_ACTION if a not in legal]
    attempts = [(seat, rng.choice(wrong)), ((seat + rng.randrange(1, 4)) % 4, rng.choice(legal))]
    for who, action in attempts:
        try:
            round_.apply(who, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {who} could play {action}")
        assert _snapshot(round_) == before


def _play_hand(round_: EuchreRound, rng: random.Random) -> None:
    while not round_.finished:
        (seat,) = round_.to_act()
        for viewer in (*range(4), None):
            view = round_.public_view() if viewer is None else round_.view(viewer)
            _assert_no_leak(round_, viewer, view)
        if rng.random() < 0.25:
            _try_illegal(round_, seat, rng)
        events = round_.apply(seat, rng.choice(round_.legal_actions(seat)))
        _assert_events_leak_nothing(round_, events)
        assert len(_all_cards(round_)) == 24 and len(set(_all_cards(round_))) == 24


def _check_finished_hand(round_: EuchreRound) -> None:
    view = round_.public_view()
    result = round_.result()
    if result.detail["redeal"]:
        assert result.points == (0, 0) and view.tricks == ()
        return
    size = 3 if view.alone else 4
    assert len(view.tricks) == 5
    for trick in view.tricks:
        seats = [s for s, _ in trick]
        assert len(trick) == size and len(set(seats)) == size
        assert view.sitting_out not in seats
    assert sum(view.tricks_won) == 5 and sorted(result.points)[0] == 0
    again = GAME.replay(RoundRecord.model_validate_json(round_.record().model_dump_json()))
    assert isinstance(again, EuchreRound)
    assert _snapshot(again) == _snapshot(round_) and again.result() == result


@PROPERTY_SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    stick=st.booleans(),
    discard=st.sampled_from(["choose", "auto"]),
    farmers=st.booleans(),
    target=st.integers(1, 10),
)
def test_random_legal_play_to_the_end_of_a_match(
    seed: int, stick: bool, discard: str, farmers: bool, target: int
) -> None:
    options = GAME.options(
        stick_the_dealer=stick, dealer_discard=discard, farmers_hand=farmers, target=target
    )
    rng = random.Random(seed)
    match = Match(GAME, options, 4, first_dealer=seed % 4)
    while not match.finished:
        round_ = match.new_round(seed=rng.randrange(2**32))
        assert isinstance(round_, EuchreRound)
        _play_hand(round_, rng)
        _check_finished_hand(round_)
        before = list(match.totals)
        match.add_round(round_.result())
        assert sum(t > b for t, b in zip(match.totals, before, strict=True)) <= 1
    assert match.winners is not None and len(match.winners) == 1
    (winner,) = match.winners
    assert match.totals[winner] >= target > match.totals[1 - winner]


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), discard=st.sampled_from(["choose", "auto"]))
def test_the_policy_always_chooses_a_legal_action(seed: int, discard: str) -> None:
    rng = random.Random(seed)
    match = Match(GAME, GAME.options(dealer_discard=discard), 4)
    while not match.finished:
        round_ = match.new_round(seed=rng.randrange(2**32))
        while not round_.finished:
            (seat,) = round_.to_act()
            action = choose_action(round_, seat, rng)
            assert action in round_.legal_actions(seat)
            round_.apply(seat, action)
        match.add_round(round_.result())
