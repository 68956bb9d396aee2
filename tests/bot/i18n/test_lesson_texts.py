"""Every line a guided hand can show (bot/ui/lessons.py) is written in both languages: the
opening and closing lines, each step's line and reminder, and the answer to every legal move
of every step that is not the lesson's."""

from __future__ import annotations

import pytest

from bot.i18n import catalog, text
from games.lesson import LEARNER, WRONG, lesson_of
from games.registry import game_names

LESSONS = [name for name in game_names() if lesson_of(name) is not None]


def _shown_keys(game: str) -> set[str]:
    lesson = lesson_of(game)
    assert lesson is not None
    keys = {lesson.intro, lesson.done}
    round_ = lesson.new_round()
    for step in lesson.steps:
        if step.seat == LEARNER:
            assert step.say is not None
            keys |= {step.say, f"{step.say}.do"}
            for move in round_.legal_notation(LEARNER):
                verdict = lesson.judge(round_, LEARNER, move)
                if verdict.kind == WRONG:
                    assert verdict.key is not None
                    keys.add(verdict.key)
        round_.apply(step.seat, step.move)
    return {f"{game}.lesson.{key}" for key in keys}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", LESSONS)
def test_every_line_of_the_guided_hand_is_written(game: str, language: str) -> None:
    for key in sorted(_shown_keys(game)):
        assert key in catalog(language), key
        line = text(language, key)
        assert line and line != key and "{" not in line, key


@pytest.mark.parametrize("game", LESSONS)
def test_no_line_of_the_guided_hand_is_left_over(game: str) -> None:
    """A line the script never shows is a step removed without its text."""
    written = {k for k in catalog("en") if k.startswith(f"{game}.lesson.")}
    assert written == _shown_keys(game)
