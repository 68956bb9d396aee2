"""The Dutch game object: options, presets, deck and notation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from games.cards import JOKER, Card, standard_deck
from games.contract import Game, Options, ReviewTerms, Round
from games.dutch.actions import DutchAction, parse_action
from games.dutch.options import PRESETS, DutchOptions
from games.dutch.round import DutchRound
from games.dutch.views import DutchView


class DutchGame(Game[DutchOptions, DutchAction, DutchView]):
    name: ClassVar[str] = "dutch"
    title: ClassVar[str] = "Dutch"
    rules_version: ClassVar[int] = 1
    options_model: ClassVar[type[Options]] = DutchOptions
    presets: ClassVar[dict[str, Any]] = PRESETS
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10
    round_class: ClassVar[type[Round[Any, Any, Any]]] = DutchRound
    lower_is_better: ClassVar[bool] = True
    # a hand's review stays within 10 s (python -m benchmarks.bot.review)
    review_terms: ClassVar[ReviewTerms] = ReviewTerms(
        thresholds=(2.0, 5.0, 10.0), decision_budget=0.5, hand_budget=7.0
    )

    def deck(self, options: DutchOptions) -> list[Card]:
        return standard_deck(jokers=2 if options.jokers else 0)

    def parse_action(self, text: str) -> DutchAction:
        return parse_action(text)

    def seen_in(self, view: DutchView) -> Iterable[str]:
        """The discard pile's top, the grid cards a rule shows the seat now (a wrong match shows
        its card to all), the card it holds when shown to it, and the cards the recent public
        events name (a 9 given face up…). A joker is left out: the view names it, and two share
        the name."""
        shown = [view.discard_top, view.held]
        shown += [slot.card for grid in view.grids for slot in grid]
        shown += [reveal.card for reveal in view.reveals]
        shown += [event.data.get("card") for event in view.log]
        return [name for name in shown if name is not None and name != JOKER]


GAME = DutchGame()
DutchRound.game = GAME
