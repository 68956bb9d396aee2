"""A review of a player's play in words, never in notation.

Each costly decision names the move played and the strong bot's as the player reads them on
their buttons ("Discard 9♦", "Lay 8♠ 8♥ 8♦"), in the game's own words (its plug-in's action
labels, in the reader's language)."""

from __future__ import annotations

from bot.games import plugin_for
from bot.i18n import text
from bot.render.replay import Replayer, snapshot
from bot.render.stats import game_title
from bot.render.table import table_text
from games.registry import get_game
from games.review import Review
from storage.history import FinishedHand

REVIEW_LINES = 12  # costly decisions listed in a review's answer


def move_words(
    hand: FinishedHand,
    seat: int,
    index: int,
    moves: tuple[str, ...],
    language: str,
    *,
    replayer: Replayer,
) -> tuple[str, ...]:
    """The moves (notations offered to `seat` before action `index`) as its buttons said them
    then: the labels read the seat's view at that decision (the card held, the pile's top)."""
    shown = replayer.frame(hand, index)
    label = plugin_for(hand.record.game).action_labeler(
        shown.round.view(seat), table_text(snapshot(shown), language)
    )
    return tuple(label(move) for move in moves)


def review_text(
    language: str, hand: FinishedHand, review: Review, *, replayer: Replayer | None = None
) -> str:
    """The review as the player reads it: accuracy, counts, the costly decisions."""
    game = get_game(hand.record.game)
    replayer = replayer or Replayer()
    lines = [
        "**"
        + text(
            language,
            "review.title",
            game=game_title(language, game.name),
            hand=hand.round_no + 1,
            accuracy=f"{review.accuracy:g}",
        )
        + "**",
        text(
            language,
            "review.summary",
            decisions=len(review.decisions),
            inaccuracies=review.count("inaccuracy"),
            mistakes=review.count("mistake"),
            blunders=review.count("blunder"),
        ),
    ]
    costly = [d for d in review.decisions if d.grade]
    for decision in costly[:REVIEW_LINES]:
        played, best = move_words(
            hand,
            review.seat,
            decision.index,
            (decision.played, decision.best),
            language,
            replayer=replayer,
        )
        lines.append(
            text(
                language,
                "review.line",
                action=decision.index + 1,
                played=played,
                best=best,
                grade=text(language, f"review.grade.{decision.grade}"),
                cost=f"{decision.cost:.2f}",
            )
        )
    if len(costly) > REVIEW_LINES:
        lines.append(text(language, "review.more", count=len(costly) - REVIEW_LINES))
    if not costly:
        lines.append(text(language, "review.clean"))
    return "\n".join(lines)
