"""Playing, the part of the table service that applies moves.

It holds a click (`act`), the "My cards" views, the next round, and the engine loop every change
ends with (score a finished round, arm the timers, hand the seats nobody clicks for to the bot
follow-up). Every move is applied on the engine, then stored (durable), under the table's lock;
a failed write is rolled back by replay."""

from __future__ import annotations

import logging
import pickle
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from bot.clock import Clock
from bot.runtime.policy import policy_for
from bot.service import _snapshot_builder, _table_log
from bot.service._live_table import LiveTable
from bot.service._locks import Notice, changed, published, store_failed
from bot.service.choices import PlayerChoices
from bot.service.errors import TableError
from bot.service.watching import keep_watched_hands
from bot.snapshots import (
    FINISHED,
    LOBBY,
    PLAYING,
    ROUND_OVER,
    ActResult,
    LogEntry,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
)
from games.contract import Event, Round
from games.errors import IllegalAction
from games.match import Match

if TYPE_CHECKING:
    from bot.service.tables import Tables
    from storage import Store

log = logging.getLogger(__name__)


THEN = ";"  # between the moves of one click, as the custom ids join them


def whole(
    table: LiveTable, round_: Round[Any, Any, Any], seat: int, moves: Sequence[str]
) -> Sequence[str]:
    """The moves of one click that are played: all of them, or the first ones when the
    later ones are for a turn that is no longer there, else none (TableError).

    They are tried in order on a copy of the round, so nothing is applied unless the click
    stands as a whole: each must be well formed and legal where the ones before it leave the
    player. A later move is left out, with the ones after it, only when the moves before it
    ended the player's turn (the turn passed, or the round is over: `swap 2;end` when the swap
    ended the turn by itself): it was for a turn that is over. Any other move that cannot be
    played (`draw;drop`, `draw;draw`) refuses the click: the round stays as it was, nothing
    is stored. (So a button's later moves must follow from its first whatever the cards:
    no "discard and end the turn" for a card whose discard opens a power.)"""
    if len(moves) == 1:
        return moves
    trial = pickle.loads(pickle.dumps(round_, pickle.HIGHEST_PROTOCOL))
    for index, move in enumerate(moves):
        try:
            action = table.game.parse_action(move)
            if index and (trial.finished or seat not in trial.to_act()):
                return moves[:index]
            trial.apply(seat, action)
        except IllegalAction as error:
            raise TableError(
                f"illegal:{error.rule}", message=error.message, game=table.game.name
            ) from error
    return moves


class PlayListener(Protocol):
    """A part that reacts to what play did (the timers, the bot follow-up), told under the
    table's lock instead of being called by play. Each method does nothing by default: a
    listener that subclasses this protocol overrides the ones it reacts to."""

    def move_storing(self, table: LiveTable) -> None:
        """A move was applied on the engine and is being stored."""
        return

    def move_lost(self, table: LiveTable) -> None:
        """The move being stored was not: the round was rolled back to before it."""
        return

    def turn_begun(self, table: LiveTable) -> None:
        """The table is in play after a change: someone must act (a human, a bot)."""
        return

    def round_ended(self, table: LiveTable) -> None:
        """A round's end is stored: the table is between rounds, or its match is over."""
        return

    def player_back(self, table: LiveTable) -> None:
        """An away player came back (asked for their cards)."""
        return

    def stalled(self, table: LiveTable) -> None:
        """A change could not be finished (a store write failed, a bug): try again later."""
        return


class Play:
    """Clicks, views and rounds (it keeps no state of its own: the tables hold it)."""

    def __init__(
        self,
        tables: Tables,
        store: Store,
        clock: Clock,
        choices: PlayerChoices,
        seed_source: Callable[[], int],
    ) -> None:
        self.tables = tables
        self.store = store
        self.clock = clock
        self.choices = choices
        self.seed_source = seed_source
        # told what happened, in the order they listen (the timers, then the follow-up)
        self.listeners: list[PlayListener] = []

    def listen(self, listener: PlayListener) -> None:
        """Tell `listener` what play does from now on, after the listeners before it."""
        self.listeners.append(listener)

    def stalled(self, table: LiveTable) -> None:
        """Announce a change that could not be finished: the table is tried again later."""
        for listener in self.listeners:
            listener.stalled(table)

    async def act(
        self, table_id: int, user_id: int, round_no: int, notation: str, then: Sequence[str] = ()
    ) -> ActResult:
        """One click: `notation`, then the moves `then` of the same player (one click, several
        moves: `whole`). Stored before this returns and before anyone is notified."""
        async with self.tables.locked(table_id) as (table, notes):
            seat = self.tables.need_seat(table, user_id)
            if table.status == LOBBY:
                raise TableError("not_started")
            if round_no != table.round_no:
                raise TableError("stale_button")
            round_ = table.round
            if table.status != PLAYING or round_ is None or round_.finished:
                raise TableError("round_over")
            if seat not in round_.to_act():
                raise TableError("not_your_turn")
            moves = whole(table, round_, seat, (notation, *then))
            events = await self._announce_for(table, seat, user_id, moves[0])
            for move in moves:
                events += await self.apply(table, seat, move, clicked=True)
            stored_notation = THEN.join(str(a) for _, a in round_.history[-len(moves) :])
            public = tuple(log_entry(e) for e in events if e.to is None)
            reveals = tuple(reveal(e) for e in events if e.to is not None and seat in e.to)
            self.player_here(table, seat)
            await self.run_table(table, notes)
            changed(table, notes)
            result = ActResult(
                table_id=table.id,
                seat=seat,
                round_no=round_no,  # checked equal to the table's round above
                notation=stored_notation,
                events=public,
                reveals=reveals,
                private=_snapshot_builder.private_snapshot(table, seat, deliver=False),
                round_over=table.round is round_ and round_.finished,
                match_over=table.status == FINISHED,
            )
        return result

    async def _announce_for(
        self, table: LiveTable, seat: int, user_id: int, notation: str
    ) -> list[Event]:
        """The announcement the player chose to have made for them before this move (a knock
        before a discard, `/deck auto_knock`), if the round offers one
        (`Round.announcement_before`): applied and stored first, as if the player clicked it."""
        round_ = table.round
        if round_ is None or not self.choices.auto_knock(user_id):
            return []
        try:
            before = round_.announcement_before(seat, table.game.parse_action(notation))
        except IllegalAction:
            return []  # the move itself is refused below, with its reason
        if before is None:
            return []
        return await self.apply(table, seat, before, clicked=True)

    async def private_view(self, table_id: int, user_id: int) -> PrivateSnapshot[Any]:
        """The "My cards" button: the seat's view and legal actions, and the reveals it has
        not seen yet (once). Brings an away seat back."""
        async with self.tables.locked(table_id) as (table, notes):
            seat = self.tables.need_seat(table, user_id)
            if table.seats[seat].away:
                self.player_here(table, seat)
                for listener in self.listeners:
                    listener.player_back(table)
                changed(table, notes)
            return _snapshot_builder.private_snapshot(table, seat, deliver=True)

    async def follow_view(self, table_id: int, user_id: int) -> PrivateSnapshot[Any] | None:
        """What a player's open "My cards" message shows when it follows the game by itself:
        the seat's view and legal actions, without any card a rule showed it (those are
        handed out once, by a click) and without bringing an away seat back. None when the
        user no longer sits at the table."""
        async with self.tables.reading(table_id) as (
            table,
            _notes,
        ):
            seat = table.seat_of(user_id)
            if seat is None:
                return None
            return _snapshot_builder.private_snapshot(table, seat, deliver=False, hide_reveals=True)

    def follow_view_now(self, table_id: int, user_id: int) -> PrivateSnapshot[Any] | None:
        """`follow_view` at once, without waiting for the table's lock, when nothing holds it:
        every change is then stored and published, so the live table is the one last stored.
        None when something holds it (a move being stored), when the table is not in memory
        or when the user does not sit there: ask `follow_view` then."""
        table = self.tables.live.get(table_id)
        if table is None or table.closed or table.lock.locked():
            return None
        seat = table.seat_of(user_id)
        if seat is None:
            return None
        return _snapshot_builder.private_snapshot(table, seat, deliver=False, hide_reveals=True)

    async def recall(
        self, table_id: int, user_id: int, round_no: int | None, reveals: Sequence[Reveal]
    ) -> tuple[Reveal | None, ...]:
        """Cards a rule showed this player earlier in this round (reveals already handed out),
        where the player knows they lie now (`Round.recall`): the glue keeps them in view for
        the reveal delay. None for a card the player can no longer place, and for all of them
        once the round is another or the player left."""
        async with self.tables.reading(table_id) as (
            table,
            _notes,
        ):
            seat = table.seat_of(user_id)
            round_ = table.round
            if seat is None or round_ is None or table.round_no != round_no:
                return (None,) * len(reveals)
            seen = [Event(r.kind, r.seat, r.data, frozenset((seat,))) for r in reveals]
            return tuple(None if e is None else reveal(e) for e in round_.recall(seat, seen))

    async def next_round(self, table_id: int, user_id: int) -> PublicSnapshot:
        """The host deals the next round without waiting for the pause to end."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_seat(table, user_id)
            self.tables.need_host(table, user_id)
            if table.status != ROUND_OVER:
                raise TableError("round_not_over")
            await self.start_round(table, notes)
        return published(table)

    async def apply(
        self, table: LiveTable, seat: int, action: Any, *, clicked: bool = False
    ) -> list[Event]:
        """Apply one action and store it; on a store failure, roll back by replay. Private
        events for seats that did not click this are kept to show them once later. While the
        action is being stored, the bot that must move next, if any, starts thinking (a
        rollback makes its decision one for a state gone by: dropped)."""
        round_ = table.round
        assert round_ is not None and table.round_no is not None
        try:
            events = round_.apply(seat, action)
        except IllegalAction as error:
            raise TableError(
                f"illegal:{error.rule}", message=error.message, game=table.game.name
            ) from error
        seq = len(round_.history) - 1
        notation = str(round_.history[-1][1])
        for listener in self.listeners:
            listener.move_storing(table)
        try:
            await self.store.record_action(table.id, table.round_no, seq, seat, notation)
        except Exception as error:
            for listener in self.listeners:
                listener.move_lost(table)
            record = round_.record()
            table.round = table.game.replay(
                record.model_copy(update={"actions": record.actions[:-1]})
            )
            keep_watched_hands(table)
            table.version += 1  # re-rendered when the lock is released
            log.warning("table %s: action not stored, rolled back: %s", table.id, error)
            raise store_failed(error) from error
        self.tables.long_lived.moved()
        for event in events:
            if event.to is None:
                table.add_log(log_entry(event))
                continue
            for viewer in event.to:
                if not (clicked and viewer == seat):  # the clicker gets it in its ActResult
                    table.pending_reveals.setdefault(viewer, []).append(reveal(event))
        return events

    async def run_table(self, table: LiveTable, notes: list[Notice]) -> None:
        """After any change: score a finished round, arm the timers for the humans who must
        act, and hand the seats nobody clicks for to the table's follow-up (bot/service/
        followup.py): their moves come after the change is answered, each stored and shown."""
        if table.status != PLAYING or table.round is None:
            return
        if table.round.finished:
            try:
                await self.end_round(table, notes)
            except TableError:  # stored actions stand; scoring is retried by a timer
                self.stalled(table)
            return
        for listener in self.listeners:
            listener.turn_begun(table)

    def policy_move(self, table: LiveTable, seat: int, *, default: bool) -> Any:
        """The policy's move (`default`: the safe timeout move); a failing policy must not
        stop the table, so its error is logged and the first legal action is played. The
        engine's own check decides legality: `legal_actions` lists the offered moves, every
        legal one only when the round's `lists_every_move` (bigger lays are legal too)."""
        round_ = table.round
        assert round_ is not None
        policy = policy_for(table.game)
        try:
            if default:
                move = policy.default(round_, seat, table.rng)
            else:
                move = policy.choose(round_, seat, table.rng)
        except Exception:
            log.exception("table %s: %s policy failed for seat %s", table.id, table.game.name, seat)
            return round_.legal_actions(seat)[0]
        return self.checked(table, seat, move)

    @staticmethod
    def checked(table: LiveTable, seat: int, move: Any) -> Any:
        """The move if the engine's own check accepts it, else (logged) the first legal one."""
        round_ = table.round
        assert round_ is not None
        try:
            round_.check(seat, move)
        except IllegalAction as error:
            log.error(
                "table %s: %s policy chose illegal %s (%s)",
                table.id,
                table.game.name,
                move,
                error.rule,
            )
            return round_.legal_actions(seat)[0]
        return move

    async def start_round(self, table: LiveTable, notes: list[Notice]) -> None:
        match = table.match
        assert match is not None
        seed = self.seed_source()
        deck = table.stacked_decks.popleft() if table.stacked_decks else None
        try:
            round_ = match.new_round(deck=deck, seed=None if deck is not None else seed)
        except (IllegalAction, ValueError) as error:
            raise TableError("bad_deck", message=str(error)) from error
        log_before = table.log_state()
        table.add_log(LogEntry("round_started", None, {"round": match.round_no + 1}, "table"))
        try:
            settings = await self.store.get_guild_settings(table.guild_id)
            round_no = await self.store.start_round(
                table.id, round_.record(), log=_table_log.table_log(table, before_round=True)
            )
        except Exception as error:
            table.restore_log(log_before)
            raise store_failed(error) from error
        table.log_unsaved = False
        table.turn_seconds = table.turn_override or float(settings.turn_seconds)
        table.cancel_timer()
        table.round = round_
        keep_watched_hands(table)
        table.round_no = round_no
        table.round_scored = False
        table.status = PLAYING
        table.last_round = None
        table.next_round_at = None
        table.pending_reveals.clear()
        table.waiting_since.clear()
        table.reminded.clear()
        table.rng = random.Random(seed)
        notes.append(("round_started", table.id, None))
        await self.run_table(table, notes)
        changed(table, notes)

    async def end_round(self, table: LiveTable, notes: list[Notice]) -> None:
        """Store the finished round's result, then (match over) the winners and stats. Each
        step is stored once: after a failure the retry resumes at the step that failed."""
        match, round_ = table.match, table.round
        assert match is not None and round_ is not None and table.round_no is not None
        table.cancel_timer()
        table.waiting_since.clear()
        table.reminded.clear()
        table.auto_plays.clear()
        result = round_.result()
        if not table.round_scored:
            before = match.state()
            match.add_round(result)
            # the round's end as the table shows it, kept with its result (a restart shows it)
            log_before, last_before = table.log_state(), table.last_round
            shown = table.show_round_end(table.round_no, round_, result)
            table.add_log(
                LogEntry(
                    "round_over", None, {"points": shown.points, "totals": shown.totals}, "table"
                )
            )
            try:
                await self.store.finish_round(
                    table.id,
                    table.round_no,
                    result,
                    list(match.totals),
                    log=_table_log.table_log(table),
                )
            except Exception as error:
                table.match = Match.restore(table.game, before)
                table.restore_log(log_before)
                table.last_round = last_before
                log.error("table %s: round end not stored: %s", table.id, error)
                raise store_failed(error) from error
            table.round_scored = True
            table.log_unsaved = False
        if match.finished:
            await self.finish_match(table, match)
            table.status = FINISHED
            table.winners = match.winner_seats()
            table.add_log(LogEntry("match_over", None, {"winners": table.winners}, "table"))
            notes.append(("match_over", table.id, None))  # stored: its listeners may read it
            for user_id in table.human_ids():
                self.tables.release(table.guild_id, user_id, table.id)
        else:
            table.status = ROUND_OVER
        for listener in self.listeners:
            listener.round_ended(table)

    async def finish_match(self, table: LiveTable, match: Match) -> None:
        try:
            if not table.match_stored:
                # the season a match counts in is the one open on the service's clock, the
                # clock that also rolls the seasons over (bot/seasons.py)
                await self.store.finish_match(
                    table.id,
                    list(match.winner_seats()),
                    list(match.totals),
                    at=datetime.fromtimestamp(self.clock.now(), UTC),
                    rated=not table.coach,  # a practice table counts in no rating
                )
                table.match_stored = True
            await self.store.update_table(table.id, status="finished")
        except Exception as error:
            log.error("table %s: match end not stored: %s", table.id, error)
            raise store_failed(error) from error

    @staticmethod
    def player_here(table: LiveTable, seat: int) -> None:
        """The seat's player acted or asked for their cards: no longer waited on, reminded,
        timed out or away (and the table log says so if they were away)."""
        player = table.seats[seat]
        if player.away:
            table.add_log(LogEntry("back", seat, {"name": player.name}, "table", (player.user_id,)))
        player.away = False
        player.timeouts = 0
        table.waiting_since.pop(seat, None)
        table.reminded.discard(seat)


def log_entry(event: Event) -> LogEntry:
    return LogEntry(event.kind, event.seat, dict(event.data), "engine")


def reveal(event: Event) -> Reveal:
    return Reveal(event.kind, event.seat, dict(event.data))
