"""The table's public log kept in the store, so that a restart shows the lines it showed.

The store keeps the log as it stood at the last table-level line (a join, a round's start or
end, a timeout…), written in the transaction that already stores that change, and the round
and the number of its actions it holds (`storage.TableLog`); the engine's lines of the actions
stored since come from the same replay that rebuilds the round at a restart
(`ActiveTable.kept_later`), so a click writes nothing more. A table marks its log unsaved when
it gets a table-level line (`LiveTable.add_log`); the writes that carry it clear the mark, and
the table's lock keeps whatever is still unsaved before it shows it (`bot/service/_locks.py`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from bot.service._live_table import LiveTable
from bot.snapshots import LOBBY, PLAYING, ROUND_OVER, LogEntry
from storage.models import TableLog

ACTIVE_STATES = (LOBBY, PLAYING, ROUND_OVER)  # a table that restores (a finished one does not)


class KeptEntry(BaseModel):
    """One kept line, as stored (checked as it is read back: a damaged row is refused)."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = {}
    source: Literal["engine", "table"] = "engine"
    users: list[int | None] = []


_KEPT_ENTRIES = TypeAdapter(list[KeptEntry])


def kept(entry: LogEntry) -> dict[str, Any]:
    """The entry as the store keeps it (JSON-ready: the engines' data is, and so is ours)."""
    out: dict[str, Any] = {
        "kind": entry.kind,
        "seat": entry.seat,
        "data": dict(entry.data),
        "source": entry.source,
    }
    if entry.users:
        out["users"] = list(entry.users)
    return out


def table_log(table: LiveTable, *, before_round: bool = False) -> TableLog:
    """The table's log to keep now: after the actions of its round applied so far, or before
    any (`before_round`: a round starting, which the store numbers, or a lobby's)."""
    round_ = table.round
    if before_round or round_ is None:
        return TableLog(entries=[kept(e) for e in table.log], round_no=None, actions=0)
    return TableLog(
        entries=[kept(e) for e in table.log],
        round_no=table.round_no,
        actions=len(round_.history),
    )


def entries(log: TableLog) -> list[LogEntry]:
    """The kept lines as entries again; ValueError (pydantic's) for a damaged one."""
    return [
        LogEntry(e.kind, e.seat, e.data, e.source, tuple(e.users))
        for e in _KEPT_ENTRIES.validate_python(log.entries)
    ]
