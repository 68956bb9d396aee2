"""Fixtures for the store tests: a fresh store on a temporary file, games resolved to the toy
game (tests/games/toygame.py), and a helper that plays toy rounds through the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from games.contract import Game
from games.match import Match
from storage import SeatRecord, Store, TableRecord
from tests.games.toygame import GAME as TOY


def resolve_toy(name: str) -> Game[Any, Any, Any]:
    if name == TOY.name:
        return TOY
    raise KeyError(f"unknown game {name!r}")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "cardtable.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(db_path, games_resolver=resolve_toy)
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
