"""A guided first hand of a game (`/<game> learn`, issue #40): the lesson's script as data.

A lesson is a round dealt from a stacked deck under fixed options, the learner at seat 0 and
bot players at the other seats, where every seat's moves are written down in order: the bots
play theirs (`scripted_move`), the learner is shown a line of explanation before each of theirs
and is told why when they try anything else (`judge`). A game owns its lesson in
`games/<game>/lesson.py` (`LESSON`, and `choose_action` for the bot players); the texts are the
bot's, by key: `<game>.lesson.<say>` before a step, `<game>.lesson.<say>.wrong` (or a
`wrong` entry of the step, by the move's first word) for a legal move that is not the
lesson's, and the engine's own sentence, then the step's reminder, for an illegal one.

Pure: no discord, no asyncio, no I/O.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from games.cards import Card
from games.contract import Game, Options, Round, RoundSetup
from games.errors import IllegalAction
from games.registry import get_game

LEARNER = 0  # the learner's seat: the table's host, seated first

EXPECTED: Literal["expected"] = "expected"
WRONG: Literal["wrong"] = "wrong"
ILLEGAL: Literal["illegal"] = "illegal"
OFF_SCRIPT: Literal["off_script"] = "off_script"
Kind = Literal["expected", "wrong", "illegal", "off_script"]


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the script: who plays it, in notation. A learner's step has `say`, the key
    (under `<game>.lesson.`) of the line shown before it; `wrong` maps a move (`discard QS`), or
    its first word (`take`, `swap`, `skip`), to the key of the answer to that legal move (else
    `<say>.wrong`)."""

    seat: int
    move: str
    say: str | None = None
    wrong: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the lesson makes of a move the learner tries: `expected` (play it), `wrong` (legal
    but not the lesson's), `illegal` (the engine refuses it: `rule`), or `off_script` (the
    script has nothing left for the learner). `key` is the text to show (under
    `<game>.lesson.`), `step` the step the learner is at (None: none left)."""

    kind: Kind
    key: str | None = None
    rule: str | None = None
    step: Step | None = None


@dataclass(frozen=True, slots=True)
class Lesson:
    """A game's guided hand: its options, seats, deck (top first, as card names) and moves."""

    game: str
    preset: str | None
    options: Options
    seats: int
    deck: tuple[str, ...]  # the top of the deck, as card names; the rest follows in order
    steps: tuple[Step, ...]
    intro: str = "intro"  # the line shown when the lesson opens, before the first step's
    done: str = "done"  # the line shown once the hand is over

    @property
    def target(self) -> int:
        return int(getattr(self.options, "target"))  # noqa: B009 (every game's options have it)

    def cards(self) -> list[Card]:
        """The stacked deck, top first: `deck`, then the rest of the game's deck in its own
        order (a name given twice in a two-deck game takes its second copy)."""
        rest = list(get_game(self.game).deck(self.options))
        top: list[Card] = []
        for name in self.deck:
            found = next((c for c in rest if c.name == name), None)
            if found is None:
                raise ValueError(f"the lesson's deck names {name} once too often")
            rest.remove(found)
            top.append(found)
        return top + rest

    def seat_steps(self, seat: int) -> list[Step]:
        return [step for step in self.steps if step.seat == seat]

    def next_step(self, history: Sequence[tuple[int, Any]], seat: int) -> Step | None:
        """The seat's next scripted move after `history` (the round's (seat, action) pairs):
        the seats' moves are counted per seat, so moves made at once (a peek) may come in
        either order."""
        done = sum(1 for who, _ in history if who == seat)
        mine = self.seat_steps(seat)
        return mine[done] if done < len(mine) else None

    def step_after(self, step: Step) -> Step | None:
        """The same seat's next step after `step` (one of this script's)."""
        mine = self.seat_steps(step.seat)
        index = next(i for i, s in enumerate(mine) if s is step)
        return mine[index + 1] if index + 1 < len(mine) else None

    def learner_step(self, history: Sequence[tuple[int, Any]]) -> Step | None:
        return self.next_step(history, LEARNER)

    def scripted_move(self, round_: Round[Any, Any, Any], seat: int) -> str:
        """A bot player's move: its next scripted one while the round follows the script,
        else its first legal move (a script the engine refuses fails its own test first)."""
        step = self.next_step(round_.history, seat)
        if step is not None and _is_legal(get_game(self.game), round_, seat, step.move):
            return step.move
        return str(round_.legal_actions(seat)[0])

    def judge(self, round_: Round[Any, Any, Any], seat: int, notation: str) -> Verdict:
        """The learner tries `notation`: what the lesson says of it (see `Verdict`)."""
        step = self.next_step(round_.history, seat)
        if step is None:
            return Verdict(OFF_SCRIPT)
        game = get_game(self.game)
        try:
            action = game.parse_action(notation)
            round_.check(seat, action)
        except IllegalAction as refused:
            return Verdict(ILLEGAL, key=step.say, rule=refused.rule, step=step)
        if str(action) == str(game.parse_action(step.move)):
            return Verdict(EXPECTED, key=step.say, step=step)
        first_word = str(action).split(" ", 1)[0]
        key = step.wrong.get(str(action)) or step.wrong.get(first_word) or f"{step.say}.wrong"
        return Verdict(WRONG, key=key, step=step)

    def judge_all(
        self, round_: Round[Any, Any, Any], seat: int, notations: Sequence[str]
    ) -> Verdict:
        """The learner tries several moves in one click (`announce;discard 5C`): the verdict
        of the first that is not the lesson's, else `expected` with the last one's step. The
        later moves are judged on a copy of the round with the earlier ones played."""
        verdict = self.judge(round_, seat, notations[0])
        if verdict.kind != EXPECTED or len(notations) == 1:
            return verdict
        copy = get_game(self.game).replay(round_.record())
        for index in range(1, len(notations)):
            copy.apply(seat, notations[index - 1])
            verdict = self.judge(copy, seat, notations[index])
            if verdict.kind != EXPECTED:
                return verdict
        return verdict

    def new_round(self) -> Round[Any, Any, Any]:
        """The lesson's round as a table deals it (the host's seat 0 dealing first)."""
        game = get_game(self.game)
        setup = RoundSetup(n_seats=self.seats, dealer=0, round_no=0)
        return game.new_round(self.options, setup, deck=self.cards())


def _is_legal(
    game: Game[Any, Any, Any], round_: Round[Any, Any, Any], seat: int, notation: str
) -> bool:
    try:
        round_.check(seat, game.parse_action(notation))
    except IllegalAction:
        return False
    return True


def lesson_of(game: Game[Any, Any, Any] | str) -> Lesson | None:
    """The game's lesson (`games.<game>.lesson.LESSON`), None for a game without one."""
    name = game if isinstance(game, str) else game.name
    try:
        module = importlib.import_module(f"games.{name}.lesson")
    except ModuleNotFoundError as error:
        if error.name != f"games.{name}.lesson":
            raise
        return None
    found = getattr(module, "LESSON", None)
    return found if isinstance(found, Lesson) else None
