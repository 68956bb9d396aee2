"""Frames sent on a non-blocking socket from the event loop (bot/runtime/outbox.py): what the
socket cannot take at once follows, in order, when it is writable; a closed peer is lost."""

from __future__ import annotations

import asyncio
import socket

from bot.runtime.outbox import Outbox


async def test_frames_larger_than_the_socket_takes_arrive_whole_and_in_order() -> None:
    loop = asyncio.get_running_loop()
    mine, theirs = socket.socketpair()
    mine.setblocking(False)
    lost: list[bool] = []
    outbox = Outbox(loop, mine, lambda: lost.append(True))
    frames = [bytes([n]) * 3_000_000 for n in range(3)]  # more than a socket buffer holds
    for frame in frames:
        outbox.send(frame)
    received = bytearray()
    theirs.setblocking(False)
    readable = asyncio.Event()
    loop.add_reader(theirs.fileno(), readable.set)
    try:
        while len(received) < sum(map(len, frames)):
            await readable.wait()
            readable.clear()
            try:
                received += theirs.recv(1 << 20)
            except BlockingIOError:
                continue
    finally:
        loop.remove_reader(theirs.fileno())
        outbox.close()
        mine.close()
        theirs.close()
    assert bytes(received) == b"".join(frames)
    assert not lost


async def test_a_peer_gone_is_lost_and_a_closed_outbox_sends_nothing() -> None:
    loop = asyncio.get_running_loop()
    mine, theirs = socket.socketpair()
    mine.setblocking(False)
    lost: list[bool] = []
    outbox = Outbox(loop, mine, lambda: lost.append(True))
    theirs.close()
    outbox.send(b"job")
    assert lost == [True]
    outbox.close()
    outbox.send(b"another")  # after close: nothing tried, nothing lost again
    assert lost == [True]
    mine.close()
