"""Embed colours, one per kind of message."""

from __future__ import annotations

TABLE = 0x2E7D32  # green baize
LOBBY = 0x1565C0
PRIVATE = 0x6A1B9A
FINISHED = 0xF9A825
CLOSED = 0x616161
INFO = 0x455A64
# A table in play takes its game's accent (the plug-in's `accent`, bot.render.table.game_accent).
# Teams get no colour of their own: they are named by their places (N–S), never by a colour,
# so a colour per team would be a key nobody was taught.
