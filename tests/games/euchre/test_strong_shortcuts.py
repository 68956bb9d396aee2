"""The search bot searches only where there is something to decide (one legal move, or cards of
equal effect, are played at once), stops playing out the moves clearly behind, stops sampling
once the best move's lead is clear or too small to matter, and decides the same way from the
same seed."""

from __future__ import annotations

import random

import pytest

from games.euchre import EuchreRound
from games.euchre.actions import parse_action
from games.euchre.bots import strong
from games.euchre.bots.strong import (
    MAX_SAMPLES,
    MIN_DROP,
    MIN_SEQUENTIAL,
    Knowledge,
    _race,
    choose_action,
    equivalent_groups,
    search,
)
from tests.games.euchre.helpers import act, stacked_round


@pytest.fixture
def samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the deals the search samples (one item per deal)."""
    drawn: list[int] = []
    sample = Knowledge.sample

    def counted(self: Knowledge, rng: random.Random, *, bounded: bool = True) -> list[int]:
        drawn.append(1)
        return sample(self, rng, bounded=bounded)

    monkeypatch.setattr(Knowledge, "sample", counted)
    return drawn


def _spade_led(seat_2: str) -> EuchreRound:
    """Hearts trump (seat 1 ordered 9H up), seat 1 leads the ace of spades; seat 2 to play."""
    round_ = stacked_round(
        {0: "AD KD QD 10D 9D", 1: "AS JH AH KH 9C", 2: seat_2}, "9H", dealer_discard="auto"
    )
    act(round_, "1 order; 1 play AS")
    return round_


def test_one_legal_move_is_played_without_search(samples: list[int]) -> None:
    round_ = _spade_led("KS 10C JC QC KC")  # seat 2's only spade
    assert round_.view(2).legal == ("play KS",)
    assert str(choose_action(round_, 2, random.Random(0))) == "play KS"
    assert samples == []


def test_touching_cards_are_one_choice_played_without_search(samples: list[int]) -> None:
    round_ = _spade_led("KS QS 10C JC QC")  # no spade out between the king and the queen
    assert sorted(round_.view(2).legal) == ["play KS", "play QS"]
    assert str(choose_action(round_, 2, random.Random(0))) == "play QS"  # the lower one
    assert samples == []


def test_cards_with_an_outstanding_card_between_them_are_searched(samples: list[int]) -> None:
    round_ = _spade_led("KS 9S 10C JC QC")  # the queen of spades is out: they differ
    assert sorted(round_.view(2).legal) == ["play 9S", "play KS"]
    choose_action(round_, 2, random.Random(0), budget=None)
    assert len(samples) >= MIN_SEQUENTIAL


def test_played_cards_between_two_cards_make_them_equal() -> None:
    # trump hearts: the ace and the queen of clubs are equal once the king of clubs is played
    round_ = stacked_round(
        {0: "AD KD QD 10D 9D", 1: "KC JH AH KH 9S", 2: "AC QC 10S JS QS"},
        "9H",
        dealer_discard="auto",
    )
    act(round_, "1 order; 1 play KC")
    view = round_.view(2)
    legal = [parse_action(text) for text in view.legal]
    groups = equivalent_groups(view, legal)
    assert [sorted(str(legal[i]) for i in g) for g in groups] == [["play AC", "play QC"]]


def test_bids_are_never_grouped() -> None:
    round_ = stacked_round({1: "AS KS QS JS 9C"}, "9S")
    view = round_.view(1)
    legal = [parse_action(text) for text in view.legal]
    assert len(equivalent_groups(view, legal)) == len(legal) == 3


def test_the_sequential_test_stops_long_before_the_cap_when_the_lead_is_clear(
    samples: list[int],
) -> None:
    # Seat 1 holds both bowers, the ace and king of spades turned up: ordering up is clear
    round_ = stacked_round({1: "JS JC AS KS AH"}, "QS")
    assert str(choose_action(round_, 1, random.Random(3), budget=None)).startswith("order")
    assert MIN_SEQUENTIAL <= len(samples) < MAX_SAMPLES // 4


def test_the_race_stops_on_a_clear_lead_or_a_lead_too_small_to_matter() -> None:
    # two moves: the number of paired samples, the sums of their values and of the squared
    # differences between them
    assert _race(20, [0, 1], [40, 0], [[0, 80], [80, 0]])  # +2 every time: clear
    assert not _race(20, [0, 1], [2, 0], [[0, 40], [40, 0]])  # +0.1 ± 0.32: too close to call
    assert _race(20, [0, 1], [0, 0], [[0, 0], [0, 0]])  # the same every time: a tie
    # +0.23 ± 0.10 after 100: not 2.5 errors ahead, but the points that choosing the first
    # could lose, on average, are 0.0004 (a sure-tie margin of 0.1 points would not stop here)
    assert _race(100, [0, 1], [23, 0], [[0, 104], [104, 0]])


def test_the_race_drops_the_moves_clearly_behind_and_goes_on_with_the_close_ones() -> None:
    alive = [0, 1, 2]
    totals = [30, 29, 0]  # after 30 samples: the second close to the first, the third far
    squares = [[0, 60, 40], [60, 0, 40], [40, 40, 0]]
    assert not _race(30, alive, totals, squares)
    assert alive == [0, 1]


def test_a_move_clearly_behind_is_played_out_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    # Both bowers, the ace and king of spades, the queen of spades turned: passing and ordering
    # with the partner fall clearly behind going alone, and are dropped after MIN_DROP deals
    played: dict[str, int] = {}
    after_bid = strong._after_bid

    def counted(hands: list[int], table: object, action: object, rng: random.Random) -> int:
        played[str(action)] = played.get(str(action), 0) + 1
        return after_bid(hands, table, action, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(strong, "_after_bid", counted)
    round_ = stacked_round({1: "JS JC AS KS AH"}, "QS")
    decision = search(round_, 1, random.Random(3), budget=None)
    assert str(decision.action) == "order alone"
    assert played == {"pass": MIN_DROP, "order": MIN_DROP, "order alone": decision.sampled}
    assert decision.sampled >= MIN_SEQUENTIAL > MIN_DROP


def test_the_same_seed_gives_the_same_choice() -> None:
    round_ = _spade_led("KS 9S 10C JC QC")
    first = choose_action(round_, 2, random.Random(11), budget=None)
    assert all(choose_action(round_, 2, random.Random(11), budget=None) == first for _ in range(3))
