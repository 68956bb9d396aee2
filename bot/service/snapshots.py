"""The snapshot types under their former path, for code not yet moved to `bot.snapshots`.

The types live in the leaf module `bot.snapshots`; importing them from here loads the whole
service package (its pool included), which is what the leaf module avoids.
"""

from __future__ import annotations

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
    WatcherSnapshot,
)

__all__ = [
    "CLOSED",
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "ROUND_OVER",
    "ActResult",
    "LogEntry",
    "PlayerRef",
    "PrivateSnapshot",
    "PublicSnapshot",
    "Reveal",
    "RoundEnd",
    "SeatInfo",
    "TableSnapshot",
    "WatcherSnapshot",
]
