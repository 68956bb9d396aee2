"""The public log kept per table (storage/table_logs.py, V15), on both backends: written with
the seats, a round's start or end, or alone; read back with the table at a restart; gone with
the table's end or its guild; a damaged row loses the log, never the table; a database from
before V15 migrates and its tables load without a kept log; a forgotten user's names go."""

from __future__ import annotations

from typing import Any

from games.contract import Event
from storage import SeatRecord, Store, TableLog
from storage.privacy import FORMER_PLAYER
from tests.games.toygame import GAME as TOY
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy

ZOE = 987654321012345678  # found nowhere else, so a scan can look for her
ZOE_NAME = "Zoe 987654321012345678"
MAX = 555000111


def line(kind: str, **data: Any) -> dict[str, Any]:
    return {"kind": kind, "seat": None, "data": data, "source": "table"}


async def kept(store: Store, table_id: int) -> tuple[TableLog | None, str | None]:
    (active,) = (await store.load_active_tables(table_ids=[table_id])).tables
    return active.kept_log, active.kept_log_error


async def test_a_log_kept_with_a_round_s_start_and_end_is_read_back_with_its_round(
    store: Store,
) -> None:
    table = await ToyTable.open(store, target=1000)
    await store.save_seats(
        table.id,
        await store.get_seats(table.id),
        log=TableLog(entries=[line("opened", name="Ann")]),
    )
    assert await kept(store, table.id) == (TableLog(entries=[line("opened", name="Ann")]), None)

    table.round = table.match.new_round(seed=3)
    started = TableLog(entries=[line("round_started", round=1)], round_no=None, actions=0)
    table.round_no = await store.start_round(table.id, table.round.record(), log=started)
    await table.play("draw")
    # taken in the round the store numbered, before its first action
    assert await kept(store, table.id) == (started.model_copy(update={"round_no": 0}), None)

    await table.play("draw")
    alone = TableLog(entries=[line("timeout", name="Ann")], round_no=0, actions=2)
    await store.save_table_log(table.id, alone)
    assert await kept(store, table.id) == (alone, None)

    while not table.round.finished:
        await table.play("draw")
    result = table.round.result()
    table.match.add_round(result)
    ended = TableLog(entries=[line("round_over")], round_no=0, actions=len(table.round.history))
    await store.finish_round(table.id, 0, result, list(table.match.totals), log=ended)
    assert await kept(store, table.id) == (ended, None)


async def test_a_refused_round_start_keeps_no_log(store: Store) -> None:
    table = await ToyTable.open(store, target=1000)
    await table.new_round(seed=1)  # open: a second start is refused
    before = await kept(store, table.id)
    refused = TableLog(entries=[line("round_started", round=2)])
    try:
        await store.start_round(table.id, table.match.new_round(seed=2).record(), log=refused)
    except Exception as error:  # the store's refusal, alone
        assert "not finished" in str(error)
    else:
        raise AssertionError("a second open round was accepted")
    assert await kept(store, table.id) == before


async def test_a_table_that_ends_or_whose_guild_goes_takes_its_log_along(
    store: Store, location: Location
) -> None:
    finished, abandoned, gone = [await ToyTable.open(store, guild_id=g) for g in (1, 1, 2)]
    for table in (finished, abandoned, gone):
        await store.save_table_log(table.id, TableLog(entries=[line("started", players=2)]))
    await store.update_table(finished.id, status="finished")
    await store.save_seats(abandoned.id, [], status="abandoned", log=TableLog(entries=[]))
    await store.forget_guild(2)
    assert await raw_sql(location, "SELECT COUNT(*) FROM table_logs") == [(0,)]


async def test_a_damaged_kept_log_loses_the_log_not_the_table(
    store: Store, location: Location
) -> None:
    table = await ToyTable.open(store)
    await store.save_table_log(table.id, TableLog(entries=[line("started", players=2)]))
    await raw_sql(
        location, "UPDATE table_logs SET entries = ? WHERE table_id = ?", ("{no", table.id)
    )
    loaded = await store.load_active_tables(table_ids=[table.id])
    assert loaded.broken == [] and [t.table.id for t in loaded.tables] == [table.id]
    log, error = await kept(store, table.id)
    assert log is None and error is not None and "JSON" in error


async def test_a_database_from_before_kept_logs_migrates_and_loads_its_tables_without_one(
    location: Location,
) -> None:
    async with await Store.open(location, games_resolver=resolve_toy, target_version=14) as old:
        table = await ToyTable.open(old, target=1000)
        await table.new_round(seed=5)
        await table.play("draw")
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert store.schema_version >= 15
        (active,) = (await store.load_active_tables(table_ids=[table.id])).tables
        assert active.round is not None and active.kept_log is None is active.kept_log_error
        shown: list[Event] = []  # what the restore rebuilds the log from, as before V15
        TOY.replay(table.round.record(), shown)
        assert active.log == shown


async def test_forgetting_a_user_scrubs_their_names_from_kept_logs_and_keeps_the_others(
    store: Store, location: Location
) -> None:
    table = await store.create_table(1, 2, "toy", {"target": 30}, host_id=MAX)
    entries = [
        {**line("joined", name=ZOE_NAME), "users": [ZOE]},
        {**line("seats_swapped", names=[ZOE_NAME, "Max"]), "users": [ZOE, MAX]},
        {**line("left", name=ZOE_NAME), "users": [ZOE]},
        {**line("joined", name="Max"), "users": [MAX]},
        {"kind": "draw", "seat": 0, "data": {"stock": ZOE % 1000}, "source": "engine"},
    ]
    seats = [SeatRecord(seat=0, user_id=MAX, display_name="Max")]
    await store.save_seats(table.id, seats, log=TableLog(entries=entries))
    named = (await store.user_data(ZOE)).extra["table_logs"]  # their download lists them
    assert [(line["table_id"], line["kind"]) for line in named] == [
        (table.id, "joined"),
        (table.id, "seats_swapped"),
        (table.id, "left"),
    ]

    await store.forget_user(ZOE)
    [(text,)] = await raw_sql(location, "SELECT entries FROM table_logs")
    assert str(ZOE) not in text and ZOE_NAME not in text
    log, _ = await kept(store, table.id)
    assert log is not None
    assert [e["data"] for e in log.entries] == [
        {"name": FORMER_PLAYER},
        {"names": [FORMER_PLAYER, "Max"]},
        {"name": FORMER_PLAYER},
        {"name": "Max"},
        {"stock": ZOE % 1000},
    ]
    assert [e.get("users") for e in log.entries] == [[None], [None, MAX], [None], [MAX], None]
    assert (await store.user_data(ZOE)).empty
