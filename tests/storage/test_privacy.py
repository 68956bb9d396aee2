"""A player's data on request (storage/privacy.py), on both backends: what is kept about a user,
forgetting them without touching anyone else's records, and a guild's data going after the bot
left it for longer than its retention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from storage import PlayerPreferences, Store
from storage.compaction import decode_log
from storage.privacy import FORMER_PLAYER, StillSeated
from tests.storage.conftest import (
    Location,
    ToyTable,
    finished_match,
    raw_sql,
    resolve_toy,
    table_names,
)

ZOE = 987654321012345678  # an id and a name found nowhere else, so a scan can look for them
ZOE_NAME = "player 987654321012345678"
MAX, KIM = 555000111, 555000222


async def everything_stored(location: Location) -> list[str]:
    """Every cell of every table as text, compacted logs decoded."""
    cells = []
    for table in sorted(await table_names(location)):
        for row in await raw_sql(location, f"SELECT * FROM {table}"):
            cells.extend(str(value) for value in row)
    for started_at, log in await raw_sql(
        location, "SELECT started_at, log FROM rounds WHERE log IS NOT NULL"
    ):
        cells.extend(str(entry) for entry in decode_log(started_at, log))
    return cells


async def others_records(store: Store, guild_id: int = 1) -> dict[str, Any]:
    """Other players' statistics, ratings and matches (ranks move up once a player goes)."""

    def unranked(stats: Any) -> list[dict[str, Any]]:
        return [game.model_dump(exclude={"rank"}) for game in stats.games]

    return {
        "max": unranked(await store.player_stats(guild_id, MAX)),
        "kim": unranked(await store.player_stats(guild_id, KIM)),
        "max_matches": [
            m.model_dump(exclude={"players"}) for m in await store.recent_matches(guild_id, MAX, 50)
        ],
        "board": [
            row.model_dump(exclude={"rank"})
            for row in await store.leaderboard(guild_id, "toy")
            if row.user_id != ZOE
        ],
    }


async def test_forgetting_a_user_leaves_their_id_and_name_nowhere_and_others_whole(
    store: Store, location: Location
) -> None:
    settings = await store.get_guild_settings(1)  # seasons on: a season's board keeps them too
    await store.save_guild_settings(settings.model_copy(update={"season": "monthly"}))
    await finished_match(store, (ZOE, MAX), seed=1)
    await finished_match(store, (MAX, ZOE), seed=5)
    await finished_match(store, (MAX, KIM), seed=9)
    await finished_match(store, (ZOE, None), seed=13)  # against a bot player
    await store.save_player_preferences(PlayerPreferences(user_id=ZOE, deck="four"))
    await store.save_player_preferences(PlayerPreferences(user_id=MAX, deck="four"))
    before = await others_records(store)
    assert any(ZOE_NAME in cell or str(ZOE) in cell for cell in await everything_stored(location))

    kept = await store.forget_user(ZOE)
    assert len(kept.matches) == 3 and kept.names == [ZOE_NAME]

    cells = await everything_stored(location)
    assert not [cell for cell in cells if str(ZOE) in cell or ZOE_NAME in cell]
    assert await others_records(store) == before
    assert await store.player_preferences() == [PlayerPreferences(user_id=MAX, deck="four")]
    matches = await store.recent_matches(1, MAX, 50)
    assert sorted(tuple(m.players) for m in matches) == sorted(
        [
            (FORMER_PLAYER, f"player {MAX}"),
            (f"player {MAX}", FORMER_PLAYER),
            (f"player {MAX}", f"player {KIM}"),
        ]
    )
    assert [row.user_id for row in await store.leaderboard(1, "toy")] == [
        row["user_id"] for row in before["board"]
    ]
    assert (await store.user_data(ZOE)).empty


async def test_a_user_seated_at_a_table_in_play_is_not_forgotten(store: Store) -> None:
    await finished_match(store, (ZOE, MAX), seed=1)
    playing = await ToyTable.open(store, users=(KIM, ZOE))
    with pytest.raises(StillSeated) as refused:
        await store.forget_user(ZOE)
    assert refused.value.table_ids == [playing.id]
    assert (await store.user_data(ZOE)).names == [ZOE_NAME]  # nothing was changed


async def test_a_users_data_lists_their_matches_hands_ratings_and_names(store: Store) -> None:
    settings = await store.get_guild_settings(1)
    await store.save_guild_settings(settings.model_copy(update={"season": "quarterly"}))
    table = await finished_match(store, (ZOE, MAX), seed=1)
    data = await store.user_data(ZOE)
    assert data.user_id == ZOE and data.names == [ZOE_NAME]
    assert data.hosted_tables == [table.id]
    [match] = data.matches
    assert match.table_id == table.id and match.players == [ZOE_NAME, f"player {MAX}"]
    assert len(match.round_points) == table.match.round_no >= 1
    assert [rating.game for rating in data.ratings] == ["toy"]
    [season] = data.extra["season_stats"]  # their place in the season's board
    assert (season["game"], season["matches"], season["display_name"]) == ("toy", 1, ZOE_NAME)
    assert [seat.seat for seat in data.seats] == [0]
    assert (await store.user_data(424242)).empty


async def test_a_guild_left_longer_than_its_retention_is_deleted_whole(location: Location) -> None:
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    store = await Store.open(location, games_resolver=resolve_toy, now=lambda: now[0])
    try:
        gone = await ToyTable.open(store, guild_id=7, users=(ZOE, MAX))
        await raw_sql(  # the turn being announced in its channel
            location,
            "INSERT INTO turn_mentions (table_id, channel_id, message_id, seat, round_no) "
            "VALUES (?, 500, 900, 0, 0)",
            (gone.id,),
        )
        await raw_sql(  # a review of a seat's play there
            location,
            "INSERT INTO hand_reviews (table_id, round_no, seat, review) VALUES (?, 0, 0, '{}')",
            (gone.id,),
        )
        await finished_match(store, (ZOE, KIM), seed=3)  # guild 1 stays
        settings = await store.get_guild_settings(7)
        await store.save_guild_settings(settings.model_copy(update={"turn_seconds": 30}))
        await store.set_retention_days(7, 10)
        assert await store.retention_days(7) == 10 and await store.retention_days(1) == 30

        await store.guild_left(7)
        now[0] += timedelta(days=9)
        assert await store.forget_guilds_past_retention() == []
        await store.guild_present(7)  # the bot came back: the clock stops
        now[0] += timedelta(days=20)
        assert await store.forget_guilds_past_retention() == []
        await store.guild_left(7)
        now[0] += timedelta(days=10)
        assert await store.forget_guilds_past_retention() == [7]

        for table in ("tables", "player_stats", "match_players", "guild_settings"):
            rows = await raw_sql(location, f"SELECT COUNT(*) FROM {table} WHERE guild_id = 7")
            assert rows[0][0] == 0, table
        assert await raw_sql(
            location, "SELECT COUNT(*) FROM seats WHERE table_id = ?", (gone.id,)
        ) == [(0,)]
        assert (await store.player_stats(1, KIM)).games  # guild 1 untouched
    finally:
        await store.close()
