"""The collector is kept off the long-lived tables, and a cycle that died frozen is still
freed: counted freezes, no clock, no sleep."""

from __future__ import annotations

import gc
import weakref

from bot.runtime.long_lived import YOUNG_THRESHOLD, LongLived


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_a_cycle_frozen_while_alive_then_dropped_is_collected_by_a_later_freeze() -> None:
    memory = LongLived(every=1_000, moves=1, full_every=3)
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        memory.moved()  # freeze 1: the cycle is alive, so it is frozen
        del a, b
        gc.collect()
        assert alive() is not None  # a full collection does not walk frozen objects
        memory.moved()  # freeze 2: a freeze only
        assert alive() is not None and memory.full_collections == 0
        memory.moved()  # freeze 3: unfreeze, full collection, freeze again
        assert memory.full_collections == 1
        assert alive() is None
    finally:
        gc.unfreeze()


def test_tables_built_count_toward_a_freeze() -> None:
    memory = LongLived(every=2, moves=1_000, full_every=1_000)
    try:
        gc.unfreeze()
        kept = [Node() for _ in range(10)]
        memory.built()
        assert gc.get_freeze_count() == 0
        memory.built()
        assert gc.get_freeze_count() > 0 and kept
    finally:
        gc.unfreeze()


def test_young_collections_wait_for_more_new_objects_than_cpythons_default() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # CPython's default
        LongLived()
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
        gc.set_threshold(YOUNG_THRESHOLD * 2, 10, 10)  # a higher one set by the process stays
        LongLived()
        assert gc.get_threshold() == (YOUNG_THRESHOLD * 2, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_a_freeze_walks_no_object_but_the_daily_full_collection() -> None:
    """A freeze stops the loop for no collection: the young collection it once began with
    walked what the last moves made (45-160 ms every 1,000 moves at 1,000 tables of bots)."""
    memory = LongLived(every=1_000, moves=2, full_every=3)
    collections: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(note)
    try:
        for _ in range(4):  # two freezes
            memory.moved()
        assert memory.freezes == 2 and collections == []
        memory.moved()
        memory.moved()  # the third freeze: the full collection
        assert memory.full_collections == 1 and collections == [2]
    finally:
        gc.callbacks.remove(note)
        gc.unfreeze()
