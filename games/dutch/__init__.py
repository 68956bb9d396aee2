"""Dutch, classic and house rules (docs/rules/dutch.md): the package exposes `GAME`.

Notation (`str(action)`, `GAME.parse_action(text)`; full table in games/dutch/README.md).
Seats are engine seat indices (0 to n-1); slots are numbered from 1 (1 top-left, 2 top-right,
3 bottom-left, 4 bottom-right; penalty cards get 5, 6, …; an emptied slot keeps its number):

    peek 3 4        initial peek (every seat, before the first turn)
    dutch           call Dutch (classic: instead of drawing; house: at the end of the turn)
    draw | take     draw from the stock | take the discard pile's top card
    swap 2          put the held card in own slot 2, its card goes to the discard pile
    discard         discard the held card (never one taken from the discard pile)
    look 1:3        Queen: look at seat 1's slot 3        jack 2 1:3   Jack: swap 2 with 1:3
    seven 2         7: show it, look at own slot 2        nine 2 1:3   9: swap 2 with 1:3
    nine drawn 1:3  9: give the 9 for seat 1's slot 3, which becomes the held card
    skip            skip a Queen/Jack power
    match 2         lay own slot 2 as matching the discard top (one card per action)
    end             end the turn when a choice (matching, house Dutch call) remains
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
