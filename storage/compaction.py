"""Compact rounds: once a round takes no more actions, its log becomes one compressed record.

A finished round's action rows, with their index entries, take over ten times the room of one
zlib-compressed JSON record in `rounds.log` (docs/performance.md). The record keeps everything
the rows held (seq, seat, notation, and the time as milliseconds after the round's start), so a
compacted round replays and reports exactly as before.

Rounds are compacted when they finish (`finish_round`) and when their table stops playing with
the round unfinished (`update_table` to a closed status), inside those transactions. Rounds
stored before compaction existed are compacted by `compact_history`, a bounded batch at a time.
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime, timedelta

from storage.codec import dumps
from storage.sql import Connection, Database

LOG_FORMAT = 1  # the record's layout version, first in the record
CLOSED = "('finished', 'abandoned', 'broken')"

Action = tuple[int, int, str, datetime]  # seq, seat, notation, time


def encode_log(started_at: str, rows: list[tuple[int, int, str, str]]) -> bytes:
    """(seq, seat, notation, at) rows, in seq order, as one compressed record."""
    start = datetime.fromisoformat(started_at)
    actions = [
        [seq, seat, notation, round((datetime.fromisoformat(at) - start).total_seconds() * 1e3)]
        for seq, seat, notation, at in rows
    ]
    return zlib.compress(dumps([LOG_FORMAT, actions]).encode(), 9)


def decode_log(started_at: str, log: bytes) -> list[Action]:
    version, actions = json.loads(zlib.decompress(log))
    if version != LOG_FORMAT:
        raise ValueError(f"unknown round log format {version}")
    start = datetime.fromisoformat(started_at)
    return [
        (seq, seat, notation, start + timedelta(milliseconds=ms))
        for seq, seat, notation, ms in actions
    ]


async def compact_round(conn: Connection, round_id: int, started_at: str) -> None:
    """Move one round's actions into its compressed record (inside the caller's transaction)."""
    rows = [
        tuple(row)
        for row in await conn.fetchall(
            "SELECT seq, seat, notation, at FROM actions WHERE round_id = ? ORDER BY seq",
            (round_id,),
        )
    ]
    log = encode_log(started_at, rows)
    await conn.execute("UPDATE rounds SET log = ? WHERE id = ?", (log, round_id))
    await conn.execute("DELETE FROM actions WHERE round_id = ?", (round_id,))


async def compact_unfinished(conn: Connection, table_id: int) -> None:
    """The table stopped playing: its unfinished round, if any, takes no more actions."""
    rounds = await conn.fetchall(
        "SELECT id, started_at FROM rounds "
        "WHERE table_id = ? AND finished_at IS NULL AND log IS NULL",
        (table_id,),
    )
    for round_id, started_at in rounds:
        await compact_round(conn, round_id, started_at)


async def compact_history(db: Database, limit: int) -> int:
    """Compact up to `limit` rounds stored before compaction existed (finished, or of a table
    that no longer plays), in one short transaction; returns how many (0: none left)."""
    async with db.transaction() as conn:
        rounds = await conn.fetchall(
            "SELECT r.id, r.started_at FROM rounds AS r JOIN tables AS t ON t.id = r.table_id "
            f"WHERE r.log IS NULL AND (r.finished_at IS NOT NULL OR t.status IN {CLOSED}) "
            "ORDER BY r.id LIMIT ?",
            (limit,),
        )
        for round_id, started_at in rounds:
            await compact_round(conn, round_id, started_at)
    return len(rounds)
