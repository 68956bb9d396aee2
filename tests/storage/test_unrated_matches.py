"""A coached practice table's match is unrated: kept in the players' recent matches, counted in no
statistic, leaderboard, rating or season (storage/stats.py), on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from storage import Store
from tests.storage.test_seasons import A, B, match_at, run_seasons

DECEMBER = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


async def test_an_unrated_match_changes_no_rating_leaderboard_or_season_but_is_in_history(
    store: Store,
) -> None:
    await run_seasons(store)
    await match_at(store, DECEMBER, A, B)  # a rated match first: ratings to keep as they are
    rated_board = await store.leaderboard(1, "toy")
    season_board = await store.leaderboard(1, "toy", season="2026-12")
    await match_at(store, DECEMBER, A, B, rated=False)
    assert await store.leaderboard(1, "toy") == rated_board
    assert await store.leaderboard(1, "toy", season="2026-12") == season_board
    practice, rated = await store.recent_matches(1, B)  # newest first
    assert not practice.won and practice.rating_before == practice.rating_after
    assert rated.rating_before != rated.rating_after


async def test_an_unrated_first_match_puts_nobody_on_the_leaderboard(store: Store) -> None:
    await run_seasons(store)
    await match_at(store, DECEMBER, A, B, rated=False)
    assert await store.leaderboard(1, "toy") == []
    assert await store.leaderboard(1, "toy", season="2026-12") == []
    (practice,) = await store.recent_matches(1, A)
    assert practice.won and practice.rating_before == practice.rating_after
