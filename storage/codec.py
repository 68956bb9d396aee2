"""Row <-> record conversions shared by the store's modules."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from storage.models import SeatRecord, TableRecord


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


TABLE_COLUMNS = (
    "id, guild_id, channel_id, thread_id, message_id, game, options, host_id, status, "
    "broken_reason, created_at, updated_at"
)
SEAT_COLUMNS = "table_id, seat, user_id, display_name, is_bot, joined_at, left_at"


def table_from_row(row: sqlite3.Row, *, lenient: bool = False) -> TableRecord:
    """The table as stored. `lenient`: damaged options read as none and damaged times as the
    epoch, so where the table lives and its status can still be read (the restore, which is
    not lenient, marks such a table broken)."""
    options: Any
    created_at: Any
    updated_at: Any
    try:
        options = json.loads(row["options"])
        created_at = datetime.fromisoformat(row["created_at"])
        updated_at = datetime.fromisoformat(row["updated_at"])
    except (ValueError, TypeError):
        if not lenient:
            raise
        options = _or_default(lambda: json.loads(row["options"]), {})
        created_at = _or_default(lambda: datetime.fromisoformat(row["created_at"]), EPOCH)
        updated_at = _or_default(lambda: datetime.fromisoformat(row["updated_at"]), EPOCH)
    if lenient and not isinstance(options, dict):
        options = {}
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        message_id=row["message_id"],
        game=row["game"],
        options=options,
        host_id=row["host_id"],
        status=row["status"],
        broken_reason=row["broken_reason"],
        created_at=created_at,
        updated_at=updated_at,
    )


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _or_default(read: Callable[[], Any], default: Any) -> Any:
    try:
        return read()
    except (ValueError, TypeError):
        return default


def seat_from_row(row: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_bot=bool(row["is_bot"]),
        joined_at=datetime.fromisoformat(row["joined_at"]),
        left_at=when(row["left_at"]),
    )


def as_dict(row: Any, skip: str = "") -> dict[str, Any]:
    """A row (sqlite3.Row or asyncpg.Record) as a dict of its columns, without `skip`."""
    return {key: value for key, value in zip(row.keys(), tuple(row), strict=True) if key != skip}
