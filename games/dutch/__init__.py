"""Dutch, classic and house rules (docs/rules/dutch.md): the package exposes `GAME`.

An action's notation (`str(action)`, `GAME.parse_action(text)`: `peek 3 4`, `draw`, `swap 2`,
`look 1:3`, `match 2`, ...) names seats by engine index (0 to n-1) and slots from 1 (1
top-left to 4 bottom-right, penalty cards 5, 6, ...; an emptied slot keeps its number). The
full table of actions is in games/dutch/README.md.
"""

from __future__ import annotations

from games.dutch.actions import DutchAction, parse_action
from games.dutch.game import GAME, DutchGame
from games.dutch.options import CLASSIC, HOUSE, PRESETS, DutchOptions, card_value
from games.dutch.round import DutchRound
from games.dutch.views import DecisionView, DutchView, Reveal, SeatScore, SlotView

__all__ = [
    "CLASSIC",
    "GAME",
    "HOUSE",
    "PRESETS",
    "DecisionView",
    "DutchAction",
    "DutchGame",
    "DutchOptions",
    "DutchRound",
    "DutchView",
    "Reveal",
    "SeatScore",
    "SlotView",
    "card_value",
    "parse_action",
]
