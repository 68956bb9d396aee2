"""Dame de Pique, Québec version (docs/rules/dame.md): 108 cards, two teams of partners (0+2, 1+3).

Notation (one action per line; `str(action)` is canonical and `parse_action` reads it back):

    draw                 draw the top card of the stock
    take 7S 7H           take the whole discard pile: its top card (a natural 7) and 7S 7H
                         from hand are laid at once as the team's 7 pack (or join it)
    take                 option `take_onto_team_pack`: lay the top card alone on the team's pack
    meld 7S 7H 2C        lay a new pack: 3+ cards of one natural rank, wild cards (2s, JK) allowed
    add 7 7D JK          add cards to the team's 7 pack (the partner's packs are the team's)
    announce             announce going out on the next turn ("knock twice"), public; it
                         holds for that turn only
    discard QS           discard one card, ending the turn

A card is written by name (`QS`, `10H`, `JK`: the lowest copy of it in hand), by code (`QS#1`,
`QS#0`: exactly that copy) or by rank (`Q`: any card of that rank in hand, suits S H D C, then
lowest copy). Case and suit symbols (`Q♠`) are accepted. Tokens are kept sorted (3 … K, A,
then 2s and jokers; suits S H D C; copy), so `meld 7H 7S 2C` is the action `meld 7S 7H 2C`.
Events and views name every card by its code, so each of the 108 cards can be traced.
"""

from __future__ import annotations

from games.dame.actions import DameAction, parse_action
from games.dame.game import GAME, DameGame
from games.dame.options import DameOptions
from games.dame.round import DameRound
from games.dame.views import DameView, PackView, PlayOptions

__all__ = [
    "GAME",
    "DameAction",
    "DameGame",
    "DameOptions",
    "DameRound",
    "DameView",
    "PackView",
    "PlayOptions",
    "parse_action",
]
