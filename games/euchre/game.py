"""The Euchre rule set: options, presets, deck, notation and the two teams."""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import Card
from games.contract import FACING_PARTNERS, Game, Options, Round
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

    def deck(self, options: EuchreOptions) -> list[Card]:
        return list(DECK)

    def parse_action(self, text: str) -> EuchreAction:
        return parse_action(text)

    def sides(self, n_seats: int) -> tuple[tuple[int, ...], ...]:
        return TEAMS


GAME = EuchreGame()
EuchreRound.game = GAME
