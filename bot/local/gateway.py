"""The local Discord's gateway, sharded as Discord shards it.

It is a websocket speaking plain JSON text frames (discord.py only decompresses binary ones).

A connection identifies with `shard: [id, count]` (none: `[0, 1]`, every guild); its READY lists,
and its GUILD_CREATEs carry, only the guilds on that shard (`(guild_id >> 22) % count == id`),
and an event of a guild goes to the newest live connection of the guild's shard only (an event
without a guild to shard 0, as Discord sends direct messages). A shard outside its count is
closed with Discord's 4010 "Invalid shard", and an IDENTIFY without the bot's token with 4004
"Authentication failed" (until identified, a connection receives no event). A RESUME is
answered with an invalid session, so the client identifies afresh, unless a test dropped the
connections with `drop(resumable=True)`: then the session resumes where it was (RESUMED, its
sequence going on). While `drop`'s outage lasts, connecting is refused (503) and an event
finds no connection (`ShardOffline`: Discord drops a click it cannot deliver).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

log = logging.getLogger("bot.local")

HEARTBEAT_INTERVAL_MS = 41250
# A heartbeat's ACK comes a network round trip after it, as from Discord. discord.py's
# keep-alive thread records when it sent a heartbeat only once the event loop has sent it and
# the thread runs again: an ACK sent at once, on the same loop, may be read before that record,
# and discord.py then measures the whole interval as latency ("Can't keep up, websocket is
# 41.3s behind"). The round trip leaves that thread ample time to record its send.
HEARTBEAT_ROUND_TRIP_SECONDS = 0.25
INVALID_SHARD = 4010  # Discord's close code for a shard id outside its count
DECODE_ERROR = 4002  # Discord's close code for a payload that is not JSON
NOT_AUTHENTICATED = 4003  # Discord's close code for a payload sent before IDENTIFY
AUTHENTICATION_FAILED = 4004  # Discord's close code for an IDENTIFY with a wrong token
UNKNOWN_ERROR = 4000  # Discord's close code after which a client may resume


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events on."""
    return (guild_id >> 22) % shard_count


class ShardOffline(AssertionError):
    """An event for a shard that no client is connected to (Discord would not deliver it)."""


@dataclass(eq=False)
class GatewaySession:
    """One connection: its shard once identified, the intents it asked for, its sequence."""

    socket: web.WebSocketResponse
    shard: tuple[int, int] | None = None  # (id, count) after IDENTIFY
    intents: int = 0
    sequence: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    session_id: str | None = None  # READY's, once identified
    acks: set[asyncio.Task[None]] = field(default_factory=set)  # heartbeats' ACKs on their way

    @property
    def live(self) -> bool:
        return self.shard is not None and not self.socket.closed

    def serves(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return False
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))


class LocalGateway:
    def __init__(
        self,
        *,
        on_identify: Callable[[tuple[int, int], bool], list[tuple[str, Any]]],
        members: Callable[[int], list[dict[str, Any]]],
        on_unknown: Callable[[str], None],
        on_change: Callable[[], Awaitable[None]],
        authentic: Callable[[object], bool],
    ) -> None:
        # The events that answer IDENTIFY of shard (id, count), asked for or not (READY echoes
        # it only then): READY, then GUILD_CREATEs.
        self._on_identify = on_identify
        self._members = members  # of a guild
        self._on_unknown = on_unknown
        self._on_change = on_change  # a connection identified or closed
        self._authentic = authentic  # whether an IDENTIFY's token is the bot's
        self._sessions: list[GatewaySession] = []
        self.identified: list[tuple[int, int]] = []  # every IDENTIFY's shard, in order
        self.resumed: list[tuple[int, int]] = []  # every RESUME's shard, in order
        self._resumable: dict[str, GatewaySession] = {}  # session id -> the dropped session
        self._down_until = 0.0  # time.monotonic() until which connecting is refused
        self.heartbeat_round_trip = HEARTBEAT_ROUND_TRIP_SECONDS

    async def drop(self, *, resumable: bool, down_for: float = 0.0) -> None:
        """Close every connection as a network fault would (4000: the client may resume),
        and refuse new ones for `down_for` seconds. `resumable`: the sessions may RESUME
        afterwards; else the RESUME is refused and the client must IDENTIFY again."""
        self._down_until = time.monotonic() + down_for
        self._resumable = {}
        for session in list(self._sessions):
            if resumable and session.session_id is not None:
                self._resumable[session.session_id] = session
            await session.socket.close(code=UNKNOWN_ERROR, message=b"Dropped.")

    @property
    def down(self) -> bool:
        """Whether an outage `drop` asked for still refuses connections."""
        return time.monotonic() < self._down_until

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.down:
            return web.Response(status=503, text="the gateway is down (a fault a test asked for)")
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        session = GatewaySession(socket)
        self._sessions.append(session)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for frame in socket:
                if frame.type == web.WSMsgType.TEXT:
                    try:
                        message = json.loads(frame.data)
                    except ValueError:
                        await socket.close(code=DECODE_ERROR, message=b"Decode error.")
                        break
                    await self._op(session, message)
        finally:
            for ack in session.acks:
                ack.cancel()
            self._sessions.remove(session)
            await self._on_change()
        return socket

    async def _op(self, session: GatewaySession, message: Any) -> None:
        op = message.get("op") if isinstance(message, dict) else None
        if session.shard is None and op not in (1, 2, 6):  # Discord: "Not authenticated"
            await session.socket.close(code=NOT_AUTHENTICATED, message=b"Not authenticated.")
            return
        if op == 1:  # heartbeat
            ack = asyncio.create_task(self._ack(session), name="local-gateway-heartbeat-ack")
            session.acks.add(ack)
            ack.add_done_callback(session.acks.discard)
        elif op == 2:  # identify
            await self._identify(session, message["d"])
        elif op == 6:  # resume: only a session `drop` kept resumable
            await self._resume(session, message.get("d"))
        elif op == 8:  # request guild members
            guild_id = int(message["d"]["guild_id"])
            chunk = {
                "guild_id": str(guild_id),
                "members": self._members(guild_id),
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": message["d"].get("nonce"),
            }
            await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):  # presence / voice state updates: nothing to do
            pass
        else:
            log.error("LOCAL DISCORD: unknown gateway op %s: %s", op, message)
            self._on_unknown(f"gateway op {op}")

    async def _ack(self, session: GatewaySession) -> None:
        """Acknowledge a heartbeat a round trip after it (`HEARTBEAT_ROUND_TRIP_SECONDS`)."""
        await asyncio.sleep(self.heartbeat_round_trip)
        if not session.socket.closed:
            with contextlib.suppress(ConnectionResetError):  # the client went away meanwhile
                await session.socket.send_json({"op": 11})

    async def _identify(self, session: GatewaySession, data: Any) -> None:
        if not isinstance(data, dict) or not self._authentic(data.get("token")):
            log.info("LOCAL DISCORD: a gateway IDENTIFY without the bot's token was refused")
            failed = b"Authentication failed."
            await session.socket.close(code=AUTHENTICATION_FAILED, message=failed)
            return
        shard_id, count = (int(n) for n in data.get("shard") or (0, 1))
        if count < 1 or not 0 <= shard_id < count:
            await session.socket.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        session.shard = (shard_id, count)
        session.intents = int(data.get("intents") or 0)
        self.identified.append(session.shard)
        for name, event in self._on_identify(session.shard, data.get("shard") is not None):
            if name == "READY":
                session.session_id = str(event["session_id"])
            await self._send(session, name, event)
        await self._on_change()

    async def _resume(self, session: GatewaySession, data: Any) -> None:
        session_id = data.get("session_id") if isinstance(data, dict) else None
        dropped = self._resumable.pop(str(session_id), None)
        if dropped is None or not self._authentic(data.get("token")):
            await session.socket.send_json({"op": 9, "d": False})  # identify afresh
            return
        session.shard, session.intents = dropped.shard, dropped.intents
        session.sequence, session.session_id = dropped.sequence, dropped.session_id
        assert session.shard is not None
        self.resumed.append(session.shard)
        await self._send(session, "RESUMED", {})
        await self._on_change()

    async def _send(self, session: GatewaySession, name: str, data: Any) -> None:
        event = {"op": 0, "t": name, "s": next(session.sequence), "d": data}
        await session.socket.send_json(event)

    def _session_for(self, guild_id: int | None) -> GatewaySession | None:
        live = [s for s in self._sessions if s.live and s.serves(guild_id)]
        return live[-1] if live else None

    @property
    def connected(self) -> bool:
        """Whether a client is connected and identified (events can be dispatched)."""
        return any(s.live for s in self._sessions)

    def shards_connected(self) -> set[int]:
        """The shard ids that have a live, identified connection."""
        return {s.shard[0] for s in self._sessions if s.live and s.shard is not None}

    def intents_for(self, guild_id: int | None) -> int:
        """The intents of the connection that receives this guild's events (0: none)."""
        session = self._session_for(guild_id)
        return session.intents if session is not None else 0

    async def dispatch(self, name: str, data: Any) -> None:
        """Send an event to the newest connection of its guild's shard (`data["guild_id"]`;
        no guild: shard 0)."""
        guild = data.get("guild_id") if isinstance(data, dict) else None
        guild_id = int(guild) if guild is not None else None
        session = self._session_for(guild_id)
        if session is None:
            where = f"guild {guild_id}'s shard" if guild_id is not None else "shard 0"
            raise ShardOffline(f"no discord client is connected to {where} of the local gateway")
        try:
            await self._send(session, name, data)
        except ConnectionResetError as error:
            # The client went away (killed) before its socket was seen closed: Discord would
            # not deliver this event either.
            raise ShardOffline(f"the client of {session.shard} went away: {error}") from error

    async def close(self) -> None:
        for session in list(self._sessions):
            await session.socket.close()
