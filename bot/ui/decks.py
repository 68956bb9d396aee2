"""Each player's deck (two colours, or four: ♦ blue, ♣ green), kept in memory.

Read whole from the store when the bot starts (`load`), so rendering a player's message never
reads the store; a choice (`/deck`) is stored first, then remembered here (`chose`), and a
player forgotten at their request (`/privacy forget`) is forgotten here too. Only the players
who chose four colours take memory: everyone else has the two-colour deck.

A bot run as several processes (shards) reads the choices when each starts: a choice made
through one process reaches the others at their next start.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.pictures.card_faces import FOUR_COLOURS, TWO_COLOURS, Deck
from storage.models import PlayerPreferences


class PlayerDecks:
    def __init__(self) -> None:
        self._four: set[int] = set()  # the players who chose the four-colour deck

    def load(self, kept: Iterable[PlayerPreferences]) -> None:
        """The choices the store keeps (at start)."""
        self._four = {p.user_id for p in kept if p.deck == FOUR_COLOURS}

    def of(self, user_id: int) -> Deck:
        return FOUR_COLOURS if user_id in self._four else TWO_COLOURS

    def chose(self, user_id: int, deck: Deck) -> None:
        """The player's choice, stored: from now on their messages use it."""
        if deck == FOUR_COLOURS:
            self._four.add(user_id)
        else:
            self._four.discard(user_id)

    def forget(self, user_id: int) -> None:
        """The player was forgotten: the default deck again."""
        self._four.discard(user_id)
