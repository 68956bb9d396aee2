"""The hub folds a burst of changes at a table into one more frame, and still ends every page on
the table's last version, even when the table was being changed when that frame was due."""

from __future__ import annotations

import json
from typing import Any

from bot.activity import hub as hub_module
from bot.activity.hub import ActivityHub, Page


class CountedTables:
    """A table whose version the test moves on, and how often frames were built for it."""

    def __init__(self) -> None:
        self.version = 0
        self.busy = False  # a move is being stored: frames need the table's lock
        self.built = 0
        self.waited = 0

    def page_opened(self, table_id: int, user_id: int) -> None:
        pass

    def page_closed(self, table_id: int, user_id: int) -> None:
        pass

    def _frame(self) -> dict[str, Any]:
        return {"type": "table", "table": {"version": self.version}, "me": None}

    def frames_now(
        self, table_id: int, viewers: set[tuple[int, str]]
    ) -> dict[tuple[int, str], dict[str, Any] | None]:
        self.built += 1
        return dict.fromkeys(viewers, None if self.busy else self._frame())

    async def current_frame(self, table_id: int, user_id: int, language: str) -> dict[str, Any]:
        self.waited += 1
        self.busy = False  # the lock, once had: the move was stored
        return self._frame()


def open_page(hub: ActivityHub, seen: list[int]) -> None:
    async def send(text: str) -> None:
        seen.append(json.loads(text)["table"]["version"])

    hub.open(Page(1, 7, "en", send))


async def test_a_burst_of_changes_is_one_frame_at_once_and_one_for_the_rest() -> None:
    tables = CountedTables()
    hub = ActivityHub(tables)  # type: ignore[arg-type]
    seen: list[int] = []
    open_page(hub, seen)
    for _ in range(5):  # a click, then the bots' answers milliseconds apart
        tables.version += 1
        hub.changed(1)
    await hub.idle()
    assert seen == [1, 5]
    assert tables.built == 2  # not one frame per change


async def test_a_change_after_a_quiet_table_is_pushed_on_its_own() -> None:
    tables = CountedTables()
    hub = ActivityHub(tables)  # type: ignore[arg-type]
    seen: list[int] = []
    open_page(hub, seen)
    for _ in range(3):
        tables.version += 1
        hub.changed(1)
        await hub.idle()
    assert seen == [1, 2, 3]


async def test_a_folded_frame_waits_for_a_table_being_changed_then_takes_its_lock() -> None:
    tables = CountedTables()
    hub = ActivityHub(tables)  # type: ignore[arg-type]
    seen: list[int] = []
    open_page(hub, seen)
    tables.version += 1
    hub.changed(1)
    tables.version += 1
    tables.busy = True  # the bot's next move holds the table, and never says it changed
    hub.changed(1)
    await hub.idle()
    assert seen == [1, 2]  # the page is not left behind
    assert tables.built == 2 + hub_module.BUSY_TRIES and tables.waited == 1
