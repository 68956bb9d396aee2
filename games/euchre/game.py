"""The Euchre rule set: options, presets, deck, notation and the two teams."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from games.cards import Card
from games.contract import FACING_PARTNERS, Game, Options, ReviewTerms, Round
from games.euchre.actions import EuchreAction, parse_action
from games.euchre.options import PRESETS, EuchreOptions
from games.euchre.ranking import DECK
from games.euchre.round import EuchreRound
from games.euchre.views import EuchreView

TEAMS = FACING_PARTNERS


class EuchreGame(Game[EuchreOptions, EuchreAction, EuchreView]):
    name: ClassVar[str] = "euchre"
    title: ClassVar[str] = "Euchre"
    rules_version: ClassVar[int] = 1
    options_model: ClassVar[type[Options]] = EuchreOptions
    presets: ClassVar[dict[str, Any]] = PRESETS
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 4
    round_class: ClassVar[type[Round[Any, Any, Any]]] = EuchreRound
    # a hand's review stays within 10 s (python -m benchmarks.bot.review)
    review_terms: ClassVar[ReviewTerms] = ReviewTerms(
        thresholds=(0.25, 0.5, 1.0), decision_budget=1.0, hand_budget=7.0
    )

    def deck(self, options: EuchreOptions) -> list[Card]:
        return list(DECK)

    def parse_action(self, text: str) -> EuchreAction:
        return parse_action(text)

    def sides(self, n_seats: int) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def seen_in(self, view: EuchreView) -> Iterable[str]:
        """The seat's hand, the turned card, every card played, and the dealer's discard."""
        yield from view.hand
        yield view.turned
        for trick in (*view.tricks, view.trick):
            yield from (code for _, code in trick)
        if view.discard is not None:  # in the dealer's own view only
            yield view.discard

    def review_value(self, points: Sequence[int], seat: int, n_seats: int) -> float:
        """The side's points minus the other side's."""
        side = self.side_of(seat, n_seats)
        return float(points[side] - sum(p for i, p in enumerate(points) if i != side))


GAME = EuchreGame()
EuchreRound.game = GAME
