"""The drawing processes, driven from the event loop.

Each is a child process with one socket, read and written without blocking, as the bot workers
are (`bot.runtime.worker`).

`concurrent.futures.ProcessPoolExecutor`, which drew before, hands every drawing over through
two threads of the bot's process (a manager and a queue feeder) and wakes the manager through a
pipe under a lock: three threads taking the interpreter's lock in turn for every picture, the
event loop's thread waiting for them each time it submitted one (a measured share of the event
loop at 1,000 tables of bots: docs/performance.md). Here the event loop writes the job to the
socket and reads the answer when it is readable: no thread of the bot's process takes part.
The processes are forked from the bot workers' fork server, run below the bot's priority, and
exit once the bot is gone (or its end of their socket closes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import socket
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.runtime.outbox import Outbox
from bot.runtime.pool import HANG_SECONDS
from bot.runtime.priority import foreground

log = logging.getLogger(__name__)

HEADER = 4  # bytes of a frame's length
MAX_ANSWER = 256 * 1024 * 1024  # an answer announcing more is garbage (a picture is < 1 MiB)
# an answer's first byte: bytes (a picture, sent as they are), another result (pickled), the
# drawing's error (pickled), or an error that does not pickle (its text)
BYTES, DONE, FAILED, UNPICKLABLE = b"\x03", b"\x00", b"\x01", b"\x02"
DRAW_SECONDS = 5.0  # asked -> drawn, at most, for a message to wait: then it goes without it
# and the picture follows once drawn (a drawing takes milliseconds, a first one a process's
# start too: seconds on a loaded machine, where the processes run below the bot's priority)
GIVE_UP_SECONDS = 60.0  # asked -> drawn, at most: a picture not drawn by then is given up


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(HEADER, "big") + payload


# -- in a drawing process -------------------------------------------------------------------


def answer_to(job: bytes) -> bytes:
    """What a drawing process answers to one job: its result, or its error."""
    try:
        draw, args = pickle.loads(job)
        result = draw(*args)
        if type(result) is bytes:
            return BYTES + result
        return DONE + pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
    except Exception as error:
        try:
            return FAILED + pickle.dumps(error, pickle.HIGHEST_PROTOCOL)
        except Exception:
            return UNPICKLABLE + f"{type(error).__name__}: {error}".encode(errors="replace")


def serve(channel: socket.socket, bot: int, niceness: int) -> None:
    """A drawing process's life: below the bot's priority, gone with it, one job at a time
    until the bot closes its end of the socket."""
    from bot.runtime.worker import exit_with, read_frame, write_frame

    # Ctrl-C reaches the whole process group: the bot stops its drawing processes itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(niceness)
    exit_with(bot)
    while True:
        try:
            job = read_frame(channel)
            if job is None:
                return  # the bot closed its end: it is stopping
            write_frame(channel, answer_to(job))
        except OSError:  # a reset or a broken pipe: the bot is gone (killed), as at the end
            return


def result_of(kind: bytes, body: bytes) -> Any:
    """The result an answer of this kind carries; raises the drawing's error."""
    if kind == BYTES:
        return body
    if kind == DONE:
        return pickle.loads(body)
    if kind == FAILED:
        raise pickle.loads(body)
    if kind == UNPICKLABLE:
        raise RuntimeError(body.decode(errors="replace"))
    raise ValueError(f"no answer of kind {kind!r}")


# -- in the bot's process -------------------------------------------------------------------


class CannotStart(Exception):
    """No drawing process could be started here (the caller draws in a thread instead)."""


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time process `pid` has used (Linux); None where it cannot be read."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class DrawingLate(TimeoutError):
    """A drawing not answered within its deadline (`GIVE_UP_SECONDS` from asking)."""


class DrawingProcess:
    """One drawing process and its socket, on the event loop that made it. `idle` is called
    once it can take the next drawing (its answer read) or is gone.

    A drawing is a module's function and its arguments (plain data), pickled in one frame (a
    4-byte big-endian length, then the message); the process runs it and answers in one frame:
    a byte saying how it went, then the result (a picture's bytes as they are, anything else
    pickled) or the error (pickled when it can be, else its text)."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, niceness: int, idle: Callable[[], None]
    ) -> None:
        from bot.runtime.worker import forkserver_context

        self._loop = loop
        self._idle = idle
        mine, theirs = socket.socketpair()
        try:
            # a ForkServerContext, typed as its base class (which lacks `Process`) in bot/service
            self._process = forkserver_context().Process(
                target=serve,
                args=(theirs, os.getpid(), niceness),
                name="card-pictures",
                daemon=True,
            )
            self._process.start()
        except (OSError, ValueError, NotImplementedError) as error:
            mine.close()
            raise CannotStart(str(error)) from error
        finally:
            theirs.close()
        mine.setblocking(False)
        self._socket = mine
        self._inbox = bytearray()
        self._outbox = Outbox(self._loop, mine, self._lose)
        self.gone = False
        self.job: asyncio.Future[Any] | None = None  # the drawing under way
        self._hang: asyncio.TimerHandle | None = None  # fires if it is still on it then
        self._cpu_at_start: float | None = None  # its CPU seconds when the drawing began
        self._cpu: float | None = None  # … when last looked at
        # the answers are read for every caller, whoever's work started the process
        foreground().run(loop.add_reader, mine.fileno(), self._readable)

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def send(self, job: bytes, future: asyncio.Future[Any], hang: float) -> None:
        """Start a drawing (the process is idle); `future` gets its result or error. Still on
        it `hang` seconds later, the process is taken for hung (killed, the drawing failed),
        unless it is only waiting for the CPU (`_starved`)."""
        self.job = future
        self._cpu = self._cpu_at_start = cpu_seconds(self.pid)
        self._hang = self._loop.call_later(hang, self._hung, hang)
        self._outbox.send(_frame(job))

    def _hung(self, hang: float) -> None:
        if self._starved(hang):
            self._hang = self._loop.call_later(hang, self._hung, hang)
            return
        log.warning("drawing process %s hung on a drawing: replaced", self.pid)
        self._lose()

    def _starved(self, hang: float) -> bool:
        """Slow, not hung: on a loaded machine the process (below the bot's priority) gets
        the CPU a little at a time, its start and first drawing (~0.7 s of CPU) then taking
        longer than `hang`, and killing it for that meant a new start, killed again: no
        picture at all. It is let be while it got some CPU since the last look, and less than
        `hang` seconds of it on this drawing (else it loops). Stopped, deadlocked or swapping,
        it got none. Where the CPU time cannot be read, it is taken for hung."""
        now, before = cpu_seconds(self.pid), self._cpu
        self._cpu = now
        if now is None or before is None or self._cpu_at_start is None:
            return False
        return now > before and now - self._cpu_at_start < hang

    def _readable(self) -> None:
        try:
            data = self._socket.recv(1 << 18)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._lose()
            return
        self._inbox += data
        if len(self._inbox) < HEADER:
            return
        size = int.from_bytes(self._inbox[:HEADER], "big")
        if not 1 <= size <= MAX_ANSWER or self.job is None:
            self._lose()  # garbage, or an answer nobody asked for
            return
        if len(self._inbox) < HEADER + size:
            return
        if len(self._inbox) > HEADER + size:
            self._lose()  # more than the one answer asked for: garbage
            return
        kind = bytes(self._inbox[HEADER : HEADER + 1])
        body = bytes(memoryview(self._inbox)[HEADER + 1 :])  # a picture: copied once
        self._inbox.clear()
        self._disarm()
        job, self.job = self.job, None
        if not job.done():  # else its caller gave up on it meanwhile
            try:
                job.set_result(result_of(kind, body))
            except Exception as error:
                job.set_exception(error)
        self._idle()

    def _lose(self) -> None:
        self.kill("a drawing process died in the middle of a job")
        self._idle()

    def _disarm(self) -> None:
        if self._hang is not None:
            self._hang.cancel()
            self._hang = None

    def kill(self, why: str) -> None:
        """Kill the process; the drawing under way, if any, fails (`BrokenProcessPool(why)`)."""
        job, self.job = self.job, None
        self._disarm()
        if not self.gone:
            self.gone = True
            self._loop.remove_reader(self._socket.fileno())
            self._outbox.close()
            self._socket.close()
            if self._process.is_alive():
                self._process.kill()
            self._process.join(0)  # reaped now if it is gone already (a zombie otherwise)
        if job is not None and not job.done():
            job.set_exception(BrokenProcessPool(why))


class DrawingProcesses:
    """`size` drawing processes on one event loop, started when first needed; a drawing
    waits for an idle one, in the order asked (one drawing at a time per process).

    A process that dies (or answers garbage) fails its drawing with `BrokenProcessPool`, as the
    pool did, and is replaced by a new one at the next drawing. Every drawing has a deadline,
    as every job sent to a child of the bot has (`bot.runtime.pool`): its caller waits
    `GIVE_UP_SECONDS` at most from asking (then `DrawingLate`: the picture is given up; a
    message waits for it less, `DRAW_SECONDS`), and a process still on one drawing
    `HANG_SECONDS` after it began it (stopped, looping, swapping) is taken for hung, killed
    and replaced like a dead one."""

    def __init__(
        self,
        size: int,
        niceness: int,
        *,
        deadline: float = GIVE_UP_SECONDS,
        hang: float = HANG_SECONDS,
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self._size = size
        self._niceness = niceness
        self.deadline = deadline  # asked -> answered, at most (module doc)
        self.hang = hang  # a process on one drawing this long is replaced
        self._processes: list[DrawingProcess] = []
        self._waiting: deque[tuple[bytes, asyncio.Future[Any]]] = deque()

    def pids(self) -> list[int | None]:
        return [p.pid for p in self._processes if not p.gone]

    async def run(self, draw: Callable[..., Any], *args: Any) -> Any:
        """`draw(*args)` in a drawing process (a module's function, its arguments plain data);
        raises `DrawingLate` once it waited `deadline` seconds (module doc)."""
        job = pickle.dumps((draw, args), pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[Any] = self.loop.create_future()
        self._waiting.append((job, future))
        self._start_next()
        try:
            async with asyncio.timeout(self.deadline):
                return await future  # cancelled at the deadline: its answer, if any, dropped
        except TimeoutError as late:
            raise DrawingLate(f"no drawing within {self.deadline}s") from late

    def _start_next(self) -> None:
        """Hand the drawings waiting to idle processes (started if need be), in order."""
        while self._waiting:
            job, future = self._waiting[0]
            if future.done():  # its caller gave up on it before it began
                self._waiting.popleft()
                continue
            try:
                process = self._idle()
            except Exception as error:  # no process could start: the drawing fails, not hangs
                self._waiting.popleft()
                future.set_exception(error)
                continue
            if process is None:
                return  # every process is drawing: the next idle one takes it
            self._waiting.popleft()
            process.send(job, future, self.hang)

    def _idle(self) -> DrawingProcess | None:
        self._processes = [p for p in self._processes if not p.gone]
        for process in self._processes:
            if process.job is None:
                return process
        if len(self._processes) < self._size:
            process = DrawingProcess(self.loop, self._niceness, self._start_next)
            self._processes.append(process)
            return process
        return None

    def close(self) -> None:
        """Kill the processes: the drawings under way fail, those waiting are cancelled."""
        for process in self._processes:
            process.kill("the drawing processes were closed")
        self._processes.clear()
        for _job, future in self._waiting:
            future.cancel()
        self._waiting.clear()
