"""The guided hands' scripts against their engines (`games.<game>.lesson`): a rule change that
breaks a lesson fails here, loudly, before any player meets it."""

from __future__ import annotations

import random

import pytest

from games.lesson import EXPECTED, ILLEGAL, LEARNER, OFF_SCRIPT, WRONG, Lesson, lesson_of
from games.registry import game_names, get_game

LESSONS = [name for name in game_names() if lesson_of(name) is not None]


def _lesson(game: str) -> Lesson:
    lesson = lesson_of(game)
    assert lesson is not None
    return lesson


def test_each_game_of_the_bot_has_a_guided_hand() -> None:
    assert set(LESSONS) == {"dame", "dutch", "euchre"}


@pytest.mark.parametrize("game", LESSONS)
def test_every_scripted_move_is_legal_when_it_comes(game: str) -> None:
    lesson = _lesson(game)
    round_ = lesson.new_round()
    for step in lesson.steps:
        assert step.seat in round_.to_act(), f"{step.move!r}: seat {step.seat} may not act"
        round_.check(step.seat, get_game(game).parse_action(step.move))  # legal, listed or not
        if round_.lists_every_move:
            assert step.move in round_.legal_notation(step.seat), step.move
        if step.seat == LEARNER:
            assert lesson.judge(round_, step.seat, step.move).kind == EXPECTED
            assert step.say is not None, f"{step.move!r} has no line to explain it"
        else:
            assert lesson.scripted_move(round_, step.seat) == step.move
        round_.apply(step.seat, step.move)
    assert round_.finished, "the hand ends with the script"


@pytest.mark.parametrize("game", LESSONS)
def test_the_lesson_is_one_hand_that_ends_the_match(game: str) -> None:
    lesson = _lesson(game)
    round_ = lesson.new_round()
    for step in lesson.steps:
        round_.apply(step.seat, step.move)
    assert max(round_.result().points) >= lesson.target or min(round_.result().points) <= (
        -lesson.target
    )


@pytest.mark.parametrize("game", LESSONS)
def test_the_lessons_options_are_its_preset_with_its_target(game: str) -> None:
    """A lesson table is opened by preset and target: they must give the script's options."""
    lesson = _lesson(game)
    assert get_game(game).options(lesson.preset, target=lesson.target) == lesson.options


@pytest.mark.parametrize("game", LESSONS)
def test_a_move_off_the_script_is_wrong_or_illegal_never_played(game: str) -> None:
    lesson = _lesson(game)
    round_ = lesson.new_round()
    for step in lesson.steps:
        if step.seat == LEARNER:
            for move in round_.legal_notation(LEARNER):
                if move != step.move:
                    verdict = lesson.judge(round_, LEARNER, move)
                    assert verdict.kind == WRONG and verdict.step is step
        round_.apply(step.seat, step.move)
    assert lesson.judge(round_, LEARNER, "draw").kind in (OFF_SCRIPT, ILLEGAL)


@pytest.mark.parametrize("game", LESSONS)
def test_the_bots_play_the_script_through_the_lesson_policy(game: str) -> None:
    """The `lesson` bot level (bot.runtime.policy) loads `choose_action` of the lesson module:
    it plays each bot step, and the timeout's default too."""
    import importlib

    module = importlib.import_module(f"games.{game}.lesson")
    lesson = _lesson(game)
    round_ = lesson.new_round()
    for step in lesson.steps:
        if step.seat != LEARNER:
            assert str(module.choose_action(round_, step.seat, random.Random(0))) == step.move
            assert str(module.default_action(round_, step.seat)) == step.move
        round_.apply(step.seat, step.move)


@pytest.mark.parametrize("game", LESSONS)
def test_the_deck_is_the_whole_deck_of_the_game(game: str) -> None:
    lesson = _lesson(game)
    cards = lesson.cards()
    assert sorted(c.code for c in cards) == sorted(
        c.code for c in get_game(game).deck(lesson.options)
    )
    assert [c.name for c in cards[: len(lesson.deck)]] == list(lesson.deck)


def test_one_click_of_several_moves_is_judged_move_by_move() -> None:
    """Dame de Pique's "Knock and discard 5♣" is one click of two moves: the lesson follows
    both (the discard's step is the one played), and a wrong second move is answered."""
    lesson = _lesson("dame")
    round_ = lesson.new_round()
    knock = next(s for s in lesson.steps if s.move == "announce")
    for step in lesson.steps:
        if step is knock:
            break
        round_.apply(step.seat, step.move)
    played = len(round_.history)
    both = lesson.judge_all(round_, LEARNER, ["announce", "discard 5C"])
    assert both.kind == EXPECTED and both.step is lesson.step_after(knock)
    wrong = lesson.judge_all(round_, LEARNER, ["announce", "discard JK"])
    assert wrong.kind == WRONG and wrong.key == "discard.wrong"
    assert len(round_.history) == played  # judged on a copy
