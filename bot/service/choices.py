"""Each player's own choices about how they play (`/deck auto_play`, `auto_knock`), kept in memory.

Read whole from the store when the bot starts (`load`), so a move never reads the store; a
choice is stored first, then remembered here (`chose`); a player forgotten at their request
is forgotten here too. Only the players who changed a default take memory.

A bot run as several processes (shards) reads the choices when each starts: a choice made
through one process reaches the others at their next start.
"""

from __future__ import annotations

from collections.abc import Iterable

from storage.models import PlayerPreferences


class PlayerChoices:
    """The kept `PlayerPreferences` of the players who changed a default."""

    def __init__(self) -> None:
        self._chosen: dict[int, PlayerPreferences] = {}

    def load(self, kept: Iterable[PlayerPreferences]) -> None:
        """The choices the store keeps (at start)."""
        self._chosen = {p.user_id: p for p in kept if p != PlayerPreferences(user_id=p.user_id)}

    def of(self, user_id: int) -> PlayerPreferences:
        """The player's choices (the defaults if they made none)."""
        return self._chosen.get(user_id) or PlayerPreferences(user_id=user_id)

    def chose(self, chosen: PlayerPreferences) -> None:
        """The player's choices, stored: from now on their play follows them."""
        if chosen == PlayerPreferences(user_id=chosen.user_id):
            self._chosen.pop(chosen.user_id, None)
        else:
            self._chosen[chosen.user_id] = chosen

    def forget(self, user_id: int) -> None:
        """The player was forgotten: the defaults again."""
        self._chosen.pop(user_id, None)

    def auto_play(self, user_id: int | None) -> bool:
        """Is a move that is this player's only legal one played for them?"""
        return user_id is not None and self.of(user_id).auto_play

    def auto_knock(self, user_id: int | None) -> bool:
        """Is a knock announced for this player when their hand could go out next turn?"""
        return user_id is not None and self.of(user_id).auto_knock
