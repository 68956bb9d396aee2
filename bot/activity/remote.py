"""The Activity's own process: its web server and pages, on tables the bot sends it.

The bot starts it (`bot.activity.process`) with one end of a socket pair, and keeps the
tables: at every stored change of a table with open pages here it sends the public snapshot
and the seated viewers' own, from which this process builds and sends the pages' frames; the
rest (a page's opening, a move, which table a channel shows) it asks the bot, whose service
checks and stores as for a click. So a page costs the bot's thread a snapshot and a pickle
per change, not the frame, the words and the socket of each page.

Run as `python -m bot.activity.remote <fd>`; the first message on the pair is its settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any

from bot import logs
from bot.activity.bridge import Message, ProcessSettings, receive, send
from bot.activity.changes import Trimmed, restored
from bot.activity.identity import DiscordIdentity
from bot.activity.running import ActivityServer
from bot.activity.tables import Move, Seen, viewer_frames
from bot.i18n import DEFAULT_LANGUAGE
from bot.runtime.long_lived import LongLived
from bot.service.errors import TableError
from bot.snapshots import PrivateSnapshot, PublicSnapshot

log = logging.getLogger(__name__)

Latest = tuple[PublicSnapshot | None, dict[int, PrivateSnapshot[Any] | None]]


class RemoteTables:
    """The bot's tables as this process's pages need them (`PageTables`): the last snapshots
    the bot sent of each table with open pages, and the questions asked over the bridge."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.latest: dict[int, Latest] = {}  # table id -> its snapshots at its last change
        self._pages: Counter[int] = Counter()  # table id -> pages open here
        self._calls: dict[int, asyncio.Future[tuple[bool, Any]]] = {}
        self._ids = itertools.count(1)

    def page_opened(self, table_id: int, user_id: int) -> None:
        self._pages[table_id] += 1
        send(self.writer, ("open", table_id, user_id))

    def page_closed(self, table_id: int, user_id: int) -> None:
        self._pages[table_id] -= 1
        if self._pages[table_id] <= 0:
            del self._pages[table_id]
            self.latest.pop(table_id, None)  # its snapshots are not needed any more
        send(self.writer, ("close", table_id, user_id))

    def changed(
        self,
        table_id: int,
        sent: Trimmed | None,
        privates: dict[int, PrivateSnapshot[Any] | None],
    ) -> None:
        """The bot's snapshots of a table at a change, the public one made whole from the one
        before (`bot.activity.changes`: the log's entries kept and the fields left out are the
        same objects as before, so their words are found again rather than made anew)."""
        if table_id not in self._pages:
            return
        public = None
        if sent is not None:
            before = self.latest.get(table_id, (None, {}))[0]
            public = restored(before, sent)  # None: sent before this process had the table
        self.latest[table_id] = (public, privates)

    async def _ask(self, question: str, *args: Any) -> Any:
        call_id = next(self._ids)
        answer: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = answer
        try:
            send(self.writer, ("call", call_id, question, args))
            ok, value = await answer
        finally:
            self._calls.pop(call_id, None)
        if not ok:
            key, params = value
            raise TableError(key, **params)
        return value

    def answered(self, call_id: int, ok: bool, value: Any) -> None:
        answer = self._calls.get(call_id)
        if answer is not None and not answer.done():
            answer.set_result((ok, value))

    def bot_gone(self) -> None:
        """The bot closed the bridge: every question waiting fails (its page closes)."""
        for answer in self._calls.values():
            if not answer.done():
                answer.set_exception(ConnectionError("the bot is gone"))

    async def at_channel(self, table_id: int, channel_id: int) -> bool:
        return bool(await self._ask("at_channel", table_id, channel_id))

    async def table_in_channel(self, channel_id: int, user_id: int) -> int | None:
        found = await self._ask("table_in_channel", channel_id, user_id)
        return None if found is None else int(found)

    async def _frame(self, language: str, question: str, *args: Any) -> dict[str, Any]:
        """The frame of what the bot answers the viewer sees (`Seen`), built here."""
        seen: Seen = await self._ask(question, *args)
        return seen.frame(language)

    async def opening_frame(
        self, table_id: int, user_id: int, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        return await self._frame(language, "opening", table_id, user_id)

    async def current_frame(
        self, table_id: int, user_id: int, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        return await self._frame(language, "current", table_id, user_id)

    def frames_now(
        self, table_id: int, viewers: Iterable[tuple[int, str]]
    ) -> dict[tuple[int, str], dict[str, Any] | None]:
        public, privates = self.latest.get(table_id, (None, {}))  # none sent: pages ask the bot
        return viewer_frames(public, viewers, privates.get)

    async def act(
        self, table_id: int, user_id: int, move: Move, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        return await self._frame(language, "act", table_id, user_id, move)


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Serve the pages until the bot says stop or goes away."""
    first = await receive(reader)
    if first is None or first[0] != "config" or not isinstance(first[1], ProcessSettings):
        raise SystemExit("the Activity's process got no settings")
    settings: ProcessSettings = first[1]
    logs.configure(settings.log_level, settings.log_format)
    identity = DiscordIdentity(
        settings.api_url,
        settings.client_id,
        settings.client_secret,
        bot_token=lambda: settings.bot_token,
    )
    tables = RemoteTables(writer)
    server = ActivityServer(tables, identity)
    try:
        await server.start(settings.host, settings.port)
    except OSError as error:
        send(writer, ("failed", str(error)))
        await writer.drain()
        return
    send(writer, ("listening",))
    changed = Changed(server)
    # what the pages keep (the tables' last snapshots and logs, their words) out of the
    # cycle collector's way, as the bot keeps its tables: its full collections took a third
    # of this process's time with a thousand pages open
    long_lived = LongLived()
    long_lived.freeze()
    try:
        while (message := await receive(reader)) is not None:
            if not _handle(message, tables, server, changed, long_lived):
                break
    finally:
        tables.bot_gone()
        await server.close()


class Changed:
    """The tables changed since the messages read last, pushed once those are all read: when
    this process is behind, a table that changed several times meanwhile gets one frame of
    its last version, not one per change (its pages catch up instead of falling further
    behind)."""

    def __init__(self, server: ActivityServer) -> None:
        self.server = server
        self.tables: dict[int, None] = {}  # in the order they changed
        self._due = False

    def add(self, table_id: int) -> None:
        self.tables[table_id] = None
        if not self._due:
            # runs once the reader waits: the messages already received are all read by then
            asyncio.get_running_loop().call_soon(self._push)
            self._due = True

    def _push(self) -> None:
        self._due = False
        tables, self.tables = self.tables, {}
        for table_id in tables:
            self.server.hub.changed(table_id)


def _handle(
    message: Message,
    tables: RemoteTables,
    server: ActivityServer,
    changed: Changed,
    long_lived: LongLived,
) -> bool:
    """Act on one message of the bot; False once it says stop."""
    kind = message[0]
    if kind == "changes":  # each ("changed", table id, its public snapshot trimmed, privates)
        for _changed, table_id, sent, privates in message[1]:
            tables.changed(table_id, sent, privates)
            changed.add(table_id)
            long_lived.moved()  # a table's snapshots replaced: frozen with the next ones
    elif kind == "reply":
        _kind, call_id, ok, value = message
        tables.answered(call_id, ok, value)
    elif kind == "launched":
        _kind, channel_id, user_id, table_id = message
        server.launched(channel_id, user_id, table_id)
    elif kind == "stop":
        return False
    else:
        log.warning("the bot sent an unknown message: %s", kind)
    return True


async def main(fd: int) -> None:
    bridge = socket.socket(fileno=fd)
    reader, writer = await asyncio.open_connection(sock=bridge)
    try:
        await serve(reader, writer)
    finally:
        with contextlib.suppress(ConnectionError):
            writer.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
