"""Keeping long-lived objects out of the cycle collector's way.

A table in memory is thousands of objects (its engine round, seats, log, snapshots) that live
for minutes to hours. CPython's full collection walks every tracked object: with 10,000 tables
that is 0.4 s, every few seconds under load, and every click waits behind it. `gc.freeze()`
moves the objects alive now to a permanent generation the collector never walks; they are
still freed by reference counting when they die, which is how a closed table goes (it holds no
reference cycle: the soak checks memory stays flat).

So the service freezes after a restart's tables are loaded, every `FREEZE_EVERY` tables it
builds and every `FREEZE_EVERY_CLICKS` clicks (a click replaces its table's snapshot and round
state: 10,000 tables' current ones, unfrozen, made each full collection walk millions of
objects again), each time after a young collection (`gc.collect(1)`, milliseconds) so that the
short-lived garbage of the moment (Discord views are cycles) is freed rather than frozen.
"""

from __future__ import annotations

import gc

FREEZE_EVERY = 200  # tables built between two freezes: the unfrozen rest stays small
FREEZE_EVERY_CLICKS = 1_000  # about a second at 1,000 clicks/s


class LongLived:
    def __init__(self, every: int = FREEZE_EVERY, clicks: int = FREEZE_EVERY_CLICKS) -> None:
        self._every = every
        self._built = 0
        self._every_clicks = clicks
        self._clicks = 0

    def clicked(self) -> None:
        self._clicks += 1
        if self._clicks >= self._every_clicks:
            self.freeze()

    def built(self, tables: int = 1) -> None:
        """`tables` tables were built (opened, or loaded at a restart)."""
        self._built += tables
        if self._built >= self._every:
            self.freeze()

    def freeze(self) -> None:
        self._built = 0
        self._clicks = 0
        gc.collect(1)
        gc.freeze()
