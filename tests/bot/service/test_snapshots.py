"""What each viewer gets: private reveals once, the public table without hidden cards, and
structured log lines."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from bot.service import PLAYING, TableError, TableService, _snapshot_builder
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD, open_dutch


async def test_a_peek_is_shown_in_the_click_result_and_never_again(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    result = await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert [(r.kind, r.data["slot"]) for r in result.reveals] == [("see", 3), ("see", 4)]
    grid = result.private.view.grids[0]
    assert [s.card is not None for s in grid] == [False, False, True, True]
    later = await service.play.private_view(table_id, ANN.user_id)
    assert later.reveals == () and later.view.reveals == ()
    assert all(s.card is None for s in later.view.grids[0])


async def test_the_public_snapshot_holds_views_seats_and_structured_log(
    service: TableService,
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    snapshot = service.public_snapshot(table_id)
    assert snapshot.status == PLAYING and snapshot.to_act == (1,) and snapshot.turn == 1
    assert snapshot.view.viewer is None
    assert all(s.card is None for grid in snapshot.view.grids for s in grid)
    assert [s.name for s in snapshot.seats] == ["Ann", "Bob"]
    assert snapshot.seat_of(BOB.user_id) == 1
    peek = snapshot.log[-1]
    assert (peek.kind, peek.seat, peek.source, peek.data) == (
        "peek",
        0,
        "engine",
        {"slots": [3, 4]},
    )
    assert all(e.kind != "see" for e in snapshot.log)  # private events never reach the table


async def test_my_cards_shows_the_seat_view_and_its_legal_actions(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    private = await service.play.private_view(table_id, BOB.user_id)
    assert (
        private.seat == 1
        and private.round_no == 0
        and private.legal == tuple(f"peek {a} {b}" for a in range(1, 5) for b in range(a + 1, 5))
    )
    assert private.my_turn and private.view.viewer == 1


async def test_game_of_names_the_tables_game_and_refuses_an_unknown_table(
    service: TableService,
) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
    assert service.game_of(snapshot.table_id).name == "dutch"
    with pytest.raises(TableError) as refused:
        service.game_of(snapshot.table_id + 99)
    assert refused.value.key == "no_table"


async def test_a_seat_as_shown_is_reused_only_while_nothing_of_it_changed(
    service: TableService,
) -> None:
    """The public snapshot keeps the last published seat infos that still hold, and shows every
    change of a seat (each field, alone) in a new one, like a snapshot built from scratch."""
    table_id = await open_dutch(service, [ANN, BOB])
    table = service._table(table_id)
    published = table.published
    assert published is not None
    again = _snapshot_builder.public_snapshot(table)
    assert all(a is b for a, b in zip(again.seats, published.seats, strict=True))
    match = table.match
    assert match is not None
    changes: list[Callable[[], object]] = [
        lambda: setattr(table.seats[0], "away", True),
        lambda: setattr(table.seats[0], "name", "Annie"),
        lambda: setattr(table.seats[0], "is_bot", True),
        lambda: setattr(table.seats[0], "user_id", 77),
        lambda: setattr(table.seats[0], "position", 5),
        lambda: setattr(table.seats[0], "left_at", datetime.now(UTC)),
        lambda: match.totals.__setitem__(0, 12),
    ]
    for change in changes:
        table.published = published
        change()
        shown = _snapshot_builder.public_snapshot(table).seats
        table.published = None
        assert shown == _snapshot_builder.public_snapshot(table).seats
        assert shown[0] is not published.seats[0] and shown[1] is published.seats[1]
        published = dataclasses.replace(published, seats=shown)
