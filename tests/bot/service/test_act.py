"""Every click is checked (seat, table, round, turn, legality) and a refused click changes
nothing, in memory or on disk."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import error_text
from bot.service import ActResult, TableError, TableService
from storage import Store, StoreUnavailable
from tests.bot.service.conftest import ANN, BOB, CAT, FailingStore, open_dutch, peek_all


async def stored_actions(store: Store, table_id: int, round_no: int) -> list[tuple[int, str]]:
    return [tuple(a) for a in (await store.load_round(table_id, round_no)).actions]  # type: ignore[misc]


async def test_a_click_is_stored_before_act_returns(service: TableService, store: Store) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    result = await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert isinstance(result, ActResult)
    assert (result.seat, result.round_no, result.notation) == (0, 0, "peek 3 4")
    assert await stored_actions(store, table_id, 0) == [(0, "peek 3 4")]
    assert [e.kind for e in result.events] == ["peek"]


async def test_not_seated_wrong_turn_and_stale_round_are_refused(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    turn = service.public_snapshot(table_id).turn
    waiting = ANN if turn == 1 else BOB
    cases = [
        (CAT.user_id, 0, "draw", "not_seated"),
        (waiting.user_id, 0, "draw", "not_your_turn"),
        (ANN.user_id, 1, "draw", "stale_button"),
        (ANN.user_id, -1, "draw", "stale_button"),
    ]
    before = service.public_snapshot(table_id)
    for user_id, round_no, notation, key in cases:
        with pytest.raises(TableError) as refused:
            await service.play.act(table_id, user_id, round_no, notation)
        assert refused.value.key == key
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id + 99, ANN.user_id, 0, "draw")
    assert refused.value.key == "no_table"
    assert service.public_snapshot(table_id).version == before.version


async def test_an_illegal_action_leaves_the_table_unchanged(
    service: TableService, store: Store
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    before = service.public_snapshot(table_id)
    player = ANN if before.turn == 0 else BOB
    for notation, rule in [("discard", "illegal:"), ("swap 9", "illegal:"), ("fly", "illegal:")]:
        with pytest.raises(TableError) as refused:
            await service.play.act(table_id, player.user_id, 0, notation)
        assert refused.value.key.startswith(rule) and refused.value.rule
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, player.user_id, 0, "fly")
    assert refused.value.key == "illegal:bad_notation"
    after = service.public_snapshot(table_id)
    assert after.view == before.view and after.version == before.version
    assert len(await stored_actions(store, table_id, 0)) == 2


async def test_a_double_click_gets_a_clear_error_and_changes_nothing(
    service: TableService, store: Store
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    first = await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert refused.value.key == "not_your_turn"  # Ann's peek is done; only Bob must peek
    assert first.private.legal == ()
    assert await stored_actions(store, table_id, 0) == [(0, "peek 3 4")]


async def test_two_clicks_at_once_are_handled_one_after_the_other(
    service: TableService, store: Store
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    player = ANN if service.public_snapshot(table_id).turn == 0 else BOB
    outcomes = await asyncio.gather(
        service.play.act(table_id, player.user_id, 0, "draw"),
        service.play.act(table_id, player.user_id, 0, "draw"),
        return_exceptions=True,
    )
    done = [o for o in outcomes if isinstance(o, ActResult)]
    refused = [o for o in outcomes if isinstance(o, TableError)]
    assert len(done) == 1 and len(refused) == 1
    assert refused[0].key.startswith("illegal:")
    actions = await stored_actions(store, table_id, 0)
    assert actions[-1][1] == "draw" and [a for _, a in actions].count("draw") == 1


async def test_acts_on_two_tables_at_once_do_not_wait_for_each_other(
    service: TableService,
) -> None:
    first = await open_dutch(service, [ANN, BOB])
    second = await open_dutch(service, [CAT], start=False)
    await service.seating.add_bot(second, CAT.user_id)
    await service.seating.start(second, CAT.user_id)
    results = await asyncio.gather(
        service.play.act(first, ANN.user_id, 0, "peek 3 4"),
        service.play.act(second, CAT.user_id, 0, "peek 3 4"),
    )
    assert [r.table_id for r in results] == [first, second]


async def test_a_click_while_the_database_is_unreachable_is_refused_and_works_once_back(
    store: Store, service: TableService
) -> None:
    failing = FailingStore(store)
    service.store = failing  # type: ignore[assignment]
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    player = ANN if service.public_snapshot(table_id).turn == 0 else BOB
    before = service.public_snapshot(table_id)
    failing.failing, failing.error = {"record_action"}, StoreUnavailable("server gone")
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, player.user_id, 0, "draw")
    assert refused.value.key == "store_unavailable" and not refused.value.params
    assert service.public_snapshot(table_id).view == before.view
    failing.failing.clear()
    assert (await service.play.act(table_id, player.user_id, 0, "draw")).notation == "draw"


async def test_a_failed_store_write_is_rolled_back_so_memory_equals_disk(
    store: Store, service: TableService
) -> None:
    failing = FailingStore(store)
    service.store = failing  # type: ignore[assignment]
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    player = ANN if service.public_snapshot(table_id).turn == 0 else BOB
    before = service.public_snapshot(table_id)
    failing.failing = {"record_action"}
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, player.user_id, 0, "draw")
    assert refused.value.key == "store_failed"
    assert service.public_snapshot(table_id).view == before.view
    failing.failing.clear()
    result = await service.play.act(table_id, player.user_id, 0, "draw")
    assert result.notation == "draw"
    assert [a for _, a in await stored_actions(store, table_id, 0)][-1] == "draw"


async def test_a_failed_save_tells_a_short_error_id_and_logs_the_details(
    store: Store, service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    """The store's error may name the database file: the user reads one sentence with a short
    id, the log has the same id and the error."""
    failing = FailingStore(store)
    service.store = failing  # type: ignore[assignment]
    table_id = await open_dutch(service, [ANN, BOB])
    failing.failing, failing.error = {"record_action"}, OSError("/srv/secret/cards.sqlite3 full")
    with pytest.raises(TableError) as refused:
        await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert refused.value.key == "store_failed" and set(refused.value.params) == {"error_id"}
    error_id = refused.value.params["error_id"]
    for language in ("en", "fr"):
        told = error_text(language, "store_failed", **refused.value.params)
        assert error_id in told and "/srv/secret" not in told and "\n" not in told
    (logged,) = [r for r in caplog.records if error_id in r.getMessage()]
    assert "/srv/secret/cards.sqlite3 full" in logged.getMessage()
