"""Ratings of the real team games: partners (seats 0+2, 1+3) move together."""

from __future__ import annotations

import pytest

from games.match import Match
from games.registry import get_game
from storage import SeatRecord, Store
from tests.storage.conftest import Location


@pytest.mark.parametrize("game_name", ["euchre", "dame"])
async def test_partners_share_the_win_and_the_rating_change(
    location: Location, game_name: str
) -> None:
    game = get_game(game_name)
    async with await Store.open(location) as store:
        table = await store.create_table(5, 6, game_name, {}, host_id=1)
        await store.save_seats(
            table.id,
            [SeatRecord(seat=s, user_id=10 + s, display_name=f"p{s}") for s in range(4)],
        )
        await store.start_match(table.id, Match(game, game.options(), 4).state())
        await store.finish_match(table.id, [1, 3], [4, 10])
        rows = {row.user_id: row for row in await store.leaderboard(5, game_name)}
    assert (rows[11].wins, rows[13].wins, rows[10].wins, rows[12].wins) == (1, 1, 0, 0)
    assert rows[11].mu == pytest.approx(rows[13].mu) and rows[11].mu > 25
    assert rows[10].mu == pytest.approx(rows[12].mu) and rows[10].mu < 25
    assert (rows[11].points, rows[10].points) == (10, 4)
