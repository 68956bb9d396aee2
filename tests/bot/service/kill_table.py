"""A table service played to a moment, then frozen until it is killed (tests/bot/service/
test_restart_log.py): `python -m tests.bot.service.kill_table LOCATION GAME MOMENT`.

One human (Ann, who clicks what the simple bot would) and Bob sit with bot players; the
clock is a fake one, so nothing moves by itself. Once at `MOMENT` (`mid_round`: a few clicks,
a timeout, a click; `round_end`: a player away after two timeouts, the first round over,
before Next round, and the player back to look at their cards; `rematch`: a match
to 1 point over, a rematch, the new match's first round a few clicks in), it prints the
table's id and its public log as the table message shows it (JSON, one line), then waits to
be killed (SIGKILL: nothing closes).
"""

from __future__ import annotations

import asyncio
import json
import sys
from itertools import count

from bot.service import (
    FINISHED,
    LOBBY,
    PLAYING,
    ROUND_OVER,
    FakeClock,
    PlayerRef,
    RecordingNotifier,
    TableService,
)
from bot.service._table_log import kept
from storage import Store

GUILD, CHANNEL = 1, 10
ANN, BOB = PlayerRef(100, "Ann"), PlayerRef(101, "Bob")
HUMANS = {ANN.user_id, BOB.user_id}
MOVES_LIMIT = 2_000  # clicks before a test's moment is reached, at most: a bug, not a game


async def click(service: TableService, table_id: int) -> bool:
    """The human whose turn it is plays the simple bot's choice; False: no human to play."""
    snapshot = service.public_snapshot(table_id)
    if snapshot.status != PLAYING or snapshot.round_no is None:
        return False
    humans = [s for s in snapshot.to_act if snapshot.seats[s].user_id in HUMANS]
    if not humans:
        return False
    seat = humans[0]
    user_id = snapshot.seats[seat].user_id
    assert user_id is not None
    table = service.tables.live[table_id]
    move = service.play.policy_move(table, seat, default=False)
    await service.play.act(table_id, user_id, snapshot.round_no, str(move))
    await service.followup.settle(table_id)
    return True


async def play_round(service: TableService, table_id: int) -> None:
    """Click until the round is over (the match may be over with it)."""
    for _ in range(MOVES_LIMIT):
        if service.public_snapshot(table_id).status in (ROUND_OVER, FINISHED):
            return
        if not await click(service, table_id):
            await service.followup.settle(table_id)
    raise AssertionError(f"table {table_id}: the round never ended")


async def time_out_until_away(service: TableService, clock: FakeClock, table_id: int) -> int:
    """Let the humans' turns time out until one of them is away (played by a bot)."""
    for _ in range(MOVES_LIMIT):
        snapshot = service.public_snapshot(table_id)
        for seat in snapshot.seats:
            if seat.away and seat.user_id is not None:
                return seat.user_id
        deadline = snapshot.turn_deadline
        assert deadline is not None, "no turn to time out"
        await clock.advance(deadline - clock.now() + 1)
        await service.followup.settle(table_id)
    raise AssertionError(f"table {table_id}: nobody went away")


async def reach(service: TableService, clock: FakeClock, game: str, moment: str) -> int:
    target = 1 if moment == "rematch" else None
    opened = await service.seating.open_table(
        GUILD, CHANNEL, ANN, game, target=target, bots="simple"
    )
    table_id = opened.table_id
    await service.seating.join(table_id, BOB)
    await service.seating.fill_with_bots(table_id, ANN.user_id)
    await service.seating.start(table_id, ANN.user_id)
    await service.followup.settle(table_id)
    if moment == "round_end":
        away = await time_out_until_away(service, clock, table_id)
        await play_round(service, table_id)
        await service.play.private_view(table_id, away)  # back: a line no other write keeps
    elif moment == "mid_round":
        for _ in range(3):
            await click(service, table_id)
        turn = service.public_snapshot(table_id).turn_deadline
        assert turn is not None
        await clock.advance(turn - clock.now() + 1)  # a human's turn times out
        await service.followup.settle(table_id)
        await click(service, table_id)
    else:
        for _ in range(MOVES_LIMIT):
            status = service.public_snapshot(table_id).status
            if status == FINISHED:
                break
            if status == ROUND_OVER:
                await service.play.next_round(table_id, ANN.user_id)
                await service.followup.settle(table_id)
            else:
                await play_round(service, table_id)
        assert service.public_snapshot(table_id).status == FINISHED
        await service.seating.rematch(table_id, ANN.user_id)
        assert service.public_snapshot(table_id).status == LOBBY
        await service.seating.start(table_id, ANN.user_id)
        await service.followup.settle(table_id)
        for _ in range(2):
            await click(service, table_id)
    return table_id


async def main(location: str, game: str, moment: str) -> None:
    store = await Store.open(location)
    clock = FakeClock(start=1_900_000_000.0)
    seeds = count(11)
    service = TableService(store, clock, RecordingNotifier(), lambda: next(seeds))
    table_id = await reach(service, clock, game, moment)
    log = [kept(entry) for entry in service.public_snapshot(table_id).log]
    print(json.dumps({"table_id": table_id, "log": log}), flush=True)
    await asyncio.Event().wait()  # frozen here until killed


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
