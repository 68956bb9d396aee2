"""The Dame de Pique game object: options, deck, notation, teams and the match end rule."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from games.cards import Card
from games.contract import Game, Options, ReviewTerms, Round
from games.dame.actions import DameAction, parse_action
from games.dame.options import DameOptions
from games.dame.round import DameRound
from games.dame.rules import N_SEATS, TEAMS, dame_deck
from games.dame.views import DameView


class DameGame(Game[DameOptions, DameAction, DameView]):
    name: ClassVar[str] = "dame"
    title: ClassVar[str] = "Dame de Pique"
    rules_version: ClassVar[int] = 2  # 2: a knock holds for the next turn only
    options_model: ClassVar[type[Options]] = DameOptions
    presets: ClassVar[dict[str, Any]] = {"standard": DameOptions()}
    min_seats: ClassVar[int] = N_SEATS
    max_seats: ClassVar[int] = N_SEATS
    round_class: ClassVar[type[Round[Any, Any, Any]]] = DameRound
    # a hand's review stays within 30 s (python -m benchmarks.bot.review)
    review_terms: ClassVar[ReviewTerms] = ReviewTerms(
        thresholds=(15.0, 40.0, 80.0), decision_budget=0.25, hand_budget=20.0
    )

    def deck(self, options: DameOptions) -> list[Card]:
        return dame_deck()

    def parse_action(self, text: str) -> DameAction:
        return parse_action(text)

    def sides(self, n_seats: int) -> tuple[tuple[int, ...], ...]:
        """Two teams of partners facing each other: seats 0+2 and 1+3."""
        return TEAMS

    def seen_in(self, view: DameView) -> Iterable[str]:
        """The seat's hand, the discard pile (face up) and every team's laid packs."""
        yield from view.hand
        yield from view.discard
        for team in view.packs:
            for pack in team:
                yield from pack.cards

    def match_winners(self, totals: Sequence[int], target: int) -> tuple[int, ...] | None:
        """The first team to reach the target wins; if both reach it after the same hand, the
        higher total wins, and equal totals play another hand (None: not over)."""
        best = max(totals)
        if best < target:
            return None
        leaders = tuple(i for i, t in enumerate(totals) if t == best)
        return leaders if len(leaders) == 1 else None


GAME = DameGame()
DameRound.game = GAME
