"""Frames sent on a non-blocking socket from the event loop.

They go to the processes the bot drives through a socket of their own (the bot workers, the
drawing processes).

A frame goes out at once as far as the socket takes it; the rest waits in the outbox and is
sent when the socket is writable (the loop watches it only while something waits). A socket
error means the other end is gone: `lost` is called.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

from bot.runtime.priority import foreground


class Outbox:
    def __init__(
        self, loop: asyncio.AbstractEventLoop, channel: socket.socket, lost: Callable[[], None]
    ) -> None:
        self._loop = loop
        self._socket = channel
        self._lost = lost
        self._pending = bytearray()
        self._writing = False  # the loop watches the socket for writing
        self._closed = False

    def send(self, frame: bytes) -> None:
        self._pending += frame
        self._flush()

    def _flush(self) -> None:
        if self._closed:
            return
        try:
            sent = self._socket.send(self._pending)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._lost()
            return
        del self._pending[:sent]
        if self._pending and not self._writing:
            # sent on for every caller, whoever's work queued the frame
            foreground().run(self._loop.add_writer, self._socket.fileno(), self._flush)
            self._writing = True
        elif not self._pending and self._writing:
            self._loop.remove_writer(self._socket.fileno())
            self._writing = False

    def close(self) -> None:
        """Stop sending (before the socket is closed)."""
        self._closed = True
        if self._writing:
            self._loop.remove_writer(self._socket.fileno())
            self._writing = False
