"""`python -m storage.migrate_to`: an SQLite store moves to PostgreSQL whole (every table,
round, action, setting, statistic and rating, ids kept), checked, and never into a database
that already holds data."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import GuildSettings, Store, StoreError
from storage.migrate_to import NOT_COPIED, TABLES, main, migrate_to
from storage.models import TurnMention
from tests.postgres_server import PostgresServer
from tests.storage.conftest import ToyTable, raw_sql, resolve_toy


async def fill(path: Path) -> dict[str, int]:
    """A store with a bit of everything; returns some table ids."""
    async with await Store.open(path, games_resolver=resolve_toy) as store:
        await store.save_guild_settings(GuildSettings(guild_id=1, language="fr", turn_seconds=40))
        finished = await ToyTable.open(store, users=(101, 102, None), target=10)
        while not finished.match.finished:
            await finished.play_round(seed=finished.match.round_no)
        await store.finish_match(
            finished.id, list(finished.match.winner_seats()), finished.match.totals
        )
        await store.update_table(finished.id, status="finished")
        mid_round = await ToyTable.open(store, users=(101, 103), target=1000)
        await mid_round.play_round(seed=5)
        await mid_round.new_round(seed=6)
        await mid_round.play("draw")
        await store.set_retention_days(1, 12)
        await store.save_hand_review(finished.id, 0, 1, '{"accuracy": 80}')
        await store.save_turn_mention(
            TurnMention(table_id=mid_round.id, channel_id=9, message_id=77, seat=1, round_no=1)
        )
        lobby = await store.create_table(2, 9, "toy", {"target": 30}, host_id=104)
        broken = await store.create_table(1, 9, "chess", {}, host_id=105)
    return {"finished": finished.id, "mid": mid_round.id, "lobby": lobby.id, "broken": broken.id}


async def test_everything_is_copied_and_replays_the_same(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    path = tmp_path / "bot.sqlite3"
    ids = await fill(path)
    url = await postgres_server.create_database()

    report = await migrate_to(path, url, resolve_toy)

    assert report.rows["tables"] == 4 and report.rows["rounds"] >= 3
    assert report.rows["actions"] == 1  # the open round's; finished ones are compacted
    assert report.rows["player_stats"] == 2 and report.rows["match_players"] == 2
    assert report.active_tables == 2
    assert [table_id for table_id, _ in report.broken] == [ids["broken"]]
    async with (
        await Store.open(path, games_resolver=resolve_toy) as old,
        await Store.open(url, games_resolver=resolve_toy) as new,
    ):
        assert await new.get_guild_settings(1) == await old.get_guild_settings(1)
        assert await new.leaderboard(1, "toy") == await old.leaderboard(1, "toy")
        assert await new.player_stats(1, 101) == await old.player_stats(1, 101)
        assert await new.recent_matches(1, 102) == await old.recent_matches(1, 102)
        assert await new.load_match(ids["mid"]) == await old.load_match(ids["mid"])
        assert await new.load_round(ids["mid"], 1) == await old.load_round(ids["mid"], 1)
        assert await new.retention_days(1) == 12
        assert await new.hand_review(ids["finished"], 0, 1) == '{"accuracy": 80}'
        assert await new.turn_mentions() == await old.turn_mentions() != []
        # the copied round takes new actions, and new tables get new ids
        await new.record_action(ids["mid"], 1, 1, 0, "draw")
        fresh = await new.create_table(1, 1, "toy", {}, host_id=1)
        assert fresh.id > max(ids.values())


async def test_every_table_of_the_schema_is_copied(tmp_path: Path) -> None:
    """A table added by a migration and forgotten here would be lost by the move."""
    path = tmp_path / "bot.sqlite3"
    await fill(path)
    names = await raw_sql(path, "SELECT name FROM sqlite_master WHERE type = 'table'")
    schema = {name for (name,) in names if not name.startswith("sqlite_")}
    assert schema - set(NOT_COPIED) == set(TABLES)


async def used_database(server: PostgresServer) -> str:
    url = await server.create_database()
    async with await Store.open(url, games_resolver=resolve_toy) as store:
        await store.create_table(7, 7, "toy", {}, host_id=7)
    return url


def test_a_database_holding_data_is_refused_untouched(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    asyncio.run(fill(path))
    url = asyncio.run(used_database(postgres_server))

    assert main([url, "--from", str(path)]) == 1  # the command line, as an operator runs it
    error = capsys.readouterr().err
    assert "already holds data (table tables)" in error and "empty database" in error
    assert asyncio.run(raw_sql(url, "SELECT guild_id FROM tables")) == [(7,)]


async def test_a_missing_file_or_a_non_postgresql_url_is_refused(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    with pytest.raises(StoreError, match="there is no SQLite store"):
        await migrate_to(tmp_path / "none.sqlite3", postgres_server.url(), resolve_toy)
    with pytest.raises(StoreError, match="not a postgresql:// URL"):
        await migrate_to(tmp_path / "none.sqlite3", "sqlite:///x", resolve_toy)
