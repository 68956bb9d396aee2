"""Row <-> record conversions shared by the store's modules."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
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


def table_from_row(row: sqlite3.Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        message_id=row["message_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        host_id=row["host_id"],
        status=row["status"],
        broken_reason=row["broken_reason"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


def seat_from_row(row: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_bot=bool(row["is_bot"]),
        joined_at=datetime.fromisoformat(row["joined_at"]),
        left_at=when(row["left_at"]),
    )
