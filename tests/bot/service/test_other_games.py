"""The service is not Dutch-specific: seat ranges come from the game, and a Euchre or Dame de
Pique match with bot players runs to the end with the human's stats stored, every bot move
being the policy's own."""

from __future__ import annotations

import logging
import random

import pytest

from bot.service import FINISHED, ROUND_OVER, TableError, TableService
from games.registry import get_game
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CHANNEL, GUILD


@pytest.mark.parametrize("game", ["euchre", "dame"])
async def test_a_team_game_runs_to_the_end_with_bot_partners(
    service: TableService, store: Store, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, game)
    assert (table.min_seats, table.max_seats) == (get_game(game).min_seats, 4)
    await service.seating.join(table.table_id, BOB)
    with pytest.raises(TableError) as refused:
        await service.seating.start(table.table_id, ANN.user_id)
    assert refused.value.key == "players_exactly"
    assert refused.value.params == {"game": game, "count": 4}
    await service.seating.add_bot(table.table_id, ANN.user_id)
    await service.seating.add_bot(table.table_id, ANN.user_id)
    await service.seating.start(table.table_id, ANN.user_id)
    rng = random.Random(5)
    for _ in range(3_000):
        await service.followup.settle(table.table_id)  # the bots' moves that follow each click
        snapshot = service.public_snapshot(table.table_id)
        if snapshot.status == FINISHED:
            break
        if snapshot.status == ROUND_OVER:
            await service.play.next_round(table.table_id, ANN.user_id)
            continue
        user_id = snapshot.seats[snapshot.to_act[0]].user_id
        assert user_id in (ANN.user_id, BOB.user_id)  # bots never wait for a click
        choice = service.bot_choice(table.table_id, user_id, rng)
        assert choice is not None and snapshot.round_no is not None
        await service.play.act(table.table_id, user_id, snapshot.round_no, choice)
    assert snapshot.status == FINISHED and snapshot.winners
    assert snapshot.totals[0] == snapshot.totals[2]  # partners share a total
    stats = await store.player_stats(GUILD, ANN.user_id, game)
    assert stats.matches == 1 and stats.wins == (1 if 0 in snapshot.winners else 0)
    # every bot move was the policy's own (Dame's bigger melds and adds are legal moves too)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
