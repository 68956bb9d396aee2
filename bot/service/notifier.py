"""What the service tells the outside world (the Discord glue implements it)."""

from __future__ import annotations

from typing import Protocol


class TableNotifier(Protocol):
    """Called after a change is stored, outside the table's lock. The glue coalesces edits."""

    async def table_changed(self, table_id: int) -> None: ...

    async def round_started(self, table_id: int) -> None: ...

    async def turn_reminder(self, table_id: int, seat: int) -> None: ...

    async def table_closed(self, table_id: int) -> None: ...


class NullNotifier:
    """A notifier that ignores everything (benchmarks, tests that do not look)."""

    async def table_changed(self, table_id: int) -> None:
        return None

    async def round_started(self, table_id: int) -> None:
        return None

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        return None

    async def table_closed(self, table_id: int) -> None:
        return None


class RecordingNotifier:
    """Keeps every call as a tuple, in order (tests read `calls`)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int] | tuple[str, int, int]] = []

    async def table_changed(self, table_id: int) -> None:
        self.calls.append(("table_changed", table_id))

    async def round_started(self, table_id: int) -> None:
        self.calls.append(("round_started", table_id))

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        self.calls.append(("turn_reminder", table_id, seat))

    async def table_closed(self, table_id: int) -> None:
        self.calls.append(("table_closed", table_id))

    def of(self, kind: str) -> list[tuple[int, ...]]:
        return [call[1:] for call in self.calls if call[0] == kind]
