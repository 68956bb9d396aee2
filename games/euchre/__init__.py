"""Euchre (docs/rules/euchre.md): 24 cards, four players in two teams (0+2, 1+3), five tricks.

Notation (`str(action)`, parsed back by `GAME.parse_action`; case-insensitive):

    pass            pass (either bidding round)
    order           round 1: order up the turned card's suit
    order alone     ... and play alone (the partner sits out)
    call H          round 2: name a suit other than the turned one (S H D C, or ♠ ♥ ♦ ♣)
    call H alone    ... and play alone
    discard 9C      the dealer, after picking up, discards one of his five dealt cards
    play JD         play a card

Decisions where the rules are silent are documented in games/euchre/README.md: dealing in
blocks of five, the `auto` discard, redeals (four passes twice: a scoreless round, so the match
moves to the next dealer; farmer's hand: a deterministic reshuffle inside the round).
"""

from __future__ import annotations

from games.euchre.actions import EuchreAction
from games.euchre.game import GAME, TEAMS, EuchreGame
from games.euchre.options import PRESETS, EuchreOptions
from games.euchre.round import EuchreRound
from games.euchre.views import EuchreView

__all__ = [
    "GAME",
    "PRESETS",
    "TEAMS",
    "EuchreAction",
    "EuchreGame",
    "EuchreOptions",
    "EuchreRound",
    "EuchreView",
]
