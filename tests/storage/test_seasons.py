"""Leaderboard seasons in the store (storage/seasons.py), on both backends: their periods in
UTC, a match counted in the season open when it ends, each season rated afresh beside the
all-time ratings, a season closed once and its final board kept as it was."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from games.match import Match
from storage import GuildSettings, SeatRecord, Store
from storage.seasons import next_boundary, period_of, season_at
from tests.games.toygame import GAME as TOY
from tests.storage.conftest import Location, raw_sql, resolve_toy

A, B, C = 11, 12, 13
NOVEMBER = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
DECEMBER = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


async def run_seasons(store: Store, kind: str = "monthly", *, guild_id: int = 1) -> None:
    settings = await store.get_guild_settings(guild_id)
    await store.save_guild_settings(settings.model_copy(update={"season": kind}))


async def match_at(
    store: Store,
    at: datetime,
    winner: int,
    loser: int,
    *,
    guild_id: int = 1,
    rated: bool = True,
) -> None:
    """A finished two-player toy match, the winner in seat 0, ended at `at`."""
    table = await store.create_table(guild_id, 9, TOY.name, {}, host_id=winner)
    await store.save_seats(
        table.id,
        [
            SeatRecord(seat=seat, user_id=user, display_name=f"u{user}")
            for seat, user in enumerate((winner, loser))
        ],
    )
    await store.start_match(table.id, Match(TOY, TOY.options(), 2).state())
    await store.finish_match(table.id, [0], [5, 30], at=at, rated=rated)


def test_a_month_starts_at_midnight_utc_on_the_first_and_a_quarter_every_three_months() -> None:
    last_second = datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)
    november = season_at("monthly", last_second)
    assert november is not None and november.key == "2026-11"
    assert november.starts_at == datetime(2026, 11, 1, tzinfo=UTC)
    assert november.ends_at == datetime(2026, 12, 1, tzinfo=UTC)
    december = season_at("monthly", last_second + timedelta(seconds=1))
    assert december is not None and december.key == "2026-12"
    assert december.ends_at == datetime(2027, 1, 1, tzinfo=UTC)  # over the year's end
    quarter = season_at("quarterly", datetime(2026, 11, 30, tzinfo=UTC))
    assert quarter is not None and quarter.key == "2026-Q4"
    assert (quarter.starts_at, quarter.ends_at) == (
        datetime(2026, 10, 1, tzinfo=UTC),
        datetime(2027, 1, 1, tzinfo=UTC),
    )
    paris_new_year = datetime(2027, 1, 1, 0, 30, tzinfo=UTC).astimezone(
        datetime(2027, 1, 1, tzinfo=UTC).astimezone().tzinfo
    )
    assert season_at("monthly", paris_new_year).key == "2027-01"  # type: ignore[union-attr]
    assert season_at("off", last_second) is None and season_at(None, last_second) is None
    assert next_boundary(last_second) == datetime(2026, 12, 1, tzinfo=UTC)
    assert period_of("2026-Q4") == quarter and period_of("2026-11") == november
    assert [period_of(name) for name in ("2026-13", "2026-Q5", "all", "26-11", "")] == [None] * 5


async def test_a_match_counts_in_the_season_open_when_it_ends_and_all_time_goes_on(
    store: Store,
) -> None:
    await run_seasons(store)
    await match_at(store, NOVEMBER, A, B)
    await match_at(store, NOVEMBER, A, B)
    await match_at(store, DECEMBER, B, C)
    november = await store.leaderboard(1, "toy", season="2026-11")
    assert [(r.user_id, r.matches, r.wins) for r in november] == [(A, 2, 2), (B, 2, 0)]
    december = await store.leaderboard(1, "toy", season="2026-12")
    assert [(r.user_id, r.matches, r.wins) for r in december] == [(B, 1, 1), (C, 1, 0)]
    all_time = {r.user_id: r for r in await store.leaderboard(1, "toy")}
    assert {u: (r.matches, r.wins) for u, r in all_time.items()} == {
        A: (2, 2),
        B: (3, 1),
        C: (1, 0),
    }
    assert await store.seasons_played(1) == ["2026-12", "2026-11"]


async def test_a_new_season_rates_everyone_afresh_while_the_all_time_rating_carries_on(
    store: Store,
) -> None:
    await run_seasons(store)
    await match_at(store, NOVEMBER, A, B)
    await match_at(store, NOVEMBER, A, B)
    await match_at(store, DECEMBER, B, C)  # B lost twice in November: all time, B is behind
    december = {r.user_id: r for r in await store.leaderboard(1, "toy", season="2026-12")}
    all_time = {r.user_id: r for r in await store.leaderboard(1, "toy")}
    # in December B and C met at the same footing: their season ratings mirror each other
    assert december[B].mu - 25 == -(december[C].mu - 25)
    assert december[B].sigma == december[C].sigma
    assert all_time[B].mu < december[B].mu  # all time, B's November losses still count
    # all time C lost to a player rated lower, which costs more than in a fresh season
    assert all_time[C].mu < december[C].mu


async def test_without_seasons_no_season_rows_are_kept(store: Store, location: Location) -> None:
    await match_at(store, NOVEMBER, A, B)
    assert await raw_sql(location, "SELECT COUNT(*) FROM season_stats") == [(0,)]
    assert await store.seasons_played(1) == []
    assert await store.close_ended_seasons(DECEMBER) == []


async def test_a_season_over_is_closed_once_and_its_final_board_is_kept(store: Store) -> None:
    await run_seasons(store)
    settings = await store.get_guild_settings(1)
    await store.save_guild_settings(settings.model_copy(update={"season_channel": 4242}))
    await match_at(store, NOVEMBER, A, B)
    assert await store.close_ended_seasons(NOVEMBER + timedelta(days=1)) == []  # not over yet
    final = await store.leaderboard(1, "toy", season="2026-11")

    [closed] = await store.close_ended_seasons(datetime(2026, 12, 1, tzinfo=UTC))
    assert (closed.guild_id, closed.season, closed.channel_id) == (1, "2026-11", 4242)
    assert await store.close_ended_seasons(DECEMBER) == []  # a second call: nothing to announce

    # a match that ended in November but reached the store after the close leaves it whole
    await match_at(store, NOVEMBER, B, A)
    assert await store.leaderboard(1, "toy", season="2026-11") == final


async def test_a_season_closes_when_its_guild_changes_or_stops_its_seasons(
    store: Store,
) -> None:
    await run_seasons(store, "monthly")
    await match_at(store, NOVEMBER, A, B)
    await run_seasons(store, "quarterly")
    [closed] = await store.close_ended_seasons(NOVEMBER + timedelta(hours=1))
    assert closed.season == "2026-11" and closed.channel_id is None
    await match_at(store, NOVEMBER + timedelta(hours=2), A, B)
    assert await store.seasons_played(1) == ["2026-Q4", "2026-11"]
    await run_seasons(store, "off")
    [closed] = await store.close_ended_seasons(NOVEMBER + timedelta(hours=3))
    assert closed.season == "2026-Q4"


async def test_the_season_settings_are_kept(store: Store) -> None:
    saved = GuildSettings(guild_id=5, season="quarterly", season_channel=777)
    await store.save_guild_settings(saved)
    assert await store.get_guild_settings(5) == saved
    assert (await store.get_guild_settings(6)).season == "off"


async def test_a_guild_deleted_after_its_retention_takes_its_seasons(location: Location) -> None:
    now = [datetime(2026, 11, 1, tzinfo=UTC)]
    async with await Store.open(location, games_resolver=resolve_toy, now=lambda: now[0]) as store:
        await run_seasons(store, guild_id=7)
        await match_at(store, NOVEMBER, A, B, guild_id=7)
        await store.guild_left(7)
        now[0] += timedelta(days=31)
        assert await store.forget_guilds_past_retention() == [7]
        for table in ("seasons", "season_stats"):
            rows: list[Any] = await raw_sql(location, f"SELECT COUNT(*) FROM {table}")
            assert rows == [(0,)], table
