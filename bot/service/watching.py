"""Watchers: members seated nowhere at a table who follow it live (its Watch button).

A table's `spectators` option, chosen at `/<game> start` and stored beside the game's options
(no column, no migration), says what they see: `public` (the default), what every player sees;
`hands`, every seat's cards too, as they were at the start of the current turn (the engine's
`Round.spectator_view`), so never a card drawn or moved during the turn being played.

Nobody seated at the table in this match, nor who left it, may watch it: their cards are in
"My cards", and the hands of the others are never theirs to see. A watcher who sits down (the
next match's lobby) stops watching. Watchers live in memory only: a restart forgets them, and
they click Watch again (their open message stops following the game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

from bot.service._live_table import LiveTable
from bot.service._locks import changed, publish, published
from bot.service.errors import TableError
from bot.snapshots import PLAYING, ROUND_OVER, WatcherSnapshot

if TYPE_CHECKING:
    from bot.service.tables import Tables

SpectatorMode = Literal["public", "hands"]
SPECTATOR_MODES: tuple[str, ...] = get_args(SpectatorMode)
DEFAULT_SPECTATORS: SpectatorMode = "public"
HANDS: SpectatorMode = "hands"
SPECTATORS_OPTION = "spectators"  # the table option's key, stored beside the game's options
# Watchers of one table at most: each is a message the bot edits at every move.
MAX_WATCHERS = 25


def keep_watched_hands(table: LiveTable) -> None:
    """A table shown with its hands keeps them at each turn boundary of its round (call it
    whenever the table gets a round: dealt, rebuilt by a restart or a rollback)."""
    if table.spectators == HANDS and table.round is not None:
        table.round.keep_turn_hands()


def played_here(table: LiveTable, user_id: int) -> bool:
    """Seated at the table in this match (or its lobby), or seated and gone since."""
    return any(seat.user_id == user_id for seat in table.seats)


class Watching:
    """The Watch button's side of the service: who watches which table, and what they see."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def watch(self, table_id: int, user_id: int) -> WatcherSnapshot:
        """Start watching a table in play (again: a new message, same place in the count)."""
        async with self.tables.locked(table_id) as (table, notes):
            if played_here(table, user_id):
                raise TableError("watching_own_table")
            if table.status not in (PLAYING, ROUND_OVER):
                raise TableError("watch_not_in_play")
            if user_id not in table.watchers:
                if len(table.watchers) >= MAX_WATCHERS:
                    raise TableError("watchers_full", limit=MAX_WATCHERS)
                table.watchers[user_id] = None
                changed(table, notes)  # the table message shows the count
                publish(table)  # stored already (nothing to store): what this view reads
            return self._snapshot(table)

    async def watcher_view(self, table_id: int, user_id: int) -> WatcherSnapshot | None:
        """What a watcher's open message shows now; None once they no longer watch (they sat
        down, or the bot restarted)."""
        async with self.tables.reading(table_id) as (
            table,
            _notes,
        ):
            if user_id not in table.watchers or played_here(table, user_id):
                return None
            return self._snapshot(table)

    @staticmethod
    def _snapshot(table: LiveTable) -> WatcherSnapshot:
        """Built under the table's lock, from what is published (every change stored)."""
        public = published(table)
        hands = None
        if table.spectators == HANDS and table.status == PLAYING and table.round is not None:
            hands = table.round.spectator_view(with_hands=True).hands
        return WatcherSnapshot(public=public, hands=hands, version=public.version)
