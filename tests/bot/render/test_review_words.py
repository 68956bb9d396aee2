"""A review names the moves as the player read them on their buttons, in their language,
never in notation (issue #40 §3)."""

from __future__ import annotations

import re

import pytest

from bot.render.replay import Replayer
from bot.render.review import review_text
from games.registry import get_game
from games.review import Decision, Review, accuracy_of
from storage.history import FinishedHand
from tests.bot.render.test_replay import finished

# a card code as the engines write it (`9D`, `10H`, `QS#1`), inside a notation
NOTATION_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC](?:#\d+)?\b")


def costly_review(hand: FinishedHand, seat: int) -> Review:
    """A review of `seat` where every decision with a choice played the recorded move and the
    bot preferred another move then offered (a blunder each): the lines to word."""
    game = get_game(hand.record.game)
    round_ = game.replay(hand.record.model_copy(update={"actions": []}))
    decisions = []
    for index, (who, notation) in enumerate(hand.record.actions):
        offered = round_.legal_actions(seat) if who == seat else []
        others = [str(m) for m in offered if str(m) != notation]
        if others:
            best = max(others, key=len)  # the wordiest other move: a card or a pack in it
            decisions.append(Decision(index, notation, best, len(offered), 0, 99, 99, "blunder", 3))
        round_.apply(who, notation)
    return Review(hand.record.game, seat, tuple(decisions), accuracy_of(game.name, [99.0]))


@pytest.mark.parametrize("name", ["dutch", "euchre", "dame"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_review_lines_name_moves_as_the_buttons_did_never_in_notation(
    name: str, language: str
) -> None:
    hand = finished(name, 9)
    review = costly_review(hand, 0)
    assert review.decisions
    words = review_text(language, hand, review, replayer=Replayer())
    lines = words.splitlines()[2:]
    assert len(lines) == min(len(review.decisions), 12) + (len(review.decisions) > 12)
    for decision, line in zip(review.decisions, lines, strict=False):
        assert decision.played not in line and decision.best not in line, line
        assert not NOTATION_CARD.search(line), line
    assert any(re.search(r"[♠♥♦♣]|Joker", line) for line in lines), lines


def test_a_dutch_discard_in_a_review_names_the_card_held_then() -> None:
    """`discard` alone in notation: the review says which card it was ("Discard 9♦")."""
    hand = finished("dutch", 9)
    review = costly_review(hand, 0)
    replayer = Replayer()
    for decision in review.decisions:
        if "discard" not in (decision.played, decision.best):
            continue
        held = replayer.frame(hand, decision.index).round.view(0).held
        line = review_text("en", hand, Review("dutch", 0, (decision,), 0.0)).splitlines()[2]
        card = held[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[held[-1]]
        assert f"Discard {card}" in line, line
        return
    pytest.fail("no decision to discard in this hand")
