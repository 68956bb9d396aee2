"""A small TCP proxy between the bot and its PostgreSQL server, to inject the network's faults:
`cut` ends every connection at once (both ways, as a broken link does), and `delay` holds each
chunk the bot sends for that long (every query answered that much later)."""

from __future__ import annotations

import asyncio
import contextlib


class TcpProxy:
    """Listens on 127.0.0.1 (`port`) and forwards each connection to `target_port`."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.delay = 0.0  # seconds added to each chunk the client sends
        self.cuts = 0
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    def cut(self) -> None:
        """Every open connection broken, both ways, mid-stream."""
        self.cuts += 1
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()

    async def _serve(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        try:
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_out.transport.abort()
            return
        self._open |= {client_out, server_out}
        upstream = asyncio.create_task(self._pipe(client_in, server_out, delayed=True))
        downstream = asyncio.create_task(self._pipe(server_in, client_out, delayed=False))
        self._tasks |= {upstream, downstream}
        try:
            await asyncio.wait({upstream, downstream}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for writer in (client_out, server_out):
                self._open.discard(writer)
                writer.transport.abort()
            for task in (upstream, downstream):
                task.cancel()
                self._tasks.discard(task)

    async def _pipe(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, *, delayed: bool
    ) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await source.read(65536):
                if delayed and self.delay:
                    await asyncio.sleep(self.delay)  # the fault itself: a slow server
                sink.write(data)
                await sink.drain()
