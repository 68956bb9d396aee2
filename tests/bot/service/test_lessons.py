"""Lesson tables in the service (bot/service/lessons.py): the `lesson` bot level plays the
game's script, a lesson table stays one after a restart, and the learner's moves are judged
on the live round without changing it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.runtime.policy import LESSON_LEVEL, policy_for
from bot.service import FakeClock, RecordingNotifier, TableService
from bot.service.lessons import judge_move, lesson_at
from games.dutch import lesson as dutch_lesson
from games.lesson import EXPECTED, ILLEGAL, LEARNER, WRONG
from games.registry import get_game
from storage import Store
from tests.bot.service.conftest import ANN, CHANNEL, GUILD

LESSON = dutch_lesson.LESSON


def test_the_lesson_level_plays_the_script_and_its_timeouts_too() -> None:
    policy = policy_for(get_game("dutch"), LESSON_LEVEL)
    assert policy._choose is dutch_lesson.choose_action
    assert policy._default is dutch_lesson.default_action


async def _lesson_table(service: TableService) -> int:
    snapshot = await service.seating.open_table(
        GUILD, CHANNEL, ANN, "dutch", LESSON.preset, LESSON.target, LESSON_LEVEL, coach=True
    )
    table_id = snapshot.table_id
    await service.seating.add_bot(table_id, ANN.user_id)
    service.stack_deck(table_id, LESSON.cards())
    await service.seating.start(table_id, ANN.user_id)
    await service.followup.settle(table_id)
    return table_id


async def test_the_bots_of_a_lesson_table_play_the_script(service: TableService) -> None:
    table_id = await _lesson_table(service)
    for step in LESSON.seat_steps(LEARNER):
        verdict = await judge_move(service, table_id, ANN.user_id, step.move)
        assert verdict is not None and verdict.kind == EXPECTED and verdict.step is step
        await service.play.act(table_id, ANN.user_id, 0, step.move)
        await service.followup.settle(table_id)
    round_ = service._table(table_id).round
    assert round_ is not None and round_.finished
    assert [(s, str(a)) for s, a in round_.history] == [(s.seat, s.move) for s in LESSON.steps]


async def test_a_wrong_or_illegal_move_is_judged_and_nothing_changes(
    service: TableService,
) -> None:
    table_id = await _lesson_table(service)
    before = list(service._table(table_id).round.history)  # type: ignore[union-attr]
    wrong = await judge_move(service, table_id, ANN.user_id, "peek 1 2")
    assert wrong is not None and wrong.kind == WRONG and wrong.key == "peek.wrong"
    illegal = await judge_move(service, table_id, ANN.user_id, "swap 7")
    assert illegal is not None and illegal.kind == ILLEGAL and illegal.rule == "peek_first"
    assert service._table(table_id).round.history == before  # type: ignore[union-attr]


async def test_an_ordinary_table_is_no_lesson(service: TableService) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
    await service.seating.add_bot(snapshot.table_id, ANN.user_id)
    await service.seating.start(snapshot.table_id, ANN.user_id)
    assert lesson_at(service, snapshot.table_id) is None
    assert await judge_move(service, snapshot.table_id, ANN.user_id, "peek 3 4") is None


async def test_a_lesson_table_is_still_one_after_a_restart(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    table_id = await _lesson_table(service)
    await store.close()
    reopened = await Store.open(db_path, synchronous="NORMAL")
    try:
        again = TableService(reopened, FakeClock(), RecordingNotifier(), seeds)
        await again.restoring.restore()
        assert again._table(table_id).bots == LESSON_LEVEL
        assert lesson_at(again, table_id) is LESSON
        verdict = await judge_move(again, table_id, ANN.user_id, "peek 3 4")
        assert verdict is not None and verdict.kind == EXPECTED
    finally:
        await reopened.close()
