"""The Activity's server in a process of its own, and the bot's side of its bridge.

With a page open at each of a thousand busy tables, building the pages' frames (their words,
the views walked into JSON) and writing them to their sockets took more of the bot's one
thread than the tables themselves, and the clicks on the table messages waited behind it. So
the pages live in another process (`bot.activity.remote`): at a stored change of a table with
open pages, the bot sends it the public snapshot and the seated viewers' own, as taken for the
messages; the process builds the frames. Its questions (a page's opening, a move, which table a
channel shows) are answered here by the service, with every check a click has.

The process is restarted if it dies; its pages reconnect by themselves and catch up.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import socket
import sys
from collections import Counter
from typing import Any

from bot.activity.bridge import Message, ProcessSettings, receive, send
from bot.activity.changes import trimmed
from bot.activity.hub import ChangesNotifier
from bot.activity.tables import ActivityTables
from bot.service.errors import TableError
from bot.snapshots import PublicSnapshot

log = logging.getLogger(__name__)

START_SECONDS = 60.0  # how long the process may take to import and listen
STOP_SECONDS = 5.0  # how long the process may take to close its pages when asked to stop
RESTART_SECONDS = (1.0, 30.0)  # the wait before restarting a dead process: first, longest
# how long a change waits for others to go with it: one pickle and one write for all (a write
# per change, waking the process each time, was a quarter of what a page cost the bot)
BATCH_SECONDS = 0.005


class ActivityProcess:
    """Starts the Activity's process, feeds it the tables' changes and answers its questions;
    offers what `ActivityServer` does to the rest of the bot (`launched`, `notifier`)."""

    def __init__(self, tables: ActivityTables, settings: ProcessSettings) -> None:
        self.tables = tables
        self.settings = settings  # the process's, but where it listens (given to `start`)
        self.notifier = ChangesNotifier(self.changed)
        self.viewers: dict[int, Counter[int]] = {}  # table id -> user id -> their open pages
        self.changes_sent = 0  # changes sent to the process (the bench reads it)
        # table id -> its public snapshot last sent: the next change sends what differs from it
        self._sent: dict[int, PublicSnapshot] = {}
        self._batch: list[Message] = []  # the changes not sent yet, in order
        self._batch_due: asyncio.TimerHandle | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._running: asyncio.Task[None] | None = None
        self._answers: set[asyncio.Task[None]] = set()
        self._closing = False
        self.listening = asyncio.Event()  # set while the process serves pages (tests wait on it)

    def launched(self, channel_id: int, user_id: int, table_id: int) -> None:
        """The user launched the Activity in this channel for this table: their page opens it."""
        self._send(("launched", channel_id, user_id, table_id))

    def changed(self, table_id: int) -> None:
        """A stored change: the table's snapshots to the process, if a page there shows it."""
        viewers = self.viewers.get(table_id)
        if not viewers:
            return
        try:
            public, privates = self.tables.seen_now(table_id, viewers)
        except TableError:
            public, privates = None, {}  # the table is gone: its pages ask, and are told
        sent = None
        if public is not None:
            sent = trimmed(self._sent.get(table_id), public)
            self._sent[table_id] = public
        self._batch.append(("changed", table_id, sent, privates))
        self.changes_sent += 1
        if self._batch_due is None:
            self._batch_due = asyncio.get_running_loop().call_later(BATCH_SECONDS, self.flush)

    def flush(self) -> None:
        """Send the changes waiting for their batch, now."""
        if self._batch_due is not None:
            self._batch_due.cancel()
            self._batch_due = None
        if self._batch:
            batch, self._batch = self._batch, []
            self._write(("changes", batch))

    def _send(self, message: Message) -> None:
        self.flush()  # the changes before it go first: the process reads them in order
        self._write(message)

    def _write(self, message: Message) -> None:
        if self._writer is not None and not self._writer.is_closing():
            send(self._writer, message)

    async def start(self, host: str, port: int) -> None:
        """Start the process; raises OSError if it cannot listen on the port (or start)."""
        reader = await self._spawn(host, port)
        self._running = asyncio.create_task(self._run(reader, host, port))

    async def _spawn(self, host: str, port: int) -> asyncio.StreamReader:
        ours, theirs = socket.socketpair()
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.activity.remote",
                str(theirs.fileno()),
                pass_fds=(theirs.fileno(),),
                start_new_session=True,  # a Ctrl-C at the terminal stops the bot, which stops it
            )
        finally:
            theirs.close()
        reader, writer = await asyncio.open_connection(sock=ours)
        self._writer = writer
        send(writer, ("config", dataclasses.replace(self.settings, host=host, port=port)))
        try:
            first = await asyncio.wait_for(receive(reader), START_SECONDS)
        except TimeoutError:
            first = None  # stuck starting: stopped below (killed once its wait is over)
        if first is None or first[0] != "listening":
            await self._stopped()
            why = first[1] if first is not None and first[0] == "failed" else "it stopped"
            raise OSError(why)
        log.info("the Activity's process %s listens on http://%s:%s", self.pid, host, port)
        self.listening.set()
        return reader

    @property
    def pid(self) -> int | None:
        """The process's id while it runs."""
        return self._process.pid if self._process is not None else None

    async def _run(self, reader: asyncio.StreamReader, host: str, port: int) -> None:
        """Serve the process; restart it when it dies, until the bot closes."""
        wait = RESTART_SECONDS[0]
        while True:
            try:
                await self._serve(reader)
            except ConnectionError as error:
                log.warning("the Activity's bridge broke: %s", error)
            if self._closing:
                return
            log.warning("the Activity's process stopped: starting it again in %.0f s", wait)
            await self._stopped()
            await asyncio.sleep(wait)
            try:
                reader = await self._spawn(host, port)
                wait = RESTART_SECONDS[0]
            except OSError as error:
                log.warning("the Activity's process could not start again: %s", error)
                wait = min(wait * 2, RESTART_SECONDS[1])
                reader = asyncio.StreamReader()
                reader.feed_eof()  # nothing to serve: straight to the next try

    async def _serve(self, reader: asyncio.StreamReader) -> None:
        while (message := await receive(reader)) is not None:
            kind = message[0]
            if kind == "open":
                _kind, table_id, user_id = message
                self.viewers.setdefault(table_id, Counter())[user_id] += 1
            elif kind == "close":
                _kind, table_id, user_id = message
                self._page_closed(table_id, user_id)
            elif kind == "call":
                _kind, call_id, question, args = message
                task = asyncio.create_task(self._answer(call_id, question, args))
                self._answers.add(task)
                task.add_done_callback(self._answers.discard)
            else:
                log.warning("the Activity's process sent an unknown message: %s", kind)

    def _page_closed(self, table_id: int, user_id: int) -> None:
        viewers = self.viewers.get(table_id)
        if viewers is None:
            return
        viewers[user_id] -= 1
        if viewers[user_id] <= 0:
            del viewers[user_id]
        if not viewers:
            del self.viewers[table_id]
            self._sent.pop(table_id, None)  # the process forgets the table likewise

    async def _answer(self, call_id: int, question: str, args: tuple[Any, ...]) -> None:
        """One question of a page, answered by the service (as a click is), or refused."""
        try:
            self._send(("reply", call_id, True, await self._ask(question, args)))
        except TableError as error:
            self._send(("reply", call_id, False, (error.key, error.params)))
        except Exception:
            log.exception("an Activity page's %s failed", question)
            self._send(("reply", call_id, False, ("unknown", {})))

    async def _ask(self, question: str, args: tuple[Any, ...]) -> Any:
        tables = self.tables
        if question == "at_channel":
            return await tables.at_channel(*args)
        if question == "table_in_channel":
            return await tables.table_in_channel(*args)
        if question == "opening":
            return await tables.opening_seen(*args)
        if question == "current":
            return await tables.current_seen(*args)
        if question == "act":
            return await tables.act_seen(*args)
        raise TableError("bad_button")  # not a question of this bridge

    async def _stopped(self) -> None:
        """The process and its bridge gone: forget its pages, reap it."""
        self.listening.clear()
        self.viewers.clear()
        self._sent.clear()
        self._batch.clear()  # the next process asks for its tables afresh
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()

    async def close(self) -> None:
        """Ask the process to close its pages and stop; wait for it."""
        self._closing = True
        self._send(("stop",))
        if self._running is not None:
            self._running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._running
            self._running = None
        for task in list(self._answers):
            task.cancel()
        await self._stopped()
