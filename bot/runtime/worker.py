"""A bot worker process, and its handle in the bot's process.

A search takes CPU the event loop, which answers every click, cannot spare: so it runs in a
process of its own (`serve`), forked from a server process that imported the games once
(`forkserver`: a new worker starts in milliseconds, and nothing of the bot's process, its event
loop, threads or sockets, is copied). The bot talks to it over one socket pair, in frames (a
4-byte big-endian length, then the message): jobs (`Job`) one way, answers (`encode_answer`)
the other. The worker keeps the rounds it is sent, so a job carries only the actions played
since (`round_for`); `ProcessWorker` reads its socket without ever blocking, so a worker that
stops, dies or answers garbage never holds the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import pickle
import random
import signal
import socket
import struct
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from bot.runtime.outbox import Outbox
from bot.runtime.policy import policy_for
from bot.runtime.priority import foreground

log = logging.getLogger(__name__)

HEADER = 4  # bytes of a frame's length
MAX_ANSWER = 64 * 1024  # an answer announcing more is garbage (a notation is a few bytes)
PARENT_CHECK_SECONDS = 1.0
MIN_BUDGET = 0.005  # seconds: a decision with less time than this is played simply; a minimal
# search takes a few milliseconds (the strong bots' READMEs), a heuristic bot's under one
NICENESS = 5  # a worker's scheduling priority, below the bot's event loop (see `serve`)
READY = -1  # the job id of the worker's first message: it has imported the games
MOVE, CHORE = "move", "chore"  # a job's kinds: a bot decision, or other work (`run_chore`)

KEEP = 2048  # rounds a worker keeps, by table (see `Kept`): more than the tables with bots of
# one bot process (a shard: ~1,000 at most), since every worker decides for every table; a kept
# round weighs 10-30 KiB in memory, so 2,048 of them take 20-60 MiB per worker at most

# (round, seat, level, seed, budget) -> the action's notation; runs in the worker
Decide = Callable[[Any, int, str, int, float | None], str]


class Job(NamedTuple):
    """One job as a worker gets it, framed as a plain tuple (`ProcessWorker.send`): pickling
    a tuple costs a few microseconds, a dataclass's generic state several times that.

    A decision carries its round one of three ways: not kept (`key` None: the whole round,
    pickled when the bot asked), whole (`key` set, `delta` None: the worker keeps it under
    `key` as the pool's round number `token`, replacing what it kept there), or as the actions
    played since the worker's copy (`delta`: (seat, notation) pairs to apply to the round it
    keeps under `key`, which must be round `token` at `base` actions).

    A job waits in the worker's socket behind the ones sent before it, so it carries the moment
    it was sent on CLOCK_MONOTONIC (`time.monotonic()`, one clock for every process of the
    machine) and the time it may take from then at most. A job of kind CHORE carries other work
    instead of a round (a picklable object whose `run(budget)` gives something JSON can write: a
    review's piece), answered as JSON text in the notation's place.
    """

    id: int
    pickled: bytes  # the round, pickled (b"" when `delta` carries it), or a chore
    seat: int
    level: str
    seed: int  # of the bot's generator, drawn from the table's when asked
    budget: float | None = None  # seconds of search at most (None: the policy's own)
    kind: str = MOVE  # CHORE: `pickled` is a chore, not a round (`run_chore`)
    left: float | None = None  # seconds from `sent` until it must be answered (None: no limit)
    sent: float | None = None  # time.monotonic() when the bot sent it (stamped by `send`)
    key: Hashable | None = None  # the table: the worker keeps its round under it (None: not)
    token: int = 0  # which round object of the bot's process that is (the pool numbers them)
    base: int = 0  # the actions of the kept round that `delta` follows
    delta: tuple[tuple[int, str], ...] | None = None  # actions to apply to the kept round

    def time_left(self, now: float) -> float | None:
        """Seconds left to decide at `now` (time.monotonic()), or None: no limit."""
        if self.left is None:
            return None
        return self.left - (now - self.sent) if self.sent is not None else self.left

    def budget_at(self, now: float) -> float | None:
        """The search budget for a worker beginning the job at `now` (time.monotonic()): the
        smaller of its budget and the time left; None: the policy's own. Raises `Expired` when
        less than `MIN_BUDGET` is left (not even a minimal search would fit)."""
        left = self.time_left(now)
        if left is None:
            return self.budget
        if left < MIN_BUDGET:
            raise Expired(left)
        return left if self.budget is None else min(self.budget, left)


class Expired(Exception):
    """A decision whose time ran out before a worker began it."""


class Misfit(Exception):
    """A job's actions do not follow the round the worker keeps for its table (a bug): the
    worker dropped that round and decided nothing; the pool plays the move simply."""


class Answer(NamedTuple):
    """A worker's message: `job` READY when it starts, else the job it answers. Framed in
    binary (`encode_answer`, `decode_answer`): read on the bot's event loop, it must cost
    little, and anything else is garbage."""

    job: int
    notation: str | None = None  # the action, as text (an action object does not survive)
    error: str | None = None  # the policy raised this
    cpu: float = 0.0  # CPU seconds the worker spent on the job
    wall: float = 0.0  # wall seconds the worker spent on the job
    skipped: bool = False  # its time ran out before the worker began it: nothing was decided
    misfit: bool = False  # its actions did not follow the round kept (`Misfit`; `error` says)


# An answer's frame: job id, CPU and wall seconds, what follows (one of the kinds below),
# then that text in UTF-8 (the notation, the error, or nothing)
_ANSWER = struct.Struct("!qddB")
_NOTATION, _ERROR, _SKIPPED, _NOTHING, _MISFIT = range(5)


def encode_answer(answer: Answer) -> bytes:
    """An answer as a small binary frame, read cheaply on the bot's event loop: the job's id,
    the CPU and wall seconds it spent, then the action's notation or the policy's error (any
    other frame is garbage)."""
    if answer.misfit:
        kind, text = _MISFIT, answer.error or "misfit"
    elif answer.skipped:
        kind, text = _SKIPPED, ""
    elif answer.error is not None:
        kind, text = _ERROR, answer.error
    elif answer.notation is not None:
        kind, text = _NOTATION, answer.notation
    else:
        kind, text = _NOTHING, ""
    return _ANSWER.pack(answer.job, answer.cpu, answer.wall, kind) + text.encode(errors="replace")


def decode_answer(frame: bytes) -> Answer:
    """The answer in `frame`; ValueError if it is none."""
    try:
        job, cpu, wall, kind = _ANSWER.unpack_from(frame)
    except struct.error as error:
        raise ValueError(str(error)) from error
    text = frame[_ANSWER.size :].decode()  # UnicodeDecodeError is a ValueError
    if kind == _NOTATION:
        return Answer(job, text, None, cpu, wall)
    if kind == _ERROR:
        return Answer(job, None, text, cpu, wall)
    if kind == _MISFIT:
        return Answer(job, None, text, cpu, wall, misfit=True)
    if text:
        raise ValueError("text after an answer that carries none")
    if kind == _SKIPPED:
        return Answer(job, cpu=cpu, wall=wall, skipped=True)
    if kind == _NOTHING:
        return Answer(job, cpu=cpu, wall=wall)
    raise ValueError(f"no answer of kind {kind}")


V = TypeVar("V")


class Kept(Generic[V]):
    """At most `bound` values by table, the least recently used dropped first: the rounds a
    worker keeps, and the pool's mirror of them for that worker. One class on both sides, fed
    the same jobs in the same order, so both drop the same table at the same job."""

    __slots__ = ("_entries", "bound")

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError("keep at least one round")
        self.bound = bound
        self._entries: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        return self._entries.get(key)

    def put(self, key: Hashable, value: V) -> None:
        """Keep `value` under `key` (replacing what was there), as the most recently used."""
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        if len(entries) > self.bound:
            entries.popitem(last=False)

    def touch(self, key: Hashable) -> None:
        self._entries.move_to_end(key)

    def drop(self, key: Hashable) -> None:
        self._entries.pop(key, None)

    def order(self) -> list[Hashable]:
        """The keys, least recently used first."""
        return list(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


# -- in the worker process ----------------------------------------------------------------

CHANNEL: socket.socket | None = None  # the worker's end of its socket pair, once serving
# (token, round) by table: the rounds this worker was sent (a chore may read them: tests)
ROUNDS: Kept[tuple[int, Any]] = Kept(KEEP)


def decide(round_: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
    """The action's notation (an action object's identity, which the engine relies on, does
    not survive pickling; its notation does)."""
    policy = policy_for(round_.game, level)
    return str(policy.choose(round_, seat, random.Random(seed), budget=budget))


def round_for(job: Job, rounds: Kept[tuple[int, Any]]) -> Any:
    """The round a decision is for: unpickled, or kept under its table (`Job`). What it keeps
    follows every job it is sent, in order, whatever becomes of the decision (skipped, or the
    policy raising): the pool's mirror of it (`bot.runtime.pool`) counts on that. Raises
    `Misfit`, dropping the table's round, when the job's actions do not follow it.

    The worker keeps at most `KEEP` rounds (`ROUNDS`), and the pool an exact mirror of them per
    worker: which round object of the bot's process (numbered: its `token`) at how many
    actions. A table's round goes whole the first time, or when the worker keeps another round
    object for the table (a new round, a store failure's rollback: engine rounds only grow by
    `apply`, so the same object with more actions is the same round later on), and then only as
    the actions played since: a few bytes instead of the round pickled (docs/performance.md),
    and neither side pickles the round. Mirror and copy stay in step by construction: this runs
    first for every job, both sides use one LRU class (`Kept`), and a new worker starts with
    nothing kept, as its mirror does. A delta that does not follow the round kept (a bug) is
    never decided on: the worker answers a misfit; the pool logs it, plays the move simply, and
    sends the table's next round whole. Calls without a table send the whole round every time,
    kept nowhere. The policies only read the round (their caches aside), so deciding on the
    kept copy leaves it equal to the round replayed from its record."""
    key = job.key
    if key is None:
        return pickle.loads(job.pickled)
    if job.delta is None:
        rounds.drop(key)
        try:
            round_ = pickle.loads(job.pickled)
        except Exception as error:
            raise Misfit(f"round {job.token} of table {key} does not unpickle: {error}") from error
        rounds.put(key, (job.token, round_))
        return round_
    kept = rounds.get(key)
    if kept is None or kept[0] != job.token or len(kept[1].history) != job.base:
        rounds.drop(key)
        held = "nothing" if kept is None else f"round {kept[0]} at {len(kept[1].history)}"
        raise Misfit(f"table {key}: round {job.token} at {job.base} asked, {held} kept")
    round_ = kept[1]
    try:
        for seat, notation in job.delta:
            round_.apply(seat, notation)
    except Exception as error:
        rounds.drop(key)
        raise Misfit(f"table {key}: {error}") from error
    rounds.touch(key)
    return round_


def run_chore(pickled: bytes, budget: float | None) -> str:
    """A chore's result as JSON text: the object pickled, run with its time budget."""
    return json.dumps(pickle.loads(pickled).run(budget), separators=(",", ":"))


def choose_from(
    pickled_round: bytes, seat: int, level: str, seed: int, budget: float | None = None
) -> Any:
    """The bot's action for the round as pickled (in a worker, or in the bot's process when
    the worker could not answer)."""
    round_ = pickle.loads(pickled_round)
    return policy_for(round_.game, level).choose(round_, seat, random.Random(seed), budget=budget)


def warm_up() -> None:
    """Import every game and its policies, so the first decision does not pay for them."""
    from games.registry import game_names, get_game

    for name in game_names():
        for level in ("simple", "strong"):
            policy_for(get_game(name), level)


def exit_with(bot: int) -> None:
    """Exit once the bot's process `bot` is gone. A bot killed outright (SIGKILL, out of
    memory) cannot stop its children, a worker stuck in a decision would never read the end of
    its socket, and a drawing process waits for work forever; the fork server they come from
    exits only once every one of them has."""

    def alive() -> bool:
        try:  # Linux: a bot that died but is not yet reaped by its parent is gone too
            with open(f"/proc/{bot}/stat", "rb") as stat:
                return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except FileNotFoundError:
            return False
        except (OSError, IndexError):
            pass
        try:
            os.kill(bot, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # someone else's process now has the number: ours is gone
            return False
        return True

    def watch() -> None:
        while alive():
            threading.Event().wait(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-the-bot", daemon=True).start()


def write_frame(channel: socket.socket, payload: bytes) -> None:
    channel.sendall(len(payload).to_bytes(HEADER, "big") + payload)


def read_frame(channel: socket.socket) -> bytes | None:
    """The next frame's bytes (blocking; a worker's or a drawing process's side), or None
    once the bot closed its end."""
    header = _read_exactly(channel, HEADER)
    return None if header is None else _read_exactly(channel, int.from_bytes(header, "big"))


def _read_exactly(channel: socket.socket, size: int) -> bytes | None:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = channel.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            return None
        chunks += chunk
    return bytes(chunks)


def serve(
    channel: socket.socket, decider: Decide = decide, bot: int | None = None, keep: int = KEEP
) -> None:
    """The worker's life: ready, then one job at a time until the bot closes the socket,
    keeping `keep` rounds (the pool's bound for its mirror).

    It says it is ready once it has imported every game, then answers the jobs in order. The
    bot sends the next jobs before it answers (up to `PIPELINE`, `bot.runtime.pool`), so it
    never waits for the bot's event loop between two jobs. Beginning one, it searches for the
    smaller of the job's budget and its time left, or, with less than `MIN_BUDGET` left,
    answers it `skipped` without deciding (the bot plays it simply, or already did)."""
    global CHANNEL, ROUNDS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot stops its workers itself
    # On a machine short of cores the event loop, which answers every click, goes first; bot
    # decisions take the CPU left (their budgets shrink with the queue) and pictures come last.
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    exit_with(bot if bot is not None else os.getppid())
    CHANNEL = channel
    ROUNDS = Kept(keep)
    warm_up()
    write_frame(channel, encode_answer(Answer(job=READY)))
    while True:
        frame = read_frame(channel)
        if frame is None:
            return  # the bot closed its end: it is stopping
        job = Job._make(pickle.loads(frame))  # framed as a plain tuple (`ProcessWorker.send`)
        write_frame(channel, encode_answer(work(job, decider, rounds=ROUNDS)))


def work(
    job: Job,
    decider: Decide = decide,
    monotonic: Callable[[], float] = time.monotonic,
    *,
    rounds: Kept[tuple[int, Any]] | None = None,
) -> Answer:
    """Do one job: a decision (searched within the job's time left, or skipped when too
    little is left) or a chore. `monotonic` is CLOCK_MONOTONIC's time (a test's own);
    `rounds`, the rounds kept by table (`round_for`; None: this module's `ROUNDS`)."""
    began, started = monotonic(), time.process_time()
    notation = error = None
    try:
        if job.kind == CHORE:
            notation = run_chore(job.pickled, job.budget)
        else:
            round_ = round_for(job, ROUNDS if rounds is None else rounds)  # first: always
            notation = decider(round_, job.seat, job.level, job.seed, job.budget_at(began))
    except Expired:
        return Answer(job=job.id, skipped=True)
    except Misfit as misfit:
        log.error("bot worker %s: %s", os.getpid(), misfit)
        return Answer(job=job.id, error=f"Misfit: {misfit}"[:500], misfit=True)
    except Exception as failure:
        error = f"{type(failure).__name__}: {failure}"[:500]
    cpu, wall = time.process_time() - started, monotonic() - began
    return Answer(job=job.id, notation=notation, error=error, cpu=cpu, wall=wall)


# -- in the bot's process -----------------------------------------------------------------


class WorkerEvents(Protocol):
    """What a worker reports to its pool (on the event loop, never while being built)."""

    def ready(self) -> None: ...
    def answered(self, answer: Answer) -> None: ...
    def lost(self, reason: str) -> None:
        """The worker is gone (`died`: its socket closed; `garbage`: it sent something that
        is no answer): it is killed, its decision is not coming."""
        ...


class Worker(Protocol):
    @property
    def pid(self) -> int | None: ...
    def send(self, job: Job) -> int:
        """Send it (nothing once lost); returns the bytes sent or queued."""
        ...

    def kill(self) -> None:
        """Stop it now (no event follows)."""
        ...

    def reap(self) -> None:
        """Wait until a killed worker is gone (at shutdown)."""
        ...


class ProcessWorker:
    """A worker process and its socket, read and written without blocking the loop.

    A worker that stops mid-answer, dies or answers garbage never holds the loop: the handle
    reports the worker ready, each answer, or the worker lost (`WorkerEvents`), and the pool
    decides."""

    def __init__(self, events: WorkerEvents, decider: Decide = decide, keep: int = KEEP) -> None:
        self._events = events
        self._loop = asyncio.get_running_loop()
        mine, theirs = socket.socketpair()
        self._process = forkserver_context().Process(
            target=serve, args=(theirs, decider, os.getpid(), keep), name="bot-worker", daemon=True
        )
        try:
            self._process.start()
        finally:
            theirs.close()
        mine.setblocking(False)
        self._socket = mine
        self._inbox = bytearray()
        self._outbox = Outbox(self._loop, mine, lambda: self._lose("died"))
        self._gone = False
        # read for every table's bots, whichever table's follow-up started the worker
        foreground().run(self._loop.add_reader, mine.fileno(), self._readable)

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def send(self, job: Job) -> int:
        """Send a job now (stamped with the moment, `Job.sent`); the worker answers in order.
        Returns the bytes of its frame (0 once the worker is lost)."""
        if self._gone:
            return 0
        job = job._replace(sent=time.monotonic())
        payload = pickle.dumps(tuple(job), pickle.HIGHEST_PROTOCOL)  # a tuple: no class to find
        self._outbox.send(len(payload).to_bytes(HEADER, "big") + payload)
        return HEADER + len(payload)

    def _readable(self) -> None:
        try:
            data = self._socket.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._lose("died")
            return
        self._inbox += data
        while not self._gone and len(self._inbox) >= HEADER:
            size = int.from_bytes(self._inbox[:HEADER], "big")
            if size > MAX_ANSWER:
                self._lose("garbage")
                return
            if len(self._inbox) < HEADER + size:
                return
            frame = bytes(self._inbox[HEADER : HEADER + size])
            del self._inbox[: HEADER + size]
            try:
                answer = decode_answer(frame)
            except ValueError:
                self._lose("garbage")
                return
            if answer.job == READY:
                self._events.ready()
            else:
                self._events.answered(answer)

    def _lose(self, reason: str) -> None:
        self.kill()
        self._events.lost(reason)

    def kill(self) -> None:
        if self._gone:
            return
        self._gone = True
        self._loop.remove_reader(self._socket.fileno())
        self._outbox.close()
        self._socket.close()
        if self._process.is_alive():
            self._process.kill()  # SIGKILL: a stopped (SIGSTOP) process dies too

    def reap(self) -> None:
        self._process.join(5)


def _started() -> None:
    """What the fork server's warm-up process runs: nothing (the imports were the point)."""


def warm_fork_server() -> None:
    """Start the fork server and let it import every game now, in the calling thread: the first
    worker's start otherwise waits for those imports (seconds on a busy machine), and that
    start happens on the event loop when a table's first bot is to move (a Start click)."""
    try:
        process = forkserver_context().Process(
            target=_started, name="bot-worker-warm-up", daemon=True
        )
        process.start()
        process.join(60)
    except Exception as error:  # the pool starts its workers the slow way then
        log.warning("the bot workers' fork server could not be warmed up: %s", error)


def forkserver_context() -> multiprocessing.context.ForkServerContext:
    """The process context every child of the bot forks from (its workers, its drawing
    processes): one server process, started once, that imported every game and its policies
    (and the card pictures' drawing)."""
    from games.registry import bots_module_name, game_names

    context = multiprocessing.get_context("forkserver")
    preload = ["bot.runtime.worker", "games.registry", "bot.pictures.layout"]
    for name in game_names():
        preload += [bots_module_name(name, "simple"), bots_module_name(name, "strong")]
    context.set_forkserver_preload(preload)
    return context


def start_fork_server() -> None:
    """Start the fork server now, deaf to Ctrl-C, from the main thread (the SIGINT disposition
    is the process's; elsewhere it starts at its first use). Ctrl-C in a terminal interrupts
    every process of the bot, and the server ignores it only once its imports are done: one
    pressed during them printed a `KeyboardInterrupt` traceback. Started with SIGINT ignored,
    it keeps ignoring it, and so do its children (the workers, the drawing processes), which
    the bot stops itself. Spawning takes milliseconds: the imports go on in the server."""
    forkserver_context()  # its imports set first
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
