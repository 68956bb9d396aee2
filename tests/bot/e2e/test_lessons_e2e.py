"""`/<game> learn` through the real bot (issue #40 §2): the guided hand opens in a private
thread only the learner is added to, the lesson's lines come in order, every wrong move a step
answers is explained (and nothing played), a forged illegal move gets the rule and the step's
reminder, the lesson's moves are played through the table's own buttons, in English and in
French; the table is coached, so unrated."""

from __future__ import annotations

import pytest

from bot.custom_ids import Verb
from bot.i18n import text
from bot.snapshots import FINISHED
from games.lesson import LEARNER, lesson_of
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.lessons import (
    Learner,
    expected_lines,
    lesson_lines,
    private_reply,
    take_the_lesson,
)
from tests.bot.e2e.players import choices

PRIVATE_THREAD = 12

# a move each game's engine refuses at every step of its lesson, clicked as a forged button
ILLEGAL = {"dame": "discard 7S", "dutch": "swap 7", "euchre": "play 9H"}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(ILLEGAL))
async def test_the_guided_hand_through_the_real_bot(
    harness: BotUnderTest, game: str, language: str
) -> None:
    lesson = lesson_of(game)
    assert lesson is not None
    alice, _bob, _ = players(harness.fake)
    learner = Learner(harness, alice, language)
    async with harness.running() as bot:
        opened = await learner.learn(game)
        (table_id,) = harness.table_ids()
        location = await bot.locations.get(table_id)
        thread_id = location.thread_id
        assert thread_id is not None
        (asked,) = [r for r in harness.fake.requests if r.route.endswith("/threads")]
        assert asked.payload["type"] == PRIVATE_THREAD and asked.payload["invitable"] is False
        answers = [r for r in opened.requests if r.shows_message]
        assert answers and all(r.ephemeral for r in answers)
        assert f"<#{thread_id}>" in str(answers[-1].payload)
        public = bot.service.public_snapshot(table_id)
        assert public.coach  # a practice table: unrated
        assert public.seats[0].user_id == alice.id

        await take_the_lesson(harness, learner, table_id, lesson, ILLEGAL[game])
        await harness.settle()
        assert bot.service.public_snapshot(table_id).status == FINISHED  # one hand, one match

        assert lesson_lines(harness, thread_id) == expected_lines(lesson, language)
        assert await bot.store.leaderboard(public.guild_id, game) == []


async def test_a_guided_hand_goes_on_after_a_restart(harness: BotUnderTest) -> None:
    """The lesson is stored with its table (its bots' level): a restarted bot still judges
    the learner's moves, plays the bots' script and closes the lesson with its last line."""
    lesson = lesson_of("dutch")
    assert lesson is not None
    alice, _bob, _ = players(harness.fake)
    learner = Learner(harness, alice, "en")
    async with harness.running() as bot:
        await learner.learn("dutch")
        (table_id,) = harness.table_ids()
        await take_the_lesson(harness, learner, table_id, lesson, ILLEGAL["dutch"], steps=2)
        thread_id = (await bot.locations.get(table_id)).thread_id
        assert thread_id is not None
    async with harness.running() as bot:
        await bot.service.restoring.ready(table_id)
        await harness.settle()
        await take_the_lesson(harness, learner, table_id, lesson, ILLEGAL["dutch"])
        await harness.settle()
        assert bot.service.public_snapshot(table_id).status == FINISHED
        assert lesson_lines(harness, thread_id) == expected_lines(lesson, "en")
        assert len(lesson.seat_steps(LEARNER)) > 2


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_hint_at_a_guided_hand_is_the_lessons_next_move(
    harness: BotUnderTest, language: str
) -> None:
    """A lesson table is coached, so "My cards" has a Hint button: it answers with the
    lesson's own next move, never a search's move that could tell the learner otherwise."""
    lesson = lesson_of("dutch")
    assert lesson is not None
    alice, _bob, _ = players(harness.fake)
    learner = Learner(harness, alice, language)
    async with harness.running():
        await learner.learn("dutch")
        (table_id,) = harness.table_ids()
        message_id = await learner.my_cards(table_id)
        (hint,) = [
            c
            for c in choices(harness.fake.message(message_id))
            if c.custom_id.endswith(f":{Verb.HINT.value}")
        ]
        answered = await learner.click(hint)
        then = text(language, "dutch.lesson.peek.do")
        assert private_reply(answered) == text(language, "lesson.hint", then=then)


async def test_a_guided_hand_asked_for_inside_a_thread_is_refused_in_one_sentence(
    harness: BotUnderTest,
) -> None:
    """A private thread opens from a text channel only: asked for inside a thread (here,
    another learner's lesson), the guided hand is refused with one sentence, no table opened."""
    alice, bob, _ = players(harness.fake)
    async with harness.running() as bot:
        await Learner(harness, bob, "en").learn("dutch")
        (table_id,) = harness.table_ids()
        thread_id = (await bot.locations.get(table_id)).thread_id
        refused = await harness.fake.slash(alice, "dutch learn", channel_id=thread_id)
        await refused.wait_answered()
        await harness.settle()
        assert assert_one_short_private_sentence(refused) == text("en", "error.lesson.no_thread")
        assert harness.table_ids() == [table_id]
