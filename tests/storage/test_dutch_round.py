"""A real Dutch match stored and recovered through the default games registry."""

from __future__ import annotations

import random
from typing import Any

from games.contract import Round
from games.match import Match
from games.registry import get_game
from storage import SeatRecord, Store
from tests.storage.conftest import Location


def play(round_: Round[Any, Any, Any], rng: random.Random, limit: int) -> list[tuple[int, str]]:
    """Random legal actions (no Dutch call before `limit` actions), returned as notation."""
    played = []
    while not round_.finished and (len(played) < limit or limit < 0):
        seat = round_.to_act()[0]
        legal = round_.legal_actions(seat)
        calm = [a for a in legal if str(a) != "dutch"] if len(played) < abs(limit) else legal
        action = rng.choice(calm or legal)
        round_.apply(seat, action)
        played.append((seat, str(action)))
    return played


async def test_a_dutch_match_survives_a_restart(location: Location) -> None:
    dutch = get_game("dutch")
    rng = random.Random(7)
    options = dutch.options("house", target=1000)
    async with await Store.open(location) as store:
        table = await store.create_table(1, 2, "dutch", options.model_dump(mode="json"), host_id=11)
        await store.save_seats(
            table.id,
            [SeatRecord(seat=s, user_id=11 + s, display_name=f"p{s}") for s in range(3)],
        )
        await store.update_table(table.id, status="playing")
        match = Match(dutch, options, 3)
        await store.start_match(table.id, match.state())

        first = match.new_round(seed=1)
        round_no = await store.start_round(table.id, first.record())
        for seq, (seat, notation) in enumerate(play(first, rng, limit=-12)):  # to the end
            await store.record_action(table.id, round_no, seq, seat, notation)
        match.add_round(first.result())
        await store.finish_round(table.id, round_no, first.result(), list(match.totals))

        second = match.new_round(seed=2)
        round_no = await store.start_round(table.id, second.record())
        for seq, (seat, notation) in enumerate(play(second, rng, limit=15)):
            await store.record_action(table.id, round_no, seq, seat, notation)

    async with await Store.open(location) as store:  # default resolver: games.registry
        loaded = await store.load_active_tables()
        assert loaded.broken == []
        (active,) = loaded.tables
        assert active.round_no == 1 and active.round is not None and active.match is not None
        assert active.round.record() == second.record()
        for seat in range(3):
            assert active.round.view(seat) == second.view(seat)
        assert active.round.public_view() == second.public_view()
        assert active.match.totals == match.totals
        assert await store.load_round(table.id, 0) == first.record()
