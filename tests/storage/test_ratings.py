"""Finishing places and openskill updates (storage/ratings.py)."""

from __future__ import annotations

from storage.ratings import Skill, rate, side_ranks


def test_winners_rank_first_even_against_a_better_total() -> None:
    # a game whose own end rule named side 1 winner although side 0 has more points
    assert side_ranks([50, 40, 10], {1}, lower_is_better=False) == [2, 1, 3]


def test_lower_totals_rank_better_when_lower_is_better() -> None:
    assert side_ranks([10, 30, 20, 40], {0}, lower_is_better=True) == [1, 3, 2, 4]


def test_equal_totals_share_a_rank() -> None:
    assert side_ranks([5, 20, 20, 30], {0}, lower_is_better=True) == [1, 2, 2, 4]
    assert side_ranks([7, 7, 12], {0, 1}, lower_is_better=True) == [1, 1, 3]


def test_fewer_than_two_rated_sides_change_nothing() -> None:
    assert rate([[1], []], [1, 2], {}) == {}
    assert rate([[], []], [1, 2], {}) == {}


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    strong, weak = Skill(mu=35.0, sigma=3.0), Skill(mu=15.0, sigma=3.0)
    expected = rate([[1], [2]], [1, 2], {1: strong, 2: weak})
    upset = rate([[1], [2]], [2, 1], {1: strong, 2: weak})
    assert expected[1].mu > strong.mu and upset[1].mu < strong.mu
    assert strong.mu - upset[1].mu > expected[1].mu - strong.mu


def test_newcomers_start_at_the_default_skill() -> None:
    result = rate([[1], [2]], [1, 2], {})
    assert result[1].mu > Skill().mu > result[2].mu
    assert Skill().ordinal == Skill().mu - 3 * Skill().sigma
