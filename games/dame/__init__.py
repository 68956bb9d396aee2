"""Dame de Pique, Québec version (docs/rules/dame.md): 108 cards, two teams of partners (0+2, 1+3).

Its actions are written one per line (`draw`, `take 7S 7H`, `meld 7S 7H 2C`, `add 7 7D JK`,
`announce`, `discard QS`: games/dame/README.md lists them and how a card is named);
`str(action)` is canonical and `parse_action` reads it back. Events and views name every card
by its code (`QS#1`), so each of the 108 cards can be traced.
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
