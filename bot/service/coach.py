"""Practice tables with a coach (issue #40): the table option and what it changes in the service.

The option is stored beside the game's options like the bot level. A coached table is unrated
(its matches are kept for the players' history but change no rating, leaderboard or season), its
players may ask for a hint, and each human is offered the review of their play after each hand."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.service._locks import TableLock
from bot.service.errors import TableError
from bot.service.tables import Tables
from bot.snapshots import LOBBY, PLAYING
from games.coach import Hint, HintStep, hint_from_json

if TYPE_CHECKING:
    from bot.service.service import TableService

COACH_OPTION = "coach"  # the table option's key, stored beside the game's options


def coached(stored_options: Mapping[str, Any]) -> bool:
    """Whether a stored table's options ask for a coach (tables opened before it: no)."""
    return stored_options.get(COACH_OPTION) is True


HINT_BUDGET = 0.12  # seconds of the strong bot's search for a hint, as for its own moves


async def hint_for(
    service: TableService, table_id: int, user_id: int, round_no: int, seed: int
) -> tuple[int, Hint]:
    """The coach's hint for the user's seat at this coached table, now: (seat, hint). The
    round is read under the table's lock, the hint is found by a bot worker
    (`PolicyRunner.chore`) with the lock free; a hint for a moment gone by meanwhile is
    refused. Refusals are `TableError`s: not seated, no coach here, a button of an earlier
    round, not the seat's turn, the game moved on."""
    async with TableLock(service.tables, None, table_id=table_id, read_only=True) as (
        table,
        _notes,
    ):
        seat = Tables.need_seat(table, user_id)
        if not table.coach:
            raise TableError("coach.not_coached")
        if table.status == LOBBY:
            raise TableError("not_started")
        if round_no != table.round_no:
            raise TableError("stale_button")
        round_ = table.round
        if table.status != PLAYING or round_ is None or round_.finished:
            raise TableError("round_over")
        if seat not in round_.to_act():
            raise TableError("not_your_turn")
        record, moves = round_.record(), len(round_.history)
    hint = HintStep(record, seat, seed)  # a person waits: among the bots' moves (pool.py)
    answer = await service.followup.runner.chore(hint, HINT_BUDGET, urgent=True)
    found = hint_from_json(json.loads(answer))
    table = service._table(table_id)
    now = table.round
    if table.round_no != round_no or now is None or len(now.history) != moves:
        raise TableError("coach.moved_on")
    return seat, found
