"""A real store on a temporary file, a fake clock, a recording notifier and helpers that play
Dutch through the service the way the glue would (clicks with round numbers)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Iterator
from itertools import count
from pathlib import Path

import pytest

from bot.service import (
    PLAYING,
    FakeClock,
    PlayerRef,
    PublicSnapshot,
    RecordingNotifier,
    TableService,
)
from storage import Store

GUILD = 1
CHANNEL = 10
ANN, BOB, CAT, DAN = (PlayerRef(100 + i, n) for i, n in enumerate(["Ann", "Bob", "Cat", "Dan"]))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(db_path, synchronous="NORMAL")
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def seeds() -> Callable[[], int]:
    counter: Iterator[int] = count(7)
    return lambda: next(counter)


@pytest.fixture
async def service(
    store: Store, clock: FakeClock, notifier: RecordingNotifier, seeds: Callable[[], int]
) -> AsyncIterator[TableService]:
    opened = TableService(store, clock, notifier, seeds)
    yield opened
    await opened.close()  # no bot move left running when the store closes


async def open_dutch(
    service: TableService, players: list[PlayerRef], *, target: int = 100, start: bool = True
) -> int:
    """A Dutch table in GUILD/CHANNEL hosted by players[0] with the others joined."""
    snapshot = await service.seating.open_table(GUILD, CHANNEL, players[0], "dutch", target=target)
    for player in players[1:]:
        await service.seating.join(snapshot.table_id, player)
    if start:
        await service.seating.start(snapshot.table_id, players[0].user_id)
        await service.followup.settle(snapshot.table_id)
    return snapshot.table_id


def user_at(snapshot: PublicSnapshot, seat: int) -> int:
    user_id = snapshot.seats[seat].user_id
    assert user_id is not None
    return user_id


async def click_any(service: TableService, table_id: int, rng: random.Random) -> str:
    """The first seat that may act clicks one of its legal actions (as shown in its view)."""
    public = service.public_snapshot(table_id)
    assert public.round_no is not None
    user_id = user_at(public, public.to_act[0])
    private = await service.play.private_view(table_id, user_id)
    notation = rng.choice(private.legal)
    await service.play.act(table_id, user_id, public.round_no, notation)
    await service.followup.settle(table_id)  # the bots' moves that follow the click
    return notation


async def peek_all(service: TableService, table_id: int) -> None:
    public = service.public_snapshot(table_id)
    assert public.round_no is not None
    for seat in public.to_act:
        await service.play.act(table_id, user_at(public, seat), public.round_no, "peek 3 4")
    await service.followup.settle(table_id)


async def end_round_quickly(service: TableService, table_id: int) -> None:
    """Peek, then the first player calls Dutch and the other skips every choice."""
    snapshot = service.public_snapshot(table_id)
    round_no = snapshot.round_no
    assert round_no is not None
    while service.public_snapshot(table_id).status == PLAYING:
        snapshot = service.public_snapshot(table_id)
        if not snapshot.to_act:
            return  # the round is over (its result may still be waiting to be stored)
        seat = snapshot.to_act[0]
        legal = (await service.play.private_view(table_id, user_at(snapshot, seat))).legal
        choice = next(a for a in ("peek 3 4", "dutch", "skip", "discard", "draw") if a in legal)
        await service.play.act(table_id, user_at(snapshot, seat), round_no, choice)
        await service.followup.settle(table_id)


class FailingStore:
    """The real store, except that the methods named in `failing` raise OSError (a full disk,
    a power cut), or `error` when set. Empty `failing` to bring the disk back."""

    def __init__(self, store: Store, *failing: str) -> None:
        self._store = store
        self.failing = set(failing)
        self.error: Exception | None = None

    def __getattr__(self, name: str) -> object:
        if name in self.failing:

            async def fail(*args: object, **kwargs: object) -> None:
                raise self.error or OSError(f"{name}: disk failure")

            return fail
        return getattr(self._store, name)


class StallingStore:
    """The real store, except that the next call of `method` (once `arm()`ed) waits, like a
    locked database, until the test lets it go: `entered` is set while it waits, and
    `release(fail=...)` ends the wait with an OSError or with the real write."""

    def __init__(self, store: Store, method: str) -> None:
        self._store = store
        self._method = method
        self._armed = False
        self.entered = asyncio.Event()
        self._released = asyncio.Event()
        self._fail = True

    def arm(self) -> None:
        self._armed = True
        self.entered.clear()
        self._released.clear()

    def release(self, *, fail: bool) -> None:
        self._fail = fail
        self._released.set()

    def __getattr__(self, name: str) -> object:
        real = getattr(self._store, name)
        if name != self._method or not self._armed:
            return real
        self._armed = False

        async def stall(*args: object, **kwargs: object) -> object:
            self.entered.set()
            await self._released.wait()
            if self._fail:
                raise OSError(f"{name}: database is locked")
            return await real(*args, **kwargs)

        return stall
