"""Property: whatever anyone clicks, whenever the timers fire, the service answers every call
with a snapshot or a TableError, and the round in memory equals the round on disk."""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import PLAYING, FakeClock, NullNotifier, PlayerRef, TableError, TableService
from games.dutch import GAME
from storage import Store

PEOPLE = [PlayerRef(300 + i, f"P{i}") for i in range(3)]
OUTSIDER = PlayerRef(399, "Nobody")
JUNK = ["", "draw draw", "swap 0", "look 9:9", "peek 1 1", "jack 1 0:1", "match 7"]

step = st.tuples(
    st.sampled_from(["act", "act", "act", "view", "wait", "next"]),
    st.integers(0, 3),  # who: a seated player or the outsider
    st.integers(-1, 1),  # round number offset
    st.integers(0, 40),  # which notation (legal ones first, then junk)
    st.integers(1, 100),  # seconds to wait
)


async def run(steps: list[tuple[str, int, int, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "t.sqlite3", synchronous="NORMAL")
        try:
            seeds = itertools.count(11)
            clock = FakeClock()
            service = TableService(store, clock, NullNotifier(), lambda: next(seeds))
            table = await service.seating.open_table(1, 1, PEOPLE[0], "dutch", target=20)
            for person in PEOPLE[1:]:
                await service.seating.join(table.table_id, person)
            await service.seating.start(table.table_id, PEOPLE[0].user_id)
            table_id = table.table_id
            # in play: the comparison of whose turn it is (only while playing) is made here
            assert service.public_snapshot(table_id).status == PLAYING
            await assert_memory_equals_disk(service, store, table_id)
            for kind, who, offset, pick, seconds in steps:
                person = [*PEOPLE, OUTSIDER][who]
                snapshot = service.public_snapshot(table_id)
                try:
                    if kind == "act":
                        legal: list[str] = []
                        if snapshot.status == PLAYING and snapshot.to_act:
                            user = snapshot.seats[snapshot.to_act[0]].user_id
                            assert user is not None
                            legal = list((await service.play.private_view(table_id, user)).legal)
                        options = legal + JUNK
                        notation = options[pick % len(options)]
                        round_no = (snapshot.round_no or 0) + offset
                        await service.play.act(table_id, person.user_id, round_no, notation)
                    elif kind == "view":
                        await service.play.private_view(table_id, person.user_id)
                    elif kind == "next":
                        await service.play.next_round(table_id, person.user_id)
                    else:
                        await clock.advance(seconds)
                except TableError:
                    pass
                await assert_memory_equals_disk(service, store, table_id)
        finally:
            await store.close()


async def assert_memory_equals_disk(service: TableService, store: Store, table_id: int) -> None:
    snapshot = service.public_snapshot(table_id)
    if snapshot.round_no is None:
        return
    replayed = GAME.replay(await store.load_round(table_id, snapshot.round_no))
    assert replayed.public_view() == snapshot.view
    if snapshot.status == PLAYING:
        assert replayed.to_act() == snapshot.to_act


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(step, min_size=5, max_size=60))
def test_any_clicks_and_timeouts_keep_memory_equal_to_disk(
    steps: list[tuple[str, int, int, int, int]],
) -> None:
    asyncio.run(run(steps))
