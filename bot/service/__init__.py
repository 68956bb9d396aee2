"""The table service: tables of any registered game, without Discord.

The glue calls `TableService` and renders the snapshots it returns; it never touches an engine
round. See bot/service/README.md.
"""

from __future__ import annotations

from bot.clock import Clock, FakeClock, SystemClock, TimerHandle
from bot.service.errors import TableError
from bot.service.notifier import NullNotifier, RecordingNotifier, TableNotifier
from bot.service.service import RestoreReport, TableService
from bot.snapshots import (
    CLOSED,
    FINISHED,
    LOBBY,
    PLAYING,
    ROUND_OVER,
    ActResult,
    LogEntry,
    PlayerRef,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
    RoundEnd,
    SeatInfo,
    TableSnapshot,
)

__all__ = [
    "CLOSED",
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "ROUND_OVER",
    "ActResult",
    "Clock",
    "FakeClock",
    "LogEntry",
    "NullNotifier",
    "PlayerRef",
    "PrivateSnapshot",
    "PublicSnapshot",
    "RecordingNotifier",
    "RestoreReport",
    "Reveal",
    "RoundEnd",
    "SeatInfo",
    "SystemClock",
    "TableError",
    "TableNotifier",
    "TableService",
    "TableSnapshot",
    "TimerHandle",
]
