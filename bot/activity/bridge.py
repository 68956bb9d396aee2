"""The messages between the bot and the Activity's own process, on a socket pair.

Each is a pickled tuple behind its length. Both ends are this program (the bot starts the
process and hands it its end of the pair), so pickle carries the service's snapshots as they
are: the page's frames are built from them in the Activity's process, as in the bot's.
"""

from __future__ import annotations

import asyncio
import copyreg
import dataclasses
import io
import operator
import pickle
import struct
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

HEADER = struct.Struct(">I")  # a message's length in bytes
MAX_MESSAGE = 64 * 1024 * 1024  # bytes: a snapshot is some kilobytes; more is a broken peer

Message = tuple[Any, ...]


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only mapping again, from the dict it was sent as."""
    return MappingProxyType(mapping)


def _read_only_mapping(mapping: MappingProxyType[Any, Any]) -> tuple[Any, tuple[Any, ...]]:
    return read_only, (dict(mapping),)


# the snapshots keep their options read-only (a mapping proxy, which pickle does not know):
# sent as the dict behind it, read back read-only; for the bridge's messages alone
_REDUCERS = {**copyreg.dispatch_table, MappingProxyType: _read_only_mapping}
# a dataclass type -> what reads its fields in order, when it is rebuilt by calling it with
# them (None: pickled as pickle does); `attrgetter` reads them in C
_POSITIONAL: dict[type, Callable[[Any], tuple[Any, ...]] | None] = {}


def _positional_fields(kind: type) -> Callable[[Any], tuple[Any, ...]] | None:
    if not dataclasses.is_dataclass(kind):
        return None
    fields = dataclasses.fields(kind)
    if not fields or not all(field.init and not field.kw_only for field in fields):
        return None
    names = [field.name for field in fields]
    if len(names) == 1:  # attrgetter of one name gives the value, not a tuple of it
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return operator.attrgetter(*names)


class _Pickler(pickle.Pickler):
    """Pickles a dataclass as its type called with its fields: the snapshots' are frozen with
    slots, which pickle otherwise saves and restores through `dataclasses.fields()` for each
    object, most of both ends' time."""

    dispatch_table = _REDUCERS

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        try:
            fields = _POSITIONAL[kind]
        except KeyError:
            fields = _POSITIONAL[kind] = _positional_fields(kind)
        if fields is None:
            return NotImplemented
        return kind, fields(obj)


@dataclasses.dataclass(frozen=True, slots=True)
class ProcessSettings:
    """What the Activity's process needs, sent as the bridge's first message: how to ask
    Discord who a page is, how to log, and where to listen (set when it is started)."""

    api_url: str  # Discord's API, or the one the bot is pointed at
    client_id: str
    client_secret: str
    bot_token: str | None  # asks Discord about the pages' instances
    log_level: str
    log_format: str
    host: str = "127.0.0.1"
    port: int = 0


class BridgeBroken(ConnectionError):
    """The other end sent something that is not a message of the bridge."""


def send(writer: asyncio.StreamWriter, message: Message) -> None:
    """Queue one message (never waits: the socket is local and its reader keeps up)."""
    buffer = io.BytesIO()
    buffer.write(HEADER.pack(0))  # its length, once known
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(message)
    body = buffer.getbuffer()
    HEADER.pack_into(body, 0, len(body) - HEADER.size)
    writer.write(body)


async def receive(reader: asyncio.StreamReader) -> Message | None:
    """The next message, or None once the other end closed its side."""
    try:
        header = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError:
        return None
    (size,) = HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise BridgeBroken(f"a message of {size} bytes")
    try:
        body = await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        return None
    message = pickle.loads(body)
    if not isinstance(message, tuple) or not message or not isinstance(message[0], str):
        raise BridgeBroken("a message that is not a tuple naming its kind")
    return message
