"""Embed colours, one per kind of message."""

from __future__ import annotations

TABLE = 0x2E7D32  # green baize
LOBBY = 0x1565C0
PRIVATE = 0x6A1B9A
FINISHED = 0xF9A825
CLOSED = 0x616161
INFO = 0x455A64
