"""What each viewer gets: private reveals once, the public table without hidden cards, and
structured log lines."""

from __future__ import annotations

import pytest

from bot.service import PLAYING, TableError, TableService
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD, open_dutch


async def test_a_peek_is_shown_in_the_click_result_and_never_again(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    result = await service.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert [(r.kind, r.data["slot"]) for r in result.reveals] == [("see", 3), ("see", 4)]
    grid = result.private.view.grids[0]
    assert [s.card is not None for s in grid] == [False, False, True, True]
    later = await service.private_view(table_id, ANN.user_id)
    assert later.reveals == () and later.view.reveals == ()
    assert all(s.card is None for s in later.view.grids[0])


async def test_the_public_snapshot_holds_views_seats_and_structured_log(
    service: TableService,
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await service.act(table_id, ANN.user_id, 0, "peek 3 4")
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
    private = await service.private_view(table_id, BOB.user_id)
    assert (
        private.seat == 1
        and private.round_no == 0
        and private.legal == tuple(f"peek {a} {b}" for a in range(1, 5) for b in range(a + 1, 5))
    )
    assert private.my_turn and private.view.viewer == 1


async def test_game_of_names_the_tables_game_and_refuses_an_unknown_table(
    service: TableService,
) -> None:
    snapshot = await service.open_table(GUILD, CHANNEL, ANN, "dutch")
    assert service.game_of(snapshot.table_id).name == "dutch"
    with pytest.raises(TableError) as refused:
        service.game_of(snapshot.table_id + 99)
    assert refused.value.key == "no_table"
