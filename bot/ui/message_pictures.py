"""Card pictures on messages.

They are a player's hand on "My cards" and the cards in play on the table message
(`RenderedMessage.cards`).

A picture is drawn with Pillow in a process of its own (`bot/ui/drawing.py`), never on the
event loop nor in a thread of the bot's process, whose share of the interpreter's lock made
every click wait (docs/performance.md). It is kept by its file name (which names its content)
in a bounded cache, and only a changed picture is uploaded. No message waits for its picture
longer than `DRAW_SECONDS` from asking: then it goes with its text alone, and the picture,
drawn on (given up at `GIVE_UP_SECONDS`), follows once drawn.

A click's answer never waits for a drawing: it goes out with the picture when it is drawn
already, else without it, and the picture follows in a second edit once drawn (`answer` then
`follow_up`), drawn before the pictures of table messages and followed hands. The table
message and the messages that follow the game wait for the drawing (`complete`), off the
click's path, and one edit carries text and picture together; a picture late for it follows
as an answer's does (a followed hand's, `follow_up`), or is shown by the table message's next
edit, asked for once it is drawn (`when_drawn`: its edits keep the channel's pace).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any, TypedDict, TypeVar

import discord

from bot.pictures.layout import CardPicture, rows_png
from bot.render.table import RenderedMessage
from bot.ui.drawing import DRAW_SECONDS, GIVE_UP_SECONDS, CannotStart, DrawingProcesses

log = logging.getLogger(__name__)
T = TypeVar("T")

DRAWN = 512  # pictures kept drawn (a few tens of KiB each)
DRAWERS = 2  # pictures drawn at once: under load, pictures wait, never the event loop
NICENESS = 10  # the drawing processes' and threads' scheduling priority: below the bot's
CARRIED = 20_000  # messages whose picture is remembered (one per table and per open hand)


class EditFiles(TypedDict, total=False):
    """The files argument of a message edit; left out, the message keeps the files it has."""

    attachments: list[discord.File]


@dataclass(frozen=True, slots=True)
class Prepared:
    """What one edit of a message sends: the embed, and the files (None: keep those it has)."""

    embed: discord.Embed
    attachments: list[discord.File] | None
    waiting: CardPicture | None = None  # drawn after the answer, then edited in

    def edit_files(self) -> EditFiles:
        """`attachments=` for the edit that sends these files, or nothing to keep the old ones."""
        return {} if self.attachments is None else {"attachments": self.attachments}


class CardPictures:
    def __init__(
        self,
        draw: Callable[[CardPicture], Awaitable[bytes]] | None = None,
        *,
        enabled: bool = True,
    ) -> None:
        self.enabled = enabled  # off: messages carry no card picture (cards as text)
        self._draw = draw or _in_process
        self._drawn: OrderedDict[str, bytes] = OrderedDict()
        self._drawing: dict[str, asyncio.Task[bytes | None]] = {}  # under way, by file
        self._drawers = _Drawers(DRAWERS)
        self._carried: OrderedDict[int, str] = OrderedDict()  # message -> its picture's file
        self._waiting: dict[int, RenderedMessage] = {}  # message -> an answer awaiting its picture
        self.draws = 0  # pictures drawn (each drawn once while cached)
        self.uploads = 0  # pictures sent to Discord
        self.kept = 0  # edits that kept the picture the message had
        self.late = 0  # pictures given up at their deadline
        self.deadline = DRAW_SECONDS  # asked -> drawn, at most: a message waits no longer

    # -- drawing ---------------------------------------------------------------------------
    def drawn(self, picture: CardPicture) -> bytes | None:
        png = self._drawn.get(picture.filename)
        if png is not None:
            self._drawn.move_to_end(picture.filename)
        return png

    async def draw(
        self, picture: CardPicture, *, urgent: bool = False, patient: bool = False
    ) -> bytes | None:
        """The picture's PNG, drawn off the event loop once; None if it could not be drawn,
        or is not drawn within `deadline` of asking (it is drawn on, up to `GIVE_UP_SECONDS`:
        `when_drawn`) unless `patient`. `urgent` ones (a click's answer's) are drawn before
        the others waiting."""
        png = self.drawn(picture)
        if png is not None:
            return png
        name = picture.filename
        drawing = self._drawing.get(name)
        if drawing is None:
            drawing = asyncio.get_running_loop().create_task(self._drawn_anew(picture, urgent))
            self._drawing[name] = drawing
        if patient:
            return await asyncio.shield(drawing)
        try:
            return await asyncio.wait_for(asyncio.shield(drawing), self.deadline)
        except TimeoutError:  # a slow or hung drawing process: the message goes without it
            self.late += 1
            log.warning("card picture %s not drawn within %ss", name, self.deadline)
            return None

    async def _drawn_anew(self, picture: CardPicture, urgent: bool) -> bytes | None:
        name = picture.filename
        try:
            async with asyncio.timeout(GIVE_UP_SECONDS):  # its turn and its drawing together
                await self._drawers.acquire(urgent)
                try:
                    png = await self._draw(picture)
                finally:
                    self._drawers.release()
            self.draws += 1
            self._drawn[name] = png
            while len(self._drawn) > DRAWN:
                self._drawn.popitem(last=False)
            return png
        except TimeoutError:
            log.warning("card picture %s given up: not drawn within %ss", name, GIVE_UP_SECONDS)
            return None
        except BrokenProcessPool:  # its process died or hung: replaced, the picture lost
            log.warning("card picture %s lost with its drawing process", name)
            return None
        except Exception:  # a picture is a bonus: the message goes out without it
            log.exception("could not draw the card picture %s", name)
            return None
        finally:
            del self._drawing[name]

    def when_drawn(self, picture: CardPicture, then: Callable[[], object]) -> None:
        """Call `then()` once the picture is drawn: soon if it is drawn already (meanwhile),
        never if it is given up."""
        drawing = self._drawing.get(picture.filename)
        if drawing is None:
            if self.drawn(picture) is not None:
                asyncio.get_running_loop().call_soon(then)
            return

        def done(task: asyncio.Task[bytes | None]) -> None:
            if not task.cancelled() and task.result() is not None:
                then()

        drawing.add_done_callback(done)

    # -- what an edit sends ----------------------------------------------------------------
    def answer(self, key: int | None, rendered: RenderedMessage) -> Prepared:
        """A click's answer: the picture if the message has it or it is drawn, else none yet
        (`waiting`: draw it, then `follow_up`)."""
        picture = rendered.cards
        if not self.enabled:
            return Prepared(_without_image(rendered.embed) if picture else rendered.embed, None)
        if key is not None:
            self._waiting.pop(key, None)  # a picture still to follow is out of date now
        if picture is None:
            return Prepared(rendered.embed, self._drop(key))
        if self._carries(key, picture):
            self.kept += 1
            return Prepared(rendered.embed, None)
        png = self.drawn(picture)
        if png is not None:
            self._carry(key, picture)
            return Prepared(rendered.embed, [_file(picture, png)])
        if key is not None:
            self._waiting[key] = rendered
        return Prepared(_without_image(rendered.embed), self._drop(key), waiting=picture)

    async def complete(self, key: int | None, rendered: RenderedMessage) -> Prepared:
        """An edit off the click's path: waits for the picture, so one edit carries it. Not
        drawn by its deadline, the text goes alone and `waiting` names the picture, still
        being drawn: the caller has it follow (`follow_up`, or `when_drawn`)."""
        picture = rendered.cards
        if (
            self.enabled
            and picture is not None
            and not self._carries(key, picture)  # kept as it is: no drawing needed
            and self.drawn(picture) is None
        ):
            await self.draw(picture)
        prepared = self.answer(key, rendered)
        if prepared.waiting is not None and prepared.waiting.filename not in self._drawing:
            return replace(prepared, waiting=None)  # it could not be drawn: the text alone
        return prepared

    async def follow_up(
        self,
        key: int,
        picture: CardPicture,
        edit: Callable[[RenderedMessage, list[discord.File]], Awaitable[Any]],
    ) -> None:
        """Once drawn, the picture an answer (or an edit given it late) went out without, if
        the message still shows what that answer showed (a newer answer brings its own)."""
        if self._superseded(key, picture):
            return  # a newer answer replaced it before its turn to be drawn came
        png = await self.draw(picture, urgent=True, patient=True)
        if self._superseded(key, picture):
            return
        latest = self._waiting.pop(key)
        if png is None:
            return  # not drawn: the message stays as it went out
        self._carry(key, picture)
        try:
            await edit(latest, [_file(picture, png)])
        except discord.HTTPException as error:
            log.info("could not add the card picture to message %s: %s", key, error)
            self._carried.pop(key, None)

    def _carries(self, key: int | None, picture: CardPicture) -> bool:
        """Does message `key` carry this picture already (an edit keeps it, sends no file)?"""
        return key is not None and self._carried.get(key) == picture.filename

    def _superseded(self, key: int, picture: CardPicture) -> bool:
        latest = self._waiting.get(key)  # the same file name: the same picture, quicker told
        return latest is None or latest.cards is None or latest.cards.filename != picture.filename

    def posted(self, key: int, rendered: RenderedMessage, prepared: Prepared) -> None:
        """A new message `key` went out as `prepared` (from `answer(None, rendered)`)."""
        picture = rendered.cards
        if prepared.waiting is not None:
            self._waiting[key] = rendered
        self.carried(key, picture.filename if picture and prepared.attachments else None)

    def carried(self, key: int, filename: str | None) -> None:
        """The message `key` was posted carrying this file (None: no picture)."""
        if filename is None:
            self._carried.pop(key, None)
        else:
            self._carried[key] = filename
            self._carried.move_to_end(key)

    def forget(self, key: int) -> None:
        self._carried.pop(key, None)
        self._waiting.pop(key, None)

    def _carry(self, key: int | None, picture: CardPicture) -> None:
        self.uploads += 1
        if key is not None:
            self.carried(key, picture.filename)
            while len(self._carried) > CARRIED:
                self._carried.popitem(last=False)

    def _drop(self, key: int | None) -> list[discord.File] | None:
        """No picture now: an old one the message carries is removed ([]), else nothing."""
        if key is not None and self._carried.pop(key, None) is not None:
            return []
        return None


class _Drawers:
    """`DRAWERS` pictures drawn at once; the urgent ones waiting go first, each kind in the
    order asked."""

    def __init__(self, size: int) -> None:
        self._free = size
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()

    async def acquire(self, urgent: bool) -> None:
        if self._free > 0 and not self._urgent and not self._others:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self._urgent if urgent else self._others
        line.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn in line:
                line.remove(turn)
            elif not turn.cancelled():  # handed the place just as it was cancelled
                self.release()
            raise

    def release(self) -> None:
        for line in (self._urgent, self._others):
            while line:
                turn = line.popleft()
                if not turn.done():
                    turn.set_result(None)  # the place passes on, still taken
                    return
        self._free += 1


def _without_image(embed: discord.Embed) -> discord.Embed:
    shown = embed.copy()
    shown.set_image(url=None)
    return shown


def _file(picture: CardPicture, png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), picture.filename)


def _lower_priority() -> None:
    """A drawing thread yields the CPU to the event loop's (Linux: each thread has its own
    niceness); elsewhere it keeps the process's priority."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


# Threads of their own: drawing never queues behind (nor ahead of) other work sent to threads.
DRAWING = ThreadPoolExecutor(DRAWERS, "card-pictures", initializer=_lower_priority)


async def drawn_in_thread(draw: Callable[[], bytes]) -> bytes:
    """`draw()` run in a drawing thread (below the event loop's priority, apart from the
    threads other work is sent to): any picture, the round's end included."""
    return await asyncio.get_running_loop().run_in_executor(DRAWING, draw)


_processes: DrawingProcesses | None = None


def drawing_processes() -> DrawingProcesses:
    """The drawing processes of the running event loop (`bot/ui/drawing.py`: forked from the
    bot workers' server when first needed, so a start costs milliseconds; one that died is
    replaced at the next drawing); those of a loop gone by (a test's) are stopped."""
    global _processes
    loop = asyncio.get_running_loop()
    if _processes is None or _processes.loop is not loop:
        if _processes is not None:
            _processes.close()
        _processes = DrawingProcesses(DRAWERS, NICENESS)
    return _processes


async def in_drawing_process(draw: Callable[..., T], *args: Any) -> T:
    """`draw(*args)` (a module's function, its arguments plain data) in a drawing process;
    where processes cannot be started, in a drawing thread."""
    try:
        return await drawing_processes().run(draw, *args)
    except CannotStart as error:
        log.warning("card pictures drawn in threads: no drawing process (%s)", error)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(DRAWING, functools.partial(draw, *args))


async def _in_process(picture: CardPicture) -> bytes:
    return await in_drawing_process(rows_png, picture.rows, picture.deck)
