"""A real table service on a temporary store, the Activity's server in front of it, the local
Discord answering the sign-in, and pages (WebSockets) whose every frame the leak checker reads."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.activity.hub import ActivityHub, ActivityNotifier, CompositeNotifier, Page, encoded
from bot.activity.identity import DiscordIdentity
from bot.activity.server import create_app
from bot.activity.tables import ActivityTables, Move
from bot.local.records import LocalUser
from bot.local.server import LocalDiscord
from bot.service import FakeClock, PlayerRef, RecordingNotifier, TableService
from bot.snapshots import LOBBY
from storage import Store
from tests.bot.e2e.leak_checker import card_faces

GUILD = 1
CHANNEL = 10
WAIT = 10.0  # seconds a test waits for a frame before failing


def as_read(built: dict[str, Any] | None) -> Any:
    """A frame as its page reads it (its views are sent encoded already: `view_json`)."""
    return None if built is None else json.loads(encoded(built))


def all_read(frames: dict[Any, dict[str, Any] | None]) -> dict[Any, Any]:
    """`as_read` of each frame."""
    return {key: as_read(built) for key, built in frames.items()}


@dataclass
class FrameLeaks:
    """Reads every frame a page is sent against what its viewer may see: the public table
    (now or before), and for a seated player their own view (and the cards a rule shows them)
    as it was from their page's previous frame on. A non-seated viewer: the public only."""

    service: TableService
    public_seen: set[str] = field(default_factory=set)
    history: list[dict[int, frozenset[str]]] = field(default_factory=list)
    window: dict[int, int] = field(default_factory=dict)  # id(page) -> first observation
    # (table, user) -> the observation taken before the viewer's latest frame was built
    built_at: dict[tuple[int, int], int] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    checked: int = 0

    def before_building(self, table_id: int, user_id: int) -> None:
        self.observe()
        self.built_at[(table_id, user_id)] = len(self.history) - 1

    def observe(self) -> None:
        private: dict[int, frozenset[str]] = {}
        for table_id in self.service.table_ids():
            snapshot = self.service.public_snapshot(table_id)
            self.public_seen |= card_faces(snapshot)
            table = self.service._table(table_id)
            for seat, info in enumerate(snapshot.seats):
                if info.user_id is None or table.round is None or snapshot.status == LOBBY:
                    continue
                seen = card_faces(table.round.view(seat))
                seen |= card_faces(table.pending_reveals.get(seat, []))
                private[info.user_id] = private.get(info.user_id, frozenset()) | seen
        self.history.append(private)

    def check(self, page: Page, frame: dict[str, Any]) -> None:
        self.observe()
        self.checked += 1
        built = self.built_at.get((page.table_id, page.user_id), len(self.history) - 1)
        since = min(self.window.get(id(page), built), built)
        allowed = set(self.public_seen)
        for observation in self.history[since:]:
            allowed |= observation.get(page.user_id, frozenset())
        hidden = card_faces(json.loads(json.dumps(frame))) - allowed
        if hidden:
            self.leaks.append(f"user {page.user_id} at table {page.table_id}: {sorted(hidden)}")
        self.window[id(page)] = len(self.history) - 1

    def assert_clean(self) -> None:
        assert self.checked, "no frame was checked"
        assert not self.leaks, "card leaks:\n" + "\n".join(self.leaks)


class ObservedTables(ActivityTables):
    """The Activity's service adapter, observing what may be seen before each frame is built."""

    def __init__(self, service: TableService, leaks: FrameLeaks) -> None:
        super().__init__(service)
        self.leaks = leaks

    async def opening_frame(
        self, table_id: int, user_id: int, language: str = "en"
    ) -> dict[str, Any]:
        self.leaks.before_building(table_id, user_id)
        return await super().opening_frame(table_id, user_id, language)

    async def current_frame(
        self, table_id: int, user_id: int, language: str = "en"
    ) -> dict[str, Any]:
        self.leaks.before_building(table_id, user_id)
        return await super().current_frame(table_id, user_id, language)

    def frames_now(
        self, table_id: int, viewers: Iterable[tuple[int, str]]
    ) -> dict[tuple[int, str], dict[str, Any] | None]:
        viewers = list(viewers)
        for user_id, _language in viewers:
            self.leaks.before_building(table_id, user_id)
        return super().frames_now(table_id, viewers)

    async def act(
        self, table_id: int, user_id: int, move: Move, language: str = "en"
    ) -> dict[str, Any]:
        self.leaks.before_building(table_id, user_id)
        return await super().act(table_id, user_id, move, language)


class Ticker:
    """The period between two checks of the open pages' instances, ticked by the test: no
    wait on the clock."""

    def __init__(self) -> None:
        self._waiting = asyncio.Event()  # the check waits for its next period
        self._ticked = asyncio.Event()

    async def wait(self) -> None:
        self._waiting.set()
        await self._ticked.wait()
        self._ticked.clear()

    async def tick(self) -> None:
        """One period passes: returns once every open page was checked."""
        await asyncio.wait_for(self._waiting.wait(), WAIT)
        self._waiting.clear()
        self._ticked.set()
        await asyncio.wait_for(self._waiting.wait(), WAIT)


class PageClient:
    """One open page: every message it was sent, in order, read in the background."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.messages: list[dict[str, Any]] = []
        self._arrived = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                async with self._arrived:
                    self.messages.append(json.loads(message.data))
                    self._arrived.notify_all()
        async with self._arrived:
            self._arrived.notify_all()

    @property
    def frames(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "table"]

    @property
    def latest(self) -> dict[str, Any]:
        return self.frames[-1]

    async def wait(self, done: Callable[[PageClient], bool]) -> None:
        async def until() -> None:
            async with self._arrived:
                await self._arrived.wait_for(lambda: done(self))

        await asyncio.wait_for(until(), WAIT)

    async def until_version(self, version: int) -> dict[str, Any]:
        await self.wait(lambda p: bool(p.frames) and p.latest["table"]["version"] >= version)
        return self.latest

    async def answer(self, before: int) -> list[dict[str, Any]]:
        """The messages after the first `before`, once there is one."""
        await self.wait(lambda p: len(p.messages) > before)
        return self.messages[before:]

    async def refusal(self, after: int) -> dict[str, Any]:
        """The first refusal among the messages after the first `after`."""
        await self.wait(lambda p: any(m["type"] == "refused" for m in p.messages[after:]))
        return next(m for m in self.messages[after:] if m["type"] == "refused")

    async def send(self, act: str, frame: dict[str, Any] | None = None) -> int:
        """Send a move drawn from `frame` (default: the latest); how many messages came before."""
        table = (frame or self.latest)["table"]
        before = len(self.messages)
        await self.socket.send_json(
            {"act": act, "round": table["round"], "version": table["version"]}
        )
        return before

    async def ended(self) -> int | None:
        """Once the server closed the page: its close code."""
        await asyncio.wait_for(asyncio.shield(self._reader), WAIT)
        return self.socket.close_code

    async def close(self) -> None:
        await self.socket.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


@dataclass
class ActivityRig:
    """The service, its Activity server and the local Discord's users."""

    service: TableService
    clock: FakeClock
    recorded: RecordingNotifier
    hub: ActivityHub
    fake: LocalDiscord
    client: TestClient[Any, Any]
    leaks: FrameLeaks
    ticker: Ticker
    pages: list[PageClient] = field(default_factory=list)

    def player(self, name: str) -> PlayerRef:
        user = self.fake.user(name)
        return PlayerRef(user.id, name.title())

    async def sign_in(self, user: LocalUser) -> str:
        """What the page does inside Discord: authorize (a code), then the server's token."""
        code = self.fake.oauth.authorize(user)
        answer = await self.client.post("/api/token", json={"code": code})
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["access_token"])

    def launch(self, name: str, channel_id: int = CHANNEL) -> str:
        """The user launches the Activity in the channel (Discord's instance there, joined)."""
        return self.fake.activities.launch(self.fake.user(name), channel_id).instance_id

    def leave(self, name: str, channel_id: int = CHANNEL) -> None:
        """The user closes the Activity in the channel (the last one out ends its instance)."""
        assert self.fake.activities.leave(self.fake.user(name), channel_id) is not None

    async def open_page(
        self,
        name: str,
        table_id: int | None,
        *,
        instance: str | None = None,
        channel_id: int = CHANNEL,
    ) -> PageClient:
        """The user's page, in the instance given (default: the one they launch in the
        channel), showing the table given (None: the one the server chooses)."""
        token = await self.sign_in(self.fake.user(name))
        instance_id = instance if instance is not None else self.launch(name, channel_id)
        table = f"&table={table_id}" if table_id is not None else ""
        socket = await self.client.ws_connect(
            f"/ws?instance={instance_id}&channel={channel_id}{table}&token={token}"
        )
        page = PageClient(socket)
        self.pages.append(page)
        await page.wait(lambda p: bool(p.messages))
        return page

    async def current(self, table_id: int) -> int:
        """Every open page of the table shows the table as stored now; its version."""
        await self.service.followup.settle(table_id)
        version = self.service.public_snapshot(table_id).version
        for page in self.pages:
            if not page.socket.closed and page.frames and page.latest["table"]["table"] == table_id:
                await page.until_version(version)
        return version


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[ActivityRig]:
    fake = LocalDiscord(user_names=("alice", "bob", "carol", "dave", "erin"))
    await fake.start()
    store = await Store.open(tmp_path / "tables.sqlite3", synchronous="NORMAL")
    clock = FakeClock()
    recorded = RecordingNotifier()
    seeds: Iterator[int] = count(11)
    notifier = CompositeNotifier([recorded])
    service = TableService(store, clock, notifier, lambda: next(seeds))
    leaks = FrameLeaks(service)
    hub = ActivityHub(ObservedTables(service, leaks))
    hub.listeners.append(leaks.check)
    notifier.notifiers.append(ActivityNotifier(hub))
    identity = DiscordIdentity(
        fake.base_url,
        str(fake.application_id),
        fake.oauth.client_secret,
        bot_token=lambda: fake.bot_token,
    )
    ticker = Ticker()
    app = create_app(hub, identity, period=ticker.wait)
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    built = ActivityRig(service, clock, recorded, hub, fake, client, leaks, ticker)
    try:
        yield built
    finally:
        for page in built.pages:
            await page.close()
        await client.close()
        await service.close()
        await hub.close_all()
        await store.close()
        await fake.stop()
