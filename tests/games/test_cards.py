from __future__ import annotations

import copy
import pickle

import pytest

from games.cards import card, cards, deck_from_codes, shuffled, standard_deck


def test_card_names_follow_rules_md() -> None:
    assert [c.name for c in cards("QS 10H KD JK")] == ["QS", "10H", "KD", "JK"]
    assert card("q♠") is card("QS")
    assert card("10H").pretty == "10♥"


def test_cards_are_interned_so_copies_are_the_same_object() -> None:
    qs = card("QS")
    assert copy.deepcopy(qs) is qs
    assert pickle.loads(pickle.dumps(qs)) is qs


def test_two_deck_copies_are_told_apart_by_identity() -> None:
    deck = standard_deck(jokers=4, copies=2)
    assert len(deck) == 108
    assert len({c.code for c in deck}) == 108
    queens = [c for c in deck if c.name == "QS"]
    assert len(queens) == 2 and queens[0] is not queens[1]
    assert {c.code for c in queens} == {"QS", "QS#1"}


def test_standard_deck_sizes() -> None:
    assert len(standard_deck()) == 52
    assert len(standard_deck(jokers=2)) == 54
    assert len(standard_deck(ranks=("9", "10", "J", "Q", "K", "A"))) == 24


def test_shuffle_is_deterministic_from_the_seed() -> None:
    deck = standard_deck(jokers=2)
    assert shuffled(deck, 7) == shuffled(deck, 7)
    assert shuffled(deck, 7) != shuffled(deck, 8)
    assert deck_from_codes(c.code for c in shuffled(deck, 7)) == shuffled(deck, 7)


def test_unknown_card_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown card"):
        card("ZZ")
