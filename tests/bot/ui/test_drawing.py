"""The drawing processes, driven from the event loop: no thread of the bot's process takes part
in a drawing, a drawing's error reaches its caller, and an answer goes to the drawing it
answers, never to the next one."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.pictures.layout import CardPicture, CardRow
from bot.runtime import worker
from bot.ui.drawing import DrawingLate, DrawingProcesses
from bot.ui.message_pictures import DRAWERS, CardPictures, drawing_processes

HANDS = ("7D", "8D", "9D", "10D")


def wait_for(gate: str, value: str, started: str | None = None) -> str:
    """Answers `value` once the test opens the FIFO `gate` for writing (a drawing under way);
    first tells the test it started, through the FIFO `started`, when there is one."""
    if started is not None:
        with open(started, "w"):
            pass
    with open(gate) as opened:
        opened.read()
    return value


def sip(cpu: float, value: str) -> str:
    """Answers `value` once it used `cpu` seconds of CPU, a few milliseconds at a time with
    rests between (a process getting a small share of a loaded machine's CPU)."""
    end = time.process_time() + cpu
    while time.process_time() < end:
        burst = time.process_time() + 0.005
        while time.process_time() < burst:
            pass
        time.sleep(0.045)
    return value


def spin() -> None:
    """Never answers: uses the CPU for good (a drawing in an endless loop)."""
    while True:
        pass


async def test_a_picture_is_drawn_with_no_thread_of_the_bot_s_process_taking_part() -> None:
    threads = set(threading.enumerate())
    pictures = CardPictures()
    pictures.deadline = float("inf")  # a loaded machine may start its drawing slowly
    hands = [CardPicture("hand", (CardRow("Ann", ("QH", card, None)),)) for card in HANDS]
    pngs = await asyncio.gather(*(pictures.draw(hand) for hand in hands))
    assert all(png is not None and png.startswith(b"\x89PNG") for png in pngs)
    assert pictures.draws == len(HANDS)
    # a ProcessPoolExecutor started a manager and a queue feeder thread here; a thread an
    # earlier test left may end meanwhile, so only new threads count
    assert not set(threading.enumerate()) - threads
    drawers = drawing_processes().pids()
    assert len(drawers) == DRAWERS and os.getpid() not in drawers


async def test_a_drawing_s_error_reaches_its_caller_and_the_process_draws_on() -> None:
    processes = DrawingProcesses(1, 10)
    try:
        with pytest.raises(ValueError, match="invalid literal"):
            await processes.run(int, "not a number")
        pid = await processes.run(os.getpid)
        assert processes.pids() == [pid]  # the same process, still drawing
    finally:
        processes.close()


async def test_the_answer_of_a_drawing_given_up_is_not_handed_to_the_next(tmp_path: Path) -> None:
    first, second, started = tmp_path / "first", tmp_path / "second", tmp_path / "started"
    for fifo in (first, second, started):
        os.mkfifo(fifo)
    processes = DrawingProcesses(1, 10)
    try:
        given_up = asyncio.create_task(
            processes.run(wait_for, str(first), "given up", str(started))
        )
        # the one process holds it, waiting at its gate (cancelled before it was sent, the
        # first drawing would never open its gate and the test would wait on it for good)
        await asyncio.to_thread(started.read_text)
        given_up.cancel()
        following = asyncio.create_task(processes.run(wait_for, str(second), "following"))
        await asyncio.to_thread(first.write_text, "")  # the first drawing ends
        await asyncio.to_thread(second.write_text, "")  # then the next one, sent after it
        assert await following == "following"
        assert given_up.cancelled()
    finally:
        processes.close()


async def test_a_drawing_s_bytes_and_other_results_arrive_as_they_were() -> None:
    processes = DrawingProcesses(1, 10)
    try:
        assert await processes.run(bytes, 3) == b"\0\0\0"  # a picture's bytes, sent raw
        assert await processes.run(bytes) == b""
        assert await processes.run(divmod, 7, 2) == (3, 1)  # anything else, pickled
        assert await processes.run(bytearray, b"ab") == bytearray(b"ab")
    finally:
        processes.close()


async def test_a_drawing_waiting_when_no_process_can_start_fails_instead_of_waiting_forever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    processes = DrawingProcesses(1, 10)
    try:
        dies = asyncio.create_task(processes.run(os._exit, 1))
        waits = asyncio.create_task(processes.run(os.getpid))
        await asyncio.sleep(0)  # the first is sent to the one process, the second waits

        class NoProcess:
            def Process(self, **_: object) -> None:  # multiprocessing's name
                raise RuntimeError("no process may start now")

        monkeypatch.setattr(worker, "forkserver_context", NoProcess)
        with pytest.raises(BrokenProcessPool):
            await dies
        # the dead process's replacement cannot start: the drawing waiting hears it
        with pytest.raises(RuntimeError, match="no process may start"):
            await asyncio.wait_for(waits, 30)
    finally:
        processes.close()


async def test_a_stopped_drawing_process_fails_its_drawing_at_the_deadline_and_is_replaced() -> (
    None
):
    """A hung process (SIGSTOP: not dead, its socket open) fails the drawing it holds at the
    drawing's deadline, and is killed and replaced once it was on it `hang` seconds."""
    processes = DrawingProcesses(1, 10)
    try:
        stopped = await processes.run(os.getpid)  # up and drawing
        os.kill(stopped, signal.SIGSTOP)
        processes.deadline = processes.hang = 0.2
        with pytest.raises(DrawingLate):
            await processes.run(os.getpid)
        processes.deadline = 60.0  # the next drawing waits for the replacement
        fresh = await processes.run(os.getpid)
        assert fresh != stopped and processes.pids() == [fresh]
    finally:
        processes.close()


async def test_a_drawing_answered_after_its_deadline_is_given_up_and_its_process_draws_on(
    tmp_path: Path,
) -> None:
    """Slow, not hung: the caller stops waiting at the deadline; the late answer goes to
    nobody, and the process, which answered before `hang`, is kept."""
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    processes = DrawingProcesses(1, 10)
    try:
        slow = await processes.run(os.getpid)
        processes.deadline = 0.2
        with pytest.raises(DrawingLate):
            await processes.run(wait_for, str(gate), "late")
        processes.deadline = 60.0
        await asyncio.to_thread(gate.write_text, "")  # the slow drawing ends
        assert await processes.run(os.getpid) == slow  # its answer, not the late one's
    finally:
        processes.close()


async def test_a_drawing_process_slowed_by_a_loaded_machine_is_not_taken_for_hung() -> None:
    """On a loaded machine a drawing process (below the bot's priority) gets the CPU a little
    at a time: still on its drawing `hang` seconds later but getting some CPU, and less than
    `hang` seconds of it, it is let finish (killed, its start was paid again and again, and
    no picture ever came)."""
    processes = DrawingProcesses(1, 10)
    try:
        slow = await processes.run(os.getpid)
        assert await processes.run(sip, 0.0, "warm") == "warm"  # this module imported there
        processes.deadline, processes.hang = 60.0, 0.5
        assert await processes.run(sip, 0.25, "drawn") == "drawn"  # ~2.5 s of sips
        assert processes.pids() == [slow]
    finally:
        processes.close()


async def test_a_drawing_process_in_an_endless_loop_is_replaced_once_it_used_hang_of_cpu() -> None:
    """Getting the CPU is no excuse for ever: a process on one drawing that used `hang`
    seconds of CPU on it loops, and is killed and replaced."""
    processes = DrawingProcesses(1, 10)
    try:
        looping = await processes.run(os.getpid)
        processes.deadline, processes.hang = 60.0, 0.3
        with pytest.raises(BrokenProcessPool):
            await processes.run(spin)
        assert await processes.run(os.getpid) != looping
    finally:
        processes.close()


async def test_closing_the_processes_fails_the_drawing_under_way_at_once(tmp_path: Path) -> None:
    """A drawing under way when the processes close fails then, as one waiting is cancelled
    (it waited for its deadline before, a minute)."""
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    processes = DrawingProcesses(1, 10)
    under_way = asyncio.create_task(processes.run(wait_for, str(gate), "never"))
    waiting = asyncio.create_task(processes.run(os.getpid))
    await asyncio.sleep(0)  # both asked: the first one sent to the process
    processes.close()
    with pytest.raises(BrokenProcessPool):
        await asyncio.wait_for(under_way, 10)
    with pytest.raises(asyncio.CancelledError):
        await waiting
