"""The table service: every live table of one bot process, from seating to play and timers.

No discord here; one asyncio lock per table. `TableService` builds the parts, each holding the
state it owns and given what it uses when built, so a part's dependencies are in its
constructor. Play announces what happened (a move stored or lost, a turn begun, a round ended)
to the parts that react, the timers and the follow-up (`PlayListener`), instead of calling
them. Every state change follows one order (validate, apply on the engine, store, notify
outside the lock) so that memory always equals disk and nothing is shown before it is stored:
the rules are in bot/service/README.md.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from bot.clock import Clock
from bot.runtime.policy import policy_for
from bot.runtime.priority import ForegroundCalls
from bot.runtime.runner import InlinePolicyRunner, PolicyRunner
from bot.service._live_table import LiveTable
from bot.service._locks import Announcer, MatchListener, published
from bot.service.choices import PlayerChoices
from bot.service.coach import hint_for
from bot.service.followup import FollowUp
from bot.service.notifier import TableNotifier
from bot.service.play import Play
from bot.service.restore import Restore, RestoreReport
from bot.service.seating import Seating
from bot.service.tables import Tables
from bot.service.timers import Timers
from bot.service.watching import Watching
from bot.snapshots import (
    PLAYING,
    PublicSnapshot,
)
from games.cards import Card
from games.coach import Hint
from games.contract import Game
from games.registry import get_game

if TYPE_CHECKING:
    from storage import Store

__all__ = ["RestoreReport", "TableService"]


class TableService:
    """All live tables of one bot process. See bot/service/README.md for the rules it keeps.

    It builds the parts (given the store, the clock and the parts before them) in this order:

    - `tables` (tables.py): the live tables and who sits where; locking (_locks.py);
    - `play` (play.py): clicks, "My cards", rounds, the engine loop after every change;
    - `followup` (followup.py): the bot moves that follow a change, in the background;
    - `timers` (timers.py): turn timers, the next-round pause, a finished table's expiry;
    - `restoring` (restore.py): bringing tables back after a restart;
    - `seating` (seating.py): the lobby, start, leave, cancel, stop, rematch;
    - `watching` (watching.py): who watches which table.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        notifier: TableNotifier,
        seed_source: Callable[[], int],
        *,
        games: Callable[[str], Game[Any, Any, Any]] = get_game,
        next_round_seconds: float = 20.0,
        finished_keep_seconds: float = 3600.0,
        policy_runner: PolicyRunner | None = None,
        choices: PlayerChoices | None = None,
    ) -> None:
        self._store = _foreground(store)
        self.clock = clock
        self.seed_source = seed_source
        # each player's own choices (forced moves played for them, the knock announced)
        self.choices = choices or PlayerChoices()
        # told once a table's match is over and stored, after the table's lock is released
        # (bot/tournaments.py reads the result there)
        self.match_listeners: list[MatchListener] = []
        # the parts, each given what it uses, in the order they depend on each other
        store = self._store
        self.tables = Tables(store, clock, Announcer(notifier, self.match_listeners), games)
        self.play = Play(self.tables, store, clock, self.choices, seed_source)
        # where bots think: in this process by default (tests, benchmarks), in worker processes
        # for the real bot (bot/app.py), so a searching bot never holds up the event loop
        self.followup = FollowUp(self.tables, self.play, policy_runner or InlinePolicyRunner())
        self.timers = Timers(
            self.tables,
            clock,
            self.choices,
            self.play,
            self.followup,
            next_round_seconds=next_round_seconds,
            finished_keep_seconds=finished_keep_seconds,
        )
        self.restoring = Restore(self.tables, store, clock, self.play, self.timers, self.followup)
        self.seating = Seating(self.tables, store, clock, self.play, self.restoring)
        self.watching = Watching(self.tables)
        # play tells the timers, then the follow-up, what happened (a move, a turn, a round's
        # end); the tables tell the follow-up a table left; a locked call loads its table first
        self.play.listen(self.timers)
        self.play.listen(self.followup)
        self.tables.forget_listeners.append(self.followup.forget)
        self.tables.loader = self.restoring.ready

    @property
    def store(self) -> Store:
        """The store every part writes to."""
        return self._store

    @store.setter
    def store(self, store: Store) -> None:
        """Put another store under every part (tests break the disk, then mend it)."""
        self._store = _foreground(store)
        for part in (self.tables, self.play, self.restoring, self.seating):
            part.store = self._store

    @property
    def notifier(self) -> TableNotifier:
        """What the service tells the glue once a table's lock is released."""
        return self.tables.announcer.notifier

    @notifier.setter
    def notifier(self, notifier: TableNotifier) -> None:
        """Tell another notifier from now on (tests record what the glue would be told)."""
        self.tables.announcer.notifier = notifier

    # ------------------------------------------------------------------------------------
    # queries (no lock: they read memory only, and never await)
    # ------------------------------------------------------------------------------------
    def tables_in_channel(self, channel_id: int) -> list[int]:
        found = [t.id for t in self.tables.live.values() if t.channel_id == channel_id]
        unloaded = self.restoring.unloaded.values()
        found += [e.table_id for e in unloaded if e.channel_id == channel_id]
        return sorted(found)

    def table_ids(self) -> list[int]:
        return sorted([*self.tables.live, *self.restoring.unloaded])

    def census(self) -> Counter[tuple[str, str]]:
        """Tables here by (game, status); tables a restart has yet to load count as
        ("unknown", "loading")."""
        counted: Counter[tuple[str, str]] = Counter(
            (table.game.name, table.status) for table in self.tables.live.values()
        )
        if self.restoring.unloaded:
            counted[("unknown", "loading")] += len(self.restoring.unloaded)
        return counted

    def has_table(self, table_id: int) -> bool:
        """The table is open here, loaded or still to load after a restart (the glue keeps
        things for open tables only)."""
        table = self.tables.live.get(table_id)
        return (table is not None and not table.closed) or table_id in self.restoring.unloaded

    def loaded(self, table_id: int) -> bool:
        """The table is in memory (False while a restart has yet to load it)."""
        return table_id in self.tables.live

    def public_snapshot(self, table_id: int) -> PublicSnapshot:
        """The table as last stored: published when its lock was last released."""
        return published(self.tables.get(table_id))

    def game_of(self, table_id: int) -> Game[Any, Any, Any]:
        """The game played at this table (raises no_table like the other queries)."""
        return self.tables.get(table_id).game

    def bot_choice(
        self,
        table_id: int,
        user_id: int,
        rng: random.Random,
        choose: Callable[[Any, int, random.Random], str | None] | None = None,
    ) -> str | None:
        """What the bot policy would play for this user's seat now, in notation (None if the
        seat may not act). The policy reads only the seat's view and knowledge: the benchmark
        clicks with it, and a "hint" could. `choose(round, seat, rng)`, if given, decides
        instead (a benchmark's scripted player)."""
        table = self.tables.get(table_id)
        seat = table.seat_of(user_id)
        round_ = table.round
        if seat is None or round_ is None or table.status != PLAYING or table.lock.locked():
            return None  # (locked: the round may hold a move whose write is pending)
        if seat not in round_.to_act():
            return None
        if choose is not None:
            return choose(round_, seat, rng)
        # the simple level: this runs on the event loop, and a strong bot may search for a
        # tenth of a second (the table's own bot players think in the policy runner)
        return str(policy_for(table.game, "simple").choose(round_, seat, rng))

    def stack_deck(self, table_id: int, deck: Sequence[Card]) -> None:
        """Use this exact deck order (top first) for the table's next round (tests, replays)."""
        self.tables.get(table_id).stacked_decks.append(list(deck))

    def _table(self, table_id: int) -> LiveTable:
        """The live table (tests look inside it; the glue reads snapshots only)."""
        return self.tables.get(table_id)

    # ------------------------------------------------------------------------------------
    # what takes more than one part: a coach's hint, and shutting down. The rest the glue
    # asks the part that does it: `service.seating.join(...)`, `service.play.act(...)`,
    # `service.watching.watch(...)`, `service.followup.settle(...)`,
    # `service.restoring.start(...)`, `service.tables.table_of_user(...)`
    # ------------------------------------------------------------------------------------
    async def hint(self, table_id: int, user_id: int, round_no: int) -> tuple[int, Hint]:
        """A coached table's hint for the user's seat now: (seat, hint) (bot/service/coach.py)."""
        return await hint_for(self, table_id, user_id, round_no, secrets.randbits(32))

    async def close(self) -> None:
        """Stop loading tables, playing bot moves and running timers in the background, and
        let what holds a table's lock finish (all before the store closes: a timer that fired
        while the store closed would fail to store its move and log an error)."""
        self.timers.closing = True
        await self.restoring.stop()
        await self.followup.stop()
        self.timers.stop()
        for table in list(self.tables.live.values()):
            async with table.lock:  # a click or timer holding it finishes first
                pass


def _foreground(store: Store) -> Store:
    """The store as the parts call it: the bots' store calls run in the foreground, so none
    holds the store's lock while it waits behind bot work (bot/runtime/priority.py); a move's
    write is only queued, and called as it is."""
    return cast("Store", ForegroundCalls(store, direct=frozenset({"record_action"})))
