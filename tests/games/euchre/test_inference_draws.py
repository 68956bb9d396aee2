"""`Knowledge.sample`'s shortcuts draw exactly what their plain definitions draw: the same
deals and the same numbers from the generator (the search goes on drawing from it), so the
search bot's choices do not depend on them (games.euchre.bots.inference)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.contract import RoundSetup
from games.euchre import GAME, EuchreRound, EuchreView
from games.euchre.bots.fast import BIT, N_CARDS, SUIT_ID, SUIT_MASK
from games.euchre.bots.inference import (
    BOUND_TRIES,
    NO_CEILING,
    SAMPLE_TRIES,
    STRENGTH,
    Knowledge,
    shuffle,
    strength,
)
from tests.games.euchre.helpers import act, stacked_round

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None)
DRAWS = 8  # deals drawn from each knowledge, one in four without the bounds (as the search)


def _plain_strength(hand: int, trump: int) -> int:
    return sum(STRENGTH[trump][c] for c in range(N_CARDS) if hand >> c & 1)


def _plain_fits_bounds(knowledge: Knowledge, seat: int, hand: int) -> bool:
    dealt = knowledge.dealt(seat, hand)
    return all(
        b.low <= _plain_strength(dealt, b.suit) + b.bonus <= b.high
        for b in knowledge.bounds
        if b.seat == seat
    )


def _plain_sample(knowledge: Knowledge, rng: random.Random, bounded: bool) -> list[int]:
    """`Knowledge.sample` as first written: every list and order made anew at each call,
    `rng.shuffle`, strengths summed card by card."""
    k = knowledge
    pool = [c for c in range(N_CARDS) if k.unseen >> c & 1]
    bounded_seats = {b.seat for b in k.bounds} if bounded and k.bounds and k.bounds_fit else set()
    order = sorted(
        (s for s in range(4) if k.need[s]),
        key=lambda s: (s not in bounded_seats, k.allowed[s].bit_count()),
    )
    bound_tries = BOUND_TRIES if bounded_seats else 0
    for _ in range(SAMPLE_TRIES):
        rng.shuffle(pool)
        hands = list(k.known)
        taken = 0
        for s in order:
            need, allowed = k.need[s], k.allowed[s] & ~taken
            got = 0
            for c in pool:
                if allowed >> c & 1:
                    got |= BIT[c]
                    need -= 1
                    if not need:
                        break
            if need:
                break
            hands[s] |= got
            taken |= got
            if bound_tries and s in bounded_seats and not _plain_fits_bounds(k, s, hands[s]):
                bound_tries -= 1
                break
        else:
            if k.auto_trump < 0 or k._auto_discard_fits(hands, taken):
                if bounded_seats and not bound_tries:
                    k.bounds_fit = False
                return hands
    return k._exhaustive(pool)


def _views(seed: int, auto: bool) -> list[EuchreView]:
    """Every seat's view before each action of a round played at random (odd bids included:
    they miss the bounds)."""
    options = GAME.options("standard", dealer_discard="auto" if auto else "choose")
    round_ = GAME.new_round(options, RoundSetup(n_seats=4, dealer=seed % 4), seed=seed)
    assert isinstance(round_, EuchreRound)
    rng = random.Random(seed)
    views: list[EuchreView] = []
    while not round_.finished:
        views += (round_.view(s) for s in range(4))
        (seat,) = round_.to_act()
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
    return views


@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2**32 - 1))
@SETTINGS
def test_strength_is_the_sum_of_its_cards(hand: int, trump: int, extra: int) -> None:
    hand &= (1 << N_CARDS) - 1
    assert strength(hand, trump) == _plain_strength(hand, trump)
    five = 0
    picks = random.Random(extra).sample(range(N_CARDS), 5)  # a hand's five cards
    for c in picks:
        five |= BIT[c]
    assert strength(five, trump) == _plain_strength(five, trump)


@given(st.integers(0, 2**64 - 1), st.integers(0, N_CARDS), st.integers(1, 3))
@SETTINGS
def test_shuffle_draws_as_random_shuffle(seed: int, length: int, times: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, expected = list(range(length)), list(range(length))
    for _ in range(times):
        shuffle(mine, ours)
        theirs.shuffle(expected)
        assert mine == expected
    assert ours.getstate() == theirs.getstate()


class _FromFloats(random.Random):
    """A generator whose shuffle draws floats, not bits."""

    def random(self) -> float:
        return super().random()


def test_shuffle_leaves_another_generator_to_its_own_shuffle() -> None:
    ours, theirs = _FromFloats(3), _FromFloats(3)
    mine, expected = list(range(N_CARDS)), list(range(N_CARDS))
    shuffle(mine, ours)
    theirs.shuffle(expected)
    assert mine == expected and ours.getstate() == theirs.getstate()


@given(
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.integers(0, 200),
    st.one_of(st.none(), st.integers(0, 19)),
    st.integers(0, 2**32 - 1),
)
@SETTINGS
def test_sample_draws_the_deals_of_the_plain_draw(
    game: int, auto: bool, moment: int, plays: int | None, seed: int
) -> None:
    views = _views(game, auto)
    view = views[moment % len(views)]
    ours = Knowledge.of(view, auto_discard=auto, plays=plays)
    plain = Knowledge.of(view, auto_discard=auto, plays=plays)
    ours_rng, plain_rng = random.Random(seed), random.Random(seed)
    for i in range(DRAWS):
        bounded = i % 4 != 3
        assert ours.sample(ours_rng, bounded=bounded) == _plain_sample(plain, plain_rng, bounded)
        assert ours_rng.getstate() == plain_rng.getstate()
        assert ours.bounds_fit == plain.bounds_fit


def test_a_knowledge_changed_after_a_draw_is_drawn_from_as_changed() -> None:
    round_ = stacked_round({0: "AD KD QD 10D 9D"}, "9H")
    act(round_, "1 pass")
    knowledge = Knowledge.of(round_.view(0))
    knowledge.sample(random.Random(0))
    spades = SUIT_MASK[SUIT_ID["H"]][SUIT_ID["S"]]
    knowledge.allowed = tuple(a & ~spades if s == 2 else a for s, a in enumerate(knowledge.allowed))
    changed = Knowledge.of(round_.view(0))
    changed.allowed = knowledge.allowed
    for seed in range(20):
        hands = knowledge.sample(random.Random(seed))
        assert not hands[2] & spades
        assert hands == changed.sample(random.Random(seed))


@given(st.integers(0, 2**32 - 1), st.integers(0, 200), st.integers(0, 2**32 - 1))
@SETTINGS
def test_a_bound_holds_both_its_ends(game: int, moment: int, seed: int) -> None:
    views = _views(game, auto=False)
    view = views[moment % len(views)]
    knowledge = Knowledge.of(view)
    assume(knowledge.bounds)
    hands = knowledge.sample(random.Random(seed), bounded=False)
    for bound in knowledge.bounds:
        seat, hand = bound.seat, hands[bound.seat]
        assert knowledge.fits_bounds(seat, hand) == _plain_fits_bounds(knowledge, seat, hand)
        value = _plain_strength(knowledge.dealt(seat, hand), bound.suit) + bound.bonus
        for low, high, fits in (
            (value, value, True),
            (value + 1, NO_CEILING, False),
            (-NO_CEILING, value - 1, False),
        ):
            edged = Knowledge.of(view)
            edged.bounds = (replace(bound, low=low, high=high),)
            assert edged.fits_bounds(seat, hand) == fits


def test_the_exhaustive_draw_follows_the_last_shuffled_order() -> None:
    # With the `auto` discard hint and no unseen card left out of the hands, no greedy deal
    # fits: after SAMPLE_TRIES shuffles the exhaustive search places the cards in the order
    # the last one left them in.
    mine = sum(BIT[c] for c in range(5))
    unseen = sum(BIT[c] for c in range(5, 15))
    for seed in range(5):
        knowledges = [
            Knowledge(0, 1, mine, unseen, (0, 5, 5, 0), (0, unseen, unseen, 0), (mine, 0, 0, 0), 2)
            for _ in range(2)
        ]
        ours, plain = random.Random(seed), random.Random(seed)
        assert knowledges[0].sample(ours) == _plain_sample(knowledges[1], plain, True)
        assert ours.getstate() == plain.getstate()
