"""A learner for the guided hands' end-to-end tests (`/<game> learn`): one user who clicks in
their own language through the table's real buttons, tries every wrong move each step of the
lesson answers, a forged illegal one, then the lesson's move."""

from __future__ import annotations

from typing import Any

from bot.custom_ids import Verb, moves
from bot.i18n import error_text, has_key, text
from bot.local.records import EPHEMERAL, LocalInteraction, LocalUser
from games.errors import IllegalAction
from games.lesson import LEARNER, Lesson, Step
from tests.bot.e2e.harness import MENU_DEPTH, BotUnderTest
from tests.bot.e2e.players import Choice, answer_message, choices, toward, verb_choice

LOCALES = {"en": "en-US", "fr": "fr"}
LINE_MARK = "📘"


class Learner:
    """The user taking the lesson at `table_id`, clicking in `language`."""

    def __init__(self, harness: BotUnderTest, user: LocalUser, language: str) -> None:
        self.harness = harness
        self.fake = harness.fake
        self.user = user
        self.language = language
        self.locale = LOCALES[language]

    async def learn(self, game: str) -> LocalInteraction:
        """`/<game> learn`: answered once the lesson is open (its last answer names the
        thread), or refused."""
        answered = await self.fake.slash(self.user, f"{game} learn", locale=self.locale)
        await answered.wait_answered()
        await self.fake.wait_for(
            lambda: any(_words(r.payload) for r in answered.requests if r.shows_message),
            what="the lesson's answer",
        )
        await self.harness.settle()
        return answered

    async def click(self, choice: Choice) -> LocalInteraction:
        if choice.values:
            interaction = await self.fake.choose(
                self.user,
                choice.message_id,
                choice.custom_id,
                list(choice.values),
                locale=self.locale,
            )
        elif choice.value is not None:
            interaction = await self.fake.choose(
                self.user, choice.message_id, choice.custom_id, [choice.value], locale=self.locale
            )
        else:
            interaction = await self.fake.click(
                self.user, choice.message_id, choice.custom_id, locale=self.locale
            )
        await interaction.wait_answered()
        await self.harness.settle()
        return interaction

    async def my_cards(self, table_id: int) -> int:
        """A fresh "My cards" message: its id."""
        choice = verb_choice(self.harness.table_message(table_id), Verb.HAND.value)
        assert choice is not None, "the table message has no 'My cards' button"
        message = answer_message(self.fake, await self.click(choice))
        assert message is not None
        return int(message["id"])

    async def try_move(self, table_id: int, notation: str) -> LocalInteraction:
        """Click through a fresh "My cards" toward `notation`: the click that plays it."""
        round_no = self.harness.live.service.public_snapshot(table_id).round_no
        message_id = await self.my_cards(table_id)
        for _ in range(MENU_DEPTH):
            offered = [
                c for c in choices(self.fake.message(message_id)) if f":{round_no}:" in c.custom_id
            ]
            # a move the menu offers only with the next one (`announce;discard 5C`) is
            # played with the first such
            choice = toward(notation)(offered) or next(
                (c for c in offered if (c.notation or "").startswith(f"{notation};")), None
            )
            assert choice is not None, f"{notation!r} is not offered: {offered}"
            interaction = await self.click(choice)
            if choice.notation is not None and notation in moves(choice.notation):
                return interaction
            if choice.values:
                return interaction
            shown = answer_message(self.fake, interaction)
            assert shown is not None
            message_id = int(shown["id"])
        raise AssertionError(f"{notation!r} is not reached in {MENU_DEPTH} menu steps")

    async def forge(self, table_id: int, notation: str) -> LocalInteraction:
        """A click playing `notation` from a private message of the learner's that offers
        nothing (their `/<game> rules`: a "My cards" may have no row left for it)."""
        snapshot = self.harness.live.service.public_snapshot(table_id)
        rules = await self.fake.slash(self.user, f"{snapshot.game} rules", locale=self.locale)
        await rules.wait_answered()
        shown = answer_message(self.fake, rules)
        assert shown is not None
        message_id, round_no = int(shown["id"]), snapshot.round_no
        interaction = await self.fake.click(
            self.user,
            message_id,
            f"ct:{table_id}:{round_no}:p={notation}",
            locale=self.locale,
            forged=True,
        )
        await interaction.wait_answered()
        await self.harness.settle()
        return interaction


def _words(payload: Any) -> str:
    data = payload.get("data", payload) if isinstance(payload, dict) else {}
    return str(data.get("content") or "") if isinstance(data, dict) else ""


def private_reply(interaction: LocalInteraction) -> str:
    """The words of the one ephemeral answer a refused move gets."""
    (answer,) = [r for r in interaction.requests if r.shows_message]
    assert answer.ephemeral
    data = answer.payload.get("data", answer.payload)
    assert not data.get("components")
    return str(data.get("content") or "")


def wrong_moves(lesson: Lesson, step: Step, legal: list[str]) -> dict[str, str]:
    """Every wrong move the step answers in its own words (one per `wrong` entry), and one
    the step answers with its general `<say>.wrong` line if any is legal: move -> text key."""
    found: dict[str, str] = {}
    for word, key in step.wrong.items():
        move = next((m for m in legal if word in (m, m.split(" ", 1)[0]) and m != step.move), None)
        if move is not None:
            found[move] = key
    other = next(
        (
            m
            for m in legal
            if m != step.move and m not in step.wrong and m.split(" ", 1)[0] not in step.wrong
        ),
        None,
    )
    if other is not None:
        found[other] = f"{step.say}.wrong"
    return found


async def take_the_lesson(
    harness: BotUnderTest,
    learner: Learner,
    table_id: int,
    lesson: Lesson,
    illegal: str,
    *,
    steps: int | None = None,
) -> None:
    """Each of the learner's steps (the first `steps` of those left, None: all): every wrong
    move answered (nothing played), the forged `illegal` move answered with the engine's
    reason and the step's reminder, then the move."""
    service, game = harness.live.service, lesson.game
    for _ in range(steps if steps is not None else len(lesson.steps)):
        table = service._table(table_id)
        if table.round is None or table.round.finished:
            break
        step = lesson.learner_step(table.round.history)
        assert step is not None, "the lesson's hand goes on after its script"
        legal = table.round.legal_notation(LEARNER)
        table.round.check(LEARNER, table.round.game.parse_action(step.move))
        played = len(table.round.history)
        for move, key in wrong_moves(lesson, step, legal).items():
            reply = private_reply(await learner.try_move(table_id, move))
            then = text(learner.language, f"{game}.lesson.{step.say}.do")
            own = f"{game}.lesson.{key}"
            shown = (
                text(learner.language, own)
                if has_key(own)
                else text(learner.language, "lesson.other_move", then=then)
            )
            assert reply == shown, move
            assert len(service._table(table_id).round.history) == played  # type: ignore[union-attr]
        rule = _refusal_rule(table.round, illegal)
        reply = private_reply(await learner.forge(table_id, illegal))
        why = error_text(learner.language, f"illegal:{rule}", game=game)
        assert reply == f"{why} {text(learner.language, f'{game}.lesson.{step.say}.do')}"
        assert len(service._table(table_id).round.history) == played  # type: ignore[union-attr]
        await learner.try_move(table_id, step.move)
        now = service._table(table_id).round
        assert now is not None and len(now.history) > played, f"{step.move!r} was not played"
        assert now.history[played][0] == LEARNER
        assert str(now.history[played][1]) == str(now.game.parse_action(step.move))


def _refusal_rule(round_: Any, notation: str) -> str:
    try:
        round_.check(LEARNER, round_.game.parse_action(notation))
    except IllegalAction as refused:
        return refused.rule
    raise AssertionError(f"{notation!r} is legal")


def lesson_lines(harness: BotUnderTest, thread_id: int) -> list[str]:
    """The lesson's lines posted in its thread, in order."""
    return [
        str(m["content"]).removeprefix(LINE_MARK).strip()
        for m in harness.fake.messages.values()
        if int(m["channel_id"]) == thread_id
        and not int(m["flags"]) & EPHEMERAL
        and str(m.get("content") or "").startswith(LINE_MARK)
    ]


def expected_lines(lesson: Lesson, language: str) -> list[str]:
    keys = [lesson.intro, *(s.say for s in lesson.seat_steps(LEARNER) if s.say), lesson.done]
    return [text(language, f"{lesson.game}.lesson.{key}") for key in keys]
