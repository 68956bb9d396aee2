"""The search's rollout (games/euchre/bots/rollout.py) scores every hand as `fast.play_tricks` with
`fast.heuristic_card` does, from any trick state, with or without a first card given."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.euchre.bots.fast import (
    BIT,
    CARD_ID,
    DECK,
    LOW,
    N_CARDS,
    SUIT_MASK,
    heuristic_card,
    play_tricks,
    points,
)
from games.euchre.bots.rollout import CARD_OF, RELABEL, play_out, relabel


class _Stop(Exception):
    """Raised by the random chooser when the state to start from is reached."""


def _random_state(
    rng: random.Random,
) -> tuple[list[int], int, int, int, int, tuple[int, int, int, int], list[int]]:
    """A hand part-played at random: (hands, trump, makers, seat to act, sitting out,
    (led, best, best_seat, in_trick), tricks won)."""
    order = rng.sample(range(N_CARDS), 20)
    hands = [sum(BIT[c] for c in order[i * 5 : i * 5 + 5]) for i in range(4)]
    sitting_out = rng.choice([-1, -1, 0, 1, 2, 3])
    if sitting_out >= 0:
        hands[sitting_out] = 0
    size = 3 if sitting_out >= 0 else 4
    leader = rng.choice([s for s in range(4) if s != sitting_out])
    trump, makers = rng.randrange(4), rng.randrange(2)
    cards = rng.randrange(5 * size)  # played before the state
    state: list[int] = []

    def choose(seat: int, legal: int, *args: int) -> int:
        played[0] += 1
        if played[0] > cards:
            state.extend((seat, *args[2:]))
            raise _Stop
        bits = [b for b in (BIT[c] for c in range(N_CARDS)) if legal & b]
        return rng.choice(bits)

    played = [0]
    won = [0, 0]
    with contextlib.suppress(_Stop):
        play_tricks(hands, trump, makers, leader, sitting_out, -1, 0, 0, 0, won, choose)
    seat, led, best, best_seat = state
    in_trick = cards - sum(won) * size
    return hands, trump, makers, seat, sitting_out, (led, best, best_seat, in_trick), won


def test_relabeling_numbers_the_cards_from_the_cheapest_to_the_top_trump() -> None:
    for trump in range(4):
        keys = [(LOW[trump][c], c) for c in CARD_OF[trump]]
        assert keys == sorted(keys)
        assert [RELABEL[trump][c] for c in CARD_OF[trump]] == list(range(N_CARDS))
        trumps = relabel(SUIT_MASK[trump][trump], trump)
        assert trumps == sum(BIT[n] for n in range(N_CARDS - 7, N_CARDS))
        assert relabel(BIT[CARD_ID[DECK[5]]], trump) == BIT[RELABEL[trump][5]]


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_play_out_scores_as_play_tricks_with_the_heuristic(seed: int, first_given: bool) -> None:
    rng = random.Random(seed)
    hands, trump, makers, seat, sitting_out, trick, won = _random_state(rng)
    led, best, best_seat, in_trick = trick
    forced = 0
    if first_given:  # a legal card of the seat to act, as the search tries each
        hand = hands[seat]
        legal = hand & SUIT_MASK[trump][led] if led >= 0 else hand
        legal = legal or hand
        forced = rng.choice([b for b in (BIT[c] for c in range(N_CARDS)) if legal & b])
    expected = list(won)
    play_tricks(
        list(hands),
        trump,
        makers,
        seat,
        sitting_out,
        led,
        best,
        best_seat,
        in_trick,
        expected,
        heuristic_card,
        forced,
    )
    numbered = [relabel(h, trump) for h in hands]
    first = relabel(forced, trump)
    tricks = play_out(numbered, trump, makers, seat, sitting_out, *trick, *won, first)
    alone = sitting_out >= 0
    assert points(tricks, alone) == points(expected[makers], alone)
