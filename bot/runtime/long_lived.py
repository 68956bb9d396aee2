"""Keeping long-lived objects out of the cycle collector's way.

A table in memory is thousands of objects (its engine round, seats, log, snapshots) that live
for minutes to hours, and CPython's full collection walks every tracked object: with thousands
of tables that is a long pause every few seconds under load, and every click waits behind it
(docs/performance.md). `gc.freeze()` moves the objects alive now to a permanent generation the
collector never walks; they are still freed by reference counting when they die, which is how
a closed table goes (it holds no reference cycle: the soak checks memory stays flat). When the
service freezes, and how a cycle frozen alive is still freed, is on `LongLived`.
"""

from __future__ import annotations

import gc

FREEZE_EVERY = 200  # tables built between two freezes: the unfrozen rest stays small
FREEZE_EVERY_MOVES = 100  # a tenth of a second at 1,000 moves/s: a freeze costs nothing
FULL_COLLECT_EVERY = 864_000  # freezes between two full collections: about a day under load
# Young collections: at CPython's default threshold (one every 700 new tracked objects, net) a
# click's short-lived objects set off a young collection every few clicks, each walking what is
# young at that moment and finding little to free (what a click leaves alive is the table's new
# state, kept): a noticeable share of a click's CPU (docs/performance.md). One
# every YOUNG_THRESHOLD new objects instead: under load the freezes restart the count first; a
# quiet bot, whose freezes are rare, still collects its cycles (a few MB of them at most).
YOUNG_THRESHOLD = 20_000


class LongLived:
    """When the service freezes what is alive, and when it collects in full.

    The service freezes after a restart's tables are loaded, every `FREEZE_EVERY` tables it
    builds and every `FREEZE_EVERY_MOVES` moves stored, clicked or not (a move replaces its
    table's snapshot and round state: 10,000 tables' current ones, unfrozen, made each full
    collection walk millions of objects again; at tables of bots most moves are the bots').

    A freeze collects nothing first: `gc.freeze()` only moves the collector's lists, in constant
    time, and play makes no reference cycles to free (a run of the click bench with every
    unreachable object kept by `gc.DEBUG_SAVEALL` found only those made by imports before the
    first table: docs/performance.md). The young collection each freeze used to begin with
    walked what the moves since the last one had made, with the loop stopped. Now every
    `FREEZE_EVERY_MOVES` moves what they left alive is frozen, the young generation's count
    starts again, and under load the young collections (one per `YOUNG_THRESHOLD` new objects)
    hardly ever come; when the bot is quiet they run as usual and free what cycles there are.

    A reference cycle that is alive at a freeze and dropped later would never be collected, and
    a bot runs for months. So every `FULL_COLLECT_EVERY` freezes (about a day at 1,000 moves per
    second, longer when the bot is quieter, and so its cycles fewer) the freeze is preceded by
    `gc.unfreeze()` and a full collection: everything frozen since is walked once and its dead
    cycles are freed. That one pause is the full collection's (`python -m benchmarks.bot` prints
    it), so it comes once a day, not every few seconds; the cycles it frees are rare (the soak's
    memory stays flat without it).
    """

    def __init__(
        self,
        every: int = FREEZE_EVERY,
        moves: int = FREEZE_EVERY_MOVES,
        full_every: int = FULL_COLLECT_EVERY,
        young: int = YOUNG_THRESHOLD,
    ) -> None:
        threshold = gc.get_threshold()
        if threshold[0] < young:  # raised, never lowered (a process may have set its own)
            gc.set_threshold(young, *threshold[1:])
        self._every = every
        self._built = 0
        self._every_moves = moves
        self._moves = 0
        self.freezes = 0  # since it was made (tests count them)
        self._full_every = full_every
        self._freezes = 0
        self.full_collections = 0

    def moved(self) -> None:
        """A move was stored: a click, a bot's, a timeout's."""
        self._moves += 1
        if self._moves >= self._every_moves:
            self.freeze()

    def built(self, tables: int = 1) -> None:
        """`tables` tables were built (opened, or loaded at a restart)."""
        self._built += tables
        if self._built >= self._every:
            self.freeze()

    def freeze(self) -> None:
        self._built = 0
        self._moves = 0
        self.freezes += 1
        self._freezes += 1
        if self._freezes >= self._full_every:
            self._freezes = 0
            self.full_collections += 1
            gc.unfreeze()  # what was frozen is walked once: its dead cycles are freed
            gc.collect()
        gc.freeze()
