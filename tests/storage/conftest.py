"""Fixtures for the store tests: every test taking `location` runs on both backends (a
temporary SQLite file, a fresh database of the throwaway PostgreSQL server); games resolved to
the toy game (tests/games/toygame.py); a helper that plays toy rounds through the store, and
`raw_sql` to read or damage a database behind the store's back."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from games.contract import Game
from games.match import Match
from storage import SeatRecord, Store, TableRecord
from storage.compaction import decode_log
from storage.postgres import is_database_url, numbered
from tests.games.toygame import GAME as TOY

Location = Path | str  # an SQLite file or a PostgreSQL URL


def resolve_toy(name: str) -> Game[Any, Any, Any]:
    if name == TOY.name:
        return TOY
    raise KeyError(f"unknown game {name!r}")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "cardtable.sqlite3"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def location(backend: str, db_path: Path, request: pytest.FixtureRequest) -> Location:
    """Where a test's store lives: a new SQLite file, or a new PostgreSQL database."""
    if backend == "sqlite":
        return db_path
    server = request.getfixturevalue("postgres_server")
    return str(await server.create_database())


async def raw_sql(
    location: Location, sql: str, params: Sequence[Any] = ()
) -> list[tuple[Any, ...]]:
    """Run one statement on the database directly (committed at once); returns its rows."""
    if is_database_url(location):
        conn = await asyncpg.connect(str(location))
        try:
            return [tuple(row) for row in await conn.fetch(numbered(sql), *params)]
        finally:
            await conn.close()
    with sqlite3.connect(location) as raw:
        rows = raw.execute(sql, params).fetchall()
    raw.close()
    return rows


async def stored_seqs(location: Location) -> dict[tuple[int, int], list[int]]:
    """The seqs of every stored action, by (table, round number), in order: rows of open
    rounds, and the compacted logs of the others."""
    stored: dict[tuple[int, int], list[int]] = defaultdict(list)
    for table_id, round_no, seq in await raw_sql(
        location,
        "SELECT table_id, round_no, seq FROM actions JOIN rounds ON rounds.id = round_id "
        "ORDER BY table_id, round_no, seq",
    ):
        stored[(table_id, round_no)].append(seq)
    for table_id, round_no, started_at, log in await raw_sql(
        location, "SELECT table_id, round_no, started_at, log FROM rounds WHERE log IS NOT NULL"
    ):
        stored[(table_id, round_no)] = [seq for seq, _, _, _ in decode_log(started_at, log)]
    return stored


async def table_names(location: Location) -> set[str]:
    if is_database_url(location):
        sql = (
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {row[0] for row in await raw_sql(location, sql)}


@pytest.fixture
async def store(location: Location) -> AsyncIterator[Store]:
    opened = await Store.open(location, games_resolver=resolve_toy)
    try:
        yield opened
    finally:
        await opened.close()


class ToyTable:
    """A toy table driven through the store the way the table service does it."""

    def __init__(self, store: Store, record: TableRecord, match: Match) -> None:
        self.store = store
        self.record = record
        self.match = match
        self.round: Any = None
        self.round_no: int | None = None

    @property
    def id(self) -> int:
        return self.record.id

    @classmethod
    async def open(
        cls,
        store: Store,
        guild_id: int = 1,
        users: tuple[int | None, ...] = (101, 102),
        target: int = 30,
        draws_per_seat: int = 2,
    ) -> ToyTable:
        options = TOY.options(target=target, draws_per_seat=draws_per_seat)
        record = await store.create_table(
            guild_id, 500, "toy", options.model_dump(mode="json"), users[0] or 0
        )
        seats = [
            SeatRecord(
                seat=seat,
                user_id=user,
                display_name=f"player {user}" if user else f"bot {seat}",
                is_bot=user is None,
            )
            for seat, user in enumerate(users)
        ]
        await store.save_seats(record.id, seats)
        await store.update_table(record.id, status="playing")
        match = Match(TOY, options, len(users))
        await store.start_match(record.id, match.state())
        return cls(store, record, match)

    async def new_round(self, seed: int) -> None:
        self.round = self.match.new_round(seed=seed)
        self.round_no = await self.store.start_round(self.id, self.round.record())

    async def play(self, notation: str) -> None:
        assert self.round_no is not None
        seat = self.round.to_act()[0]
        self.round.apply(seat, notation)
        await self.store.record_action(
            self.id, self.round_no, len(self.round.history) - 1, seat, notation
        )

    async def finish_round(self) -> None:
        assert self.round_no is not None
        result = self.round.result()
        self.match.add_round(result)
        await self.store.finish_round(self.id, self.round_no, result, list(self.match.totals))

    async def play_round(self, seed: int, moves: str = "") -> None:
        """Play a whole round; `moves` gives each action's letter (d raw / p ass), then draws."""
        await self.new_round(seed)
        index = 0
        while not self.round.finished:
            letter = moves[index] if index < len(moves) else "d"
            await self.play("pass" if letter == "p" else "draw")
            index += 1
        await self.finish_round()


async def finished_match(store: Store, users: tuple[int | None, ...], seed: int) -> ToyTable:
    """A toy match to 1 point played to its end and closed, as the service finishes one."""
    table = await ToyTable.open(store, users=users, target=1)
    while not table.match.finished:
        await table.play_round(seed)
        seed += 1
    await store.finish_match(table.id, list(table.match.winners), list(table.match.totals))
    await store.update_table(table.id, status="finished")
    return table
