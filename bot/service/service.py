"""The table service: seating, starting, applying clicks, storing them, timers, and the
snapshots each viewer gets. No discord here; one asyncio lock per table.

`TableService` builds the parts, each holding the state it owns and given what it uses when
built (the store, the clock, the parts before it), in this order:

- `tables` (tables.py): the live tables and who sits where; locking (_locks.py);
- `play` (play.py): clicks, "My cards", rounds, the engine loop after every change;
- `followup` (followup.py): the bot moves that follow a change, in the background;
- `timers` (timers.py): turn timers, the next-round pause, a finished table's expiry;
- `restoring` (restore.py): bringing tables back after a restart;
- `seating` (seating.py): the lobby, start, leave, cancel, stop, rematch;
- `watching` (watching.py): who watches which table.

Play announces what happened (a move stored or lost, a turn begun, a round ended) to the
parts that react, the timers and the follow-up (`PlayListener`), instead of calling them.

Every state change follows one order: validate, apply on the engine, store (durable), then
notify outside the lock. A failed store write is rolled back by replaying the stored round, so
memory always equals disk. Nothing outside the service reads a live table: it reads the
snapshot published when the table's lock is released, once every change is stored or rolled
back, so a state whose write is pending (or failed) is never shown.
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
from bot.service.restore import RESTORE_BATCH, OnLoaded, Restore, RestoreReport
from bot.service.seating import Seating
from bot.service.tables import Tables
from bot.service.timers import Timers
from bot.service.watching import Watching
from bot.snapshots import (
    PLAYING,
    ActResult,
    PlayerRef,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
    TableSnapshot,
    WatcherSnapshot,
)
from games.cards import Card
from games.coach import Hint
from games.contract import Game
from games.registry import get_game

if TYPE_CHECKING:
    from storage import Store
    from storage.models import GuildSettings

__all__ = ["RestoreReport", "TableService"]


class TableService:
    """All live tables of one bot process. See bot/service/README.md for the rules it keeps."""

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

    @property
    def policy_runner(self) -> PolicyRunner:
        return self.followup.runner

    @property
    def next_round_seconds(self) -> float:
        return self.timers.next_round_seconds

    @property
    def finished_keep_seconds(self) -> float:
        return self.timers.finished_keep_seconds

    # ------------------------------------------------------------------------------------
    # queries (no lock: they read memory only, and never await)
    # ------------------------------------------------------------------------------------
    def table_of_user(self, guild_id: int, user_id: int) -> int | None:
        return self.tables.table_of_user(guild_id, user_id)

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

    async def ready(self, table_id: int) -> None:
        """Make sure the table is loaded (see `Restore.ready`): the queries above answer for
        loaded tables only, so the glue awaits this before using them."""
        await self.restoring.ready(table_id)

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
    # the lobby and the table's life (seating.py)
    # ------------------------------------------------------------------------------------
    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host: PlayerRef,
        game: str,
        preset: str | None = None,
        target: int | None = None,
        bots: str | None = None,
        spectators: str | None = None,
        *,
        coach: bool = False,
        turn_seconds: int | None = None,
    ) -> TableSnapshot:
        """Open a table; `bots` (`simple` or `strong`; None: the guild's default) is how its
        bot players play; `spectators` (`public`, the default, or `hands`) what its watchers
        see; `coach`: a practice table with hints and reviews, unrated; `turn_seconds` the
        table's own turn timer (None: the guild's)."""
        return await self.seating.open_table(
            guild_id,
            channel_id,
            host,
            game,
            preset,
            target,
            bots,
            spectators,
            coach=coach,
            turn_seconds=turn_seconds,
        )

    def may_open(
        self, guild_id: int, channel_id: int, user_id: int, settings: GuildSettings
    ) -> None:
        """Refuse (TableError, one sentence) a new table while the member's cool-down runs or
        when the channel or the server has as many open tables as `settings` allow."""
        self.seating.may_open(guild_id, channel_id, user_id, settings)

    async def join(
        self, table_id: int, player: PlayerRef, position: int | None = None
    ) -> PublicSnapshot:
        """Sit down at the first free seat, or at `position` if it is free."""
        return await self.seating.join(table_id, player, position)

    async def swap_seats(
        self, table_id: int, user_id: int, first: int, second: int
    ) -> PublicSnapshot:
        """The host swaps whoever sits at two seats of the lobby (one of them may be free)."""
        return await self.seating.swap_seats(table_id, user_id, first, second)

    async def add_bot(
        self, table_id: int, user_id: int, name: Callable[[int], str] | None = None
    ) -> PublicSnapshot:
        """The host fills a lobby seat with a bot player named `name(number)`."""
        return await self.seating.add_bot(table_id, user_id, name)

    async def fill_with_bots(
        self, table_id: int, user_id: int, name: Callable[[int], str] | None = None
    ) -> PublicSnapshot:
        """The host seats a bot player, named `name(number)`, at every free seat of the lobby."""
        return await self.seating.fill_with_bots(table_id, user_id, name)

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> PublicSnapshot:
        return await self.seating.remove_bot(table_id, user_id, seat)

    async def leave(self, table_id: int, user_id: int) -> PublicSnapshot:
        """Leave the lobby, the match (a bot plays the seat) or a rematch."""
        return await self.seating.leave(table_id, user_id)

    async def start(self, table_id: int, user_id: int) -> PublicSnapshot:
        return await self.seating.start(table_id, user_id)

    async def cancel(self, table_id: int, user_id: int) -> None:
        """The host closes a table that is not playing (a lobby, or a finished match)."""
        await self.seating.cancel(table_id, user_id)

    async def stop(self, table_id: int, user_id: int, can_manage: bool) -> None:
        """The host, or a member who can manage the server, stops the table at any stage."""
        await self.seating.stop(table_id, user_id, can_manage)

    async def rematch(self, table_id: int, user_id: int) -> PublicSnapshot:
        """After the match: back to the lobby with every player not seated elsewhere."""
        return await self.seating.rematch(table_id, user_id)

    # ------------------------------------------------------------------------------------
    # playing (play.py) and the bot moves that follow (followup.py)
    # ------------------------------------------------------------------------------------
    async def act(
        self, table_id: int, user_id: int, round_no: int, notation: str, then: Sequence[str] = ()
    ) -> ActResult:
        """One click (`then`: the same player's next moves, played with it as a whole or
        not at all: `play.whole`). Stored before this returns and before anyone is notified."""
        return await self.play.act(table_id, user_id, round_no, notation, then)

    async def hint(self, table_id: int, user_id: int, round_no: int) -> tuple[int, Hint]:
        """A coached table's hint for the user's seat now: (seat, hint) (bot/service/coach.py)."""
        return await hint_for(self, table_id, user_id, round_no, secrets.randbits(32))

    async def private_view(self, table_id: int, user_id: int) -> PrivateSnapshot:
        """The "My cards" button (shows reveals once; brings an away seat back)."""
        return await self.play.private_view(table_id, user_id)

    async def follow_view(self, table_id: int, user_id: int) -> PrivateSnapshot | None:
        """What a followed "My cards" message shows (None: the user no longer sits here)."""
        return await self.play.follow_view(table_id, user_id)

    async def recall(
        self, table_id: int, user_id: int, round_no: int | None, reveals: Sequence[Reveal]
    ) -> tuple[Reveal | None, ...]:
        """Where the cards a rule showed this player lie now (None: out of their sight)."""
        return await self.play.recall(table_id, user_id, round_no, reveals)

    async def next_round(self, table_id: int, user_id: int) -> PublicSnapshot:
        return await self.play.next_round(table_id, user_id)

    async def watch(self, table_id: int, user_id: int) -> WatcherSnapshot:
        """The Watch button: a member seated nowhere at this table follows it (watching.py)."""
        return await self.watching.watch(table_id, user_id)

    async def watcher_view(self, table_id: int, user_id: int) -> WatcherSnapshot | None:
        """What a watcher's open message shows (None: they no longer watch)."""
        return await self.watching.watcher_view(table_id, user_id)

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until the bot moves owed at this table (every table: None) are played."""
        await self.followup.settle(table_id)

    def bots_pending(self, table_id: int) -> bool:
        """Bot moves of this table are still to come (its public snapshot will move on)."""
        return self.followup.pending(table_id)

    # ------------------------------------------------------------------------------------
    # restart (restore.py) and shutdown
    # ------------------------------------------------------------------------------------
    async def restore(self) -> RestoreReport:
        """Rebuild every active table from the store and re-arm its timers; returns once all
        are loaded and their bots have moved (`start_restore` returns at once)."""
        return await self.restoring.restore()

    async def start_restore(
        self, on_loaded: OnLoaded | None = None, *, batch: int = RESTORE_BATCH
    ) -> int:
        """List the active tables and load them in the background; how many are to load."""
        return await self.restoring.start(on_loaded, batch=batch)

    async def wait_restored(self) -> None:
        await self.restoring.wait()

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
