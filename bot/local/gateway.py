"""The local Discord's gateway: a websocket speaking plain JSON text frames (discord.py only
decompresses binary ones), enough for one bot at a time to identify and receive events."""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

log = logging.getLogger("bot.local")

HEARTBEAT_INTERVAL_MS = 41250


class LocalGateway:
    def __init__(
        self,
        *,
        on_identify: Callable[[], list[tuple[str, Any]]],
        members: Callable[[], list[dict[str, Any]]],
        guild_id: int,
        on_unknown: Callable[[str], None],
    ) -> None:
        self._on_identify = on_identify  # the events that answer IDENTIFY (READY, GUILD_CREATE)
        self._members = members
        self._guild_id = guild_id
        self._on_unknown = on_unknown
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self.intents = 0  # what the client asked for in IDENTIFY (bit flags)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for frame in socket:
                if frame.type == web.WSMsgType.TEXT:
                    await self._op(socket, json.loads(frame.data))
        finally:
            self._sockets.remove(socket)
        return socket

    async def _op(self, socket: web.WebSocketResponse, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == 1:  # heartbeat
            await socket.send_json({"op": 11})
        elif op == 2:  # identify
            self.intents = int(message["d"].get("intents") or 0)
            for name, data in self._on_identify():
                await self._send(socket, name, data)
        elif op == 6:  # resume: this server keeps no sessions, so ask for a fresh identify
            await socket.send_json({"op": 9, "d": False})
        elif op == 8:  # request guild members
            chunk = {
                "guild_id": str(self._guild_id),
                "members": self._members(),
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": message["d"].get("nonce"),
            }
            await self._send(socket, "GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):  # presence / voice state updates: nothing to do
            pass
        else:
            log.error("LOCAL DISCORD: unknown gateway op %s: %s", op, message)
            self._on_unknown(f"gateway op {op}")

    async def _send(self, socket: web.WebSocketResponse, name: str, data: Any) -> None:
        await socket.send_json({"op": 0, "t": name, "s": next(self._seq), "d": data})

    @property
    def connected(self) -> bool:
        """Whether a client is connected (events can be dispatched)."""
        return any(not s.closed for s in self._sockets)

    async def dispatch(self, name: str, data: Any) -> None:
        """Send an event to the most recently connected client."""
        live = [s for s in self._sockets if not s.closed]
        if not live:
            raise AssertionError("no discord client is connected to the local gateway")
        await self._send(live[-1], name, data)

    async def close(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
