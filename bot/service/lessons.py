"""Guided hands (`/<game> learn`, issue #40): lesson tables and the learner's moves.

It says which tables are lessons, and what the lesson makes of a move the learner tries, judged
on the live round under the table's lock (read only: nothing changes, nothing is published).

A lesson table is an ordinary table whose bot players play at the `lesson` level (the game's
script, `games.<game>.lesson`), coached and so unrated; the level is stored with the table, so
a restarted bot knows its lessons again."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from bot.runtime.policy import LESSON_LEVEL
from bot.service.tables import Tables
from games.contract import Round
from games.lesson import Lesson, Step, Verdict, lesson_of

if TYPE_CHECKING:
    from bot.service.service import TableService


def lesson_at(service: TableService, table_id: int) -> Lesson | None:
    """The lesson played at this table (None: not a lesson table, or not loaded here)."""
    if not service.loaded(table_id):
        return None
    table = service._table(table_id)
    if table.bots != LESSON_LEVEL:
        return None
    return lesson_of(table.game)


@asynccontextmanager
async def _lesson_round(
    service: TableService, table_id: int, user_id: int
) -> AsyncIterator[tuple[Lesson, int, Round[Any, Any, Any]] | None]:
    """The lesson, the user's seat and the round in play, held under the table's lock while
    the caller reads them (None: no lesson here, or no round in play)."""
    async with service.tables.reading(table_id) as (table, _notes):
        if table.bots != LESSON_LEVEL:
            yield None
            return
        lesson = lesson_of(table.game)
        seat = Tables.need_seat(table, user_id)
        round_ = table.round
        if lesson is None or round_ is None or round_.finished:
            yield None
        else:
            yield lesson, seat, round_


async def judge_move(
    service: TableService, table_id: int, user_id: int, notation: str | Sequence[str]
) -> Verdict | None:
    """What the lesson says of the user's move `notation` now, or of several moves played in
    order by one click (None: no lesson here, or no round in play: the service's own checks
    answer)."""
    notations = [notation] if isinstance(notation, str) else list(notation)
    async with _lesson_round(service, table_id, user_id) as found:
        if found is None:
            return None
        lesson, seat, round_ = found
        return lesson.judge_all(round_, seat, notations)


async def learner_step(service: TableService, table_id: int, user_id: int) -> Step | None:
    """The user's next move in the lesson played at this table (None: no lesson here, no round
    in play, or nothing left for them in the script)."""
    async with _lesson_round(service, table_id, user_id) as found:
        if found is None:
            return None
        lesson, seat, round_ = found
        return lesson.next_step(round_.history, seat)
