"""The Dutch game object: options, presets, deck and notation."""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import Card, standard_deck
from games.contract import Game, Options, Round
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

    def deck(self, options: DutchOptions) -> list[Card]:
        return standard_deck(jokers=2 if options.jokers else 0)

    def parse_action(self, text: str) -> DutchAction:
        return parse_action(text)


GAME = DutchGame()
DutchRound.game = GAME
