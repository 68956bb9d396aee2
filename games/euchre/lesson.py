"""Euchre's guided first hand (`/euchre learn`): standard rules, the learner and three bots.

The learner deals (seat 0, partner at seat 2) and, after three passes, holds the five best
hearts once the turned Q♥ is picked up: ordering up comes first, with the bowers it makes and
the risk of being euchred, then going alone (the partner sits out), the dealer's discard, and
five tricks where following suit, trumping and the bowers each show once. Taking all five
alone scores 4, which ends the match with the lesson.

Deal (docs/rules/euchre.md): blocks of five from the top of the deck, from the dealer's left
(seat 1) round to the dealer (seat 0); the next card is turned up, the last three stay out.
"""

from __future__ import annotations

from random import Random
from types import MappingProxyType

from games.euchre.actions import EuchreAction, parse_action
from games.euchre.options import PRESETS
from games.euchre.round import EuchreRound
from games.lesson import LEARNER, Lesson, Step

LEFT, PARTNER, RIGHT = 1, 2, 3

LESSON = Lesson(
    game="euchre",
    preset="standard",
    options=PRESETS["standard"].model_copy(update={"target": 4}),
    seats=4,
    deck=(
        *("AS", "KS", "9S", "AC", "KC"),  # seat 1, at the dealer's left
        *("9D", "10D", "QD", "KD", "AD"),  # seat 2, the learner's partner
        *("QS", "JS", "JC", "10C", "QC"),  # seat 3
        *("JH", "JD", "AH", "KH", "10S"),  # seat 0, the learner, who deals
        "QH",  # turned up
        *("9H", "10H", "9C"),  # out of play
    ),
    steps=(
        Step(LEFT, "pass"),
        Step(PARTNER, "pass"),
        Step(RIGHT, "pass"),
        Step(
            LEARNER,
            "order alone",
            say="order",
            wrong=MappingProxyType({"pass": "order.pass", "order": "order.partner"}),
        ),
        Step(LEARNER, "discard 10S", say="discard"),
        Step(LEFT, "play AS"),
        Step(RIGHT, "play QS"),
        Step(LEARNER, "play QH", say="trump"),
        Step(LEARNER, "play JH", say="right"),
        Step(LEFT, "play 9S"),
        Step(RIGHT, "play 10C"),
        Step(LEARNER, "play JD", say="left"),
        Step(LEFT, "play KS"),
        Step(RIGHT, "play QC"),
        Step(LEARNER, "play AH", say="ace"),
        Step(LEFT, "play KC"),
        Step(RIGHT, "play JC"),
        Step(LEARNER, "play KH", say="last"),
        Step(LEFT, "play AC"),
        Step(RIGHT, "play JS"),
    ),
)


def choose_action(round_: EuchreRound, seat: int, rng: Random) -> EuchreAction:
    """The bot players' moves at a lesson table: the script's (the `lesson` bot level)."""
    return parse_action(LESSON.scripted_move(round_, seat))


def default_action(round_: EuchreRound, seat: int) -> EuchreAction:
    """A timed-out turn at a lesson table plays the script's move too."""
    return parse_action(LESSON.scripted_move(round_, seat))
