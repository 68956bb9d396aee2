"""Tournaments run by the bot, from sign-up to podium.

The scheduler runs on the service's clock (sign-up closes, check-in ends and the event starts);
each round's tables are opened through the table service in threads of the event's channel with
their players mentioned; results are read when a table's match is over; standings come after
each round and the podium at the end.

Every transition is stored (storage/tournaments.py) before it is announced (check-in's opening
is said first: nothing is derived from it), and each step is idempotent from what is stored, so
a restart (or a kill -9) resumes an event where it was: `start` reads every open event, then,
once the tables are restored, `_advance` opens the tables not opened yet, reads the results of
matches that ended while the bot was down and arms the next timer. Rules: games/tournament/.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.clock import TimerHandle
from bot.i18n import text
from bot.render.tournaments import (
    EMBED_COLOUR,
    TournamentMessage,
    announcement,
    podium,
    standings,
    title,
)
from bot.service.errors import TableError
from bot.snapshots import LOBBY, PlayerRef
from games.tournament.event import (
    CANCELLED,
    CHECKIN,
    FINISHED,
    RUNNING,
    SIGNUP,
    Round,
    Table,
    TournamentError,
)
from storage.errors import StoreError
from storage.models import SeatRecord
from storage.tournaments import StoredTournament, TournamentSettings

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

# Caps (README, docs/tournaments.md): events open at once in one server, players in one event.
MOST_EVENTS_PER_SERVER = 3
MOST_PLAYERS = 256
MESSAGE_CHARACTERS = 2_000  # Discord's limit on a message's content
RETRY_SECONDS = 30.0  # a step the store or Discord refused is tried again this soon
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "success": discord.ButtonStyle.success,
    "secondary": discord.ButtonStyle.secondary,
}


def mention_lines(user_ids: list[int]) -> list[str]:
    """The users' mentions in as few messages as Discord's 2,000 characters allow (256
    players' mentions are some 5,900 characters)."""
    lines: list[str] = []
    for user_id in user_ids:
        mention = f"<@{user_id}>"
        if lines and len(lines[-1]) + 1 + len(mention) <= MESSAGE_CHARACTERS:
            lines[-1] += f" {mention}"
        else:
            lines.append(mention)
    return lines


def embed_of(message: TournamentMessage) -> discord.Embed:
    embed = discord.Embed(title=message.title, description=message.description, colour=EMBED_COLOUR)
    for name, value in message.fields:
        embed.add_field(name=name, value=value[:1024], inline=False)
    return embed


def view_of(message: TournamentMessage) -> discord.ui.View | None:
    if not message.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in message.buttons:
        view.add_item(
            discord.ui.Button(
                custom_id=button.custom_id, label=button.label, style=STYLES[button.style]
            )
        )
    return view


class TournamentRunner:
    """Every open event of this process, each changed under its own lock."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.events: dict[int, StoredTournament] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._timers: dict[int, TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.loaded = asyncio.Event()  # the open events are read: commands and buttons see them
        self.resumed = asyncio.Event()  # the start's resume is done (tests wait on it)

    # -- life ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Read every open event (its buttons answered from then on), then resume each once
        the tables it plays at are restored."""
        try:
            for stored in await self.bot.store.tournaments.open_ones():
                self.events[stored.id] = stored
        finally:
            self.loaded.set()
        await self.bot.service.restoring.wait()
        for tournament_id in list(self.events):
            await self._advance(tournament_id)
        self.resumed.set()

    async def ready(self) -> None:
        """Wait until the open events are read (a click just after a start waits for it
        rather than hearing that its event does not exist)."""
        await self.loaded.wait()

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._tasks:
            task.cancel()

    async def idle(self) -> None:
        """Wait for the steps started in the background (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _arm(self, tournament_id: int, delay: float) -> None:
        old = self._timers.pop(tournament_id, None)
        if old is not None:
            old.cancel()

        async def due() -> None:
            self._timers.pop(tournament_id, None)
            await self._advance(tournament_id)

        self._timers[tournament_id] = self.bot.clock.call_later(max(0.0, delay), due)

    # -- commands and buttons ----------------------------------------------------------------
    def open_in_guild(self, guild_id: int) -> list[StoredTournament]:
        return [t for t in self.events.values() if t.guild_id == guild_id]

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        created_by: int,
        game: str,
        preset: str | None,
        target: int | None,
        settings: TournamentSettings,
        signup_closes_at: float,
        starts_at: float,
    ) -> StoredTournament:
        """Store a new event (TournamentError `too_many_events` past the server's cap)."""
        await self.ready()  # the cap counts the events open before a restart too
        if len(self.open_in_guild(guild_id)) >= MOST_EVENTS_PER_SERVER:
            raise TournamentError("too_many_events", most=MOST_EVENTS_PER_SERVER)
        settings.as_format()  # refuses a combination the formats do not play
        tournament_id = await self.bot.store.tournaments.create(
            guild_id=guild_id,
            channel_id=channel_id,
            created_by=created_by,
            game=game,
            preset=preset,
            target=target,
            settings=settings,
            signup_closes_at=signup_closes_at,
            starts_at=starts_at,
        )
        stored = await self.bot.store.tournaments.load(tournament_id)
        self.events[tournament_id] = stored
        self._arm(tournament_id, signup_closes_at - self.bot.clock.now())
        return stored

    def get(self, tournament_id: int) -> StoredTournament:
        stored = self.events.get(tournament_id)
        if stored is None:
            raise TournamentError("no_tournament")
        return stored

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> StoredTournament:
        async with self._locks[tournament_id]:
            stored = self.get(tournament_id)
            entrant = stored.event.sign_up(user_id, name, MOST_PLAYERS)
            try:
                await self.bot.store.tournaments.add_entrant(tournament_id, entrant)
            except StoreError:
                stored.event.entrants.remove(entrant)
                raise
        return stored

    async def withdraw(self, tournament_id: int, user_id: int) -> StoredTournament:
        async with self._locks[tournament_id]:
            stored = self.get(tournament_id)
            entrant = stored.event.entrant(user_id)
            position = stored.event.entrants.index(entrant) if entrant is not None else 0
            stored.event.withdraw(user_id)
            try:
                await self.bot.store.tournaments.remove_entrant(tournament_id, user_id)
            except StoreError:
                assert entrant is not None
                stored.event.entrants.insert(position, entrant)
                raise
        return stored

    async def check_in(self, tournament_id: int, user_id: int) -> StoredTournament:
        async with self._locks[tournament_id]:
            stored = self.get(tournament_id)
            stored.event.check_in(user_id)
            try:
                await self.bot.store.tournaments.check_in(tournament_id, user_id)
            except StoreError:
                entrant = stored.event.entrant(user_id)
                assert entrant is not None
                entrant.checked_in = False
                raise
        return stored

    async def cancel(self, tournament_id: int) -> StoredTournament:
        """Stop the event: tables in play go on as ordinary matches; nothing more counts."""
        async with self._locks[tournament_id]:
            stored = self.get(tournament_id)
            before = stored.event.status
            stored.event.cancel()
            try:
                await self.bot.store.tournaments.save_status(tournament_id, stored.event)
            except StoreError:
                stored.event.status = before
                raise
            self._forget(tournament_id)
        await self.refresh(stored)
        return stored

    def _forget(self, tournament_id: int) -> None:
        self.events.pop(tournament_id, None)
        timer = self._timers.pop(tournament_id, None)
        if timer is not None:
            timer.cancel()

    # -- messages ----------------------------------------------------------------------------
    async def language(self, stored: StoredTournament) -> str:
        return await self.bot.guild_settings.public_language(stored.guild_id)

    async def refresh(self, stored: StoredTournament) -> None:
        """Bring the event's message up to date (its buttons follow its status)."""
        if stored.message_id is None:
            return
        language = await self.language(stored)
        shown = announcement(language, stored, MOST_PLAYERS)
        channel = self.bot.get_partial_messageable(stored.channel_id)
        try:
            await channel.get_partial_message(stored.message_id).edit(
                embed=embed_of(shown), view=view_of(shown)
            )
        except discord.HTTPException as error:
            log.warning("tournament %s: its message could not be edited: %s", stored.id, error)

    async def _say(self, stored: StoredTournament, content: str, **extra: Any) -> None:
        channel = self.bot.get_partial_messageable(stored.channel_id)
        try:
            await channel.send(content=content, **extra)
        except discord.HTTPException as error:
            log.warning("tournament %s: a message could not be posted: %s", stored.id, error)

    # -- the scheduler ---------------------------------------------------------------------
    async def _advance(self, tournament_id: int) -> None:
        """Move the event on as far as the clock and the results allow; stored first, then
        announced. Safe to run again at any time (a restart runs it on every open event)."""
        try:
            async with self._locks[tournament_id]:
                stored = self.events.get(tournament_id)
                if stored is None:
                    return
                await self._step(stored)
        except (StoreError, TableError, discord.HTTPException) as error:
            log.warning("tournament %s: will try again: %s", tournament_id, error)
            self._arm(tournament_id, RETRY_SECONDS)

    async def _step(self, stored: StoredTournament) -> None:
        event = stored.event
        now = self.bot.clock.now()
        if event.status == SIGNUP:
            if now < stored.signup_closes_at:
                self._arm(stored.id, stored.signup_closes_at - now)
                return
            # Announced, then stored: a stop in between opens check-in again at the restart
            # (said twice rather than never). Clicks on Check in wait for this step's lock.
            event.open_checkin()
            await self.refresh(stored)
            language = await self.language(stored)
            await self._say(
                stored,
                text(language, "tournament.checkin_open", title=title(language, stored)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            for mentions in mention_lines([e.user_id for e in event.entrants]):
                await self._say(
                    stored, mentions, allowed_mentions=discord.AllowedMentions(users=True)
                )
            await self.bot.store.tournaments.save_status(stored.id, event)
        if event.status == CHECKIN:
            if now < stored.starts_at:
                self._arm(stored.id, stored.starts_at - now)
                return
            try:
                event.start(seed=stored.id)
            except TournamentError as error:
                await self.bot.store.tournaments.save_status(stored.id, event)
                self._forget(stored.id)
                await self.refresh(stored)
                language = await self.language(stored)
                await self._say(
                    stored,
                    text(
                        language,
                        "tournament.too_few",
                        title=title(language, stored),
                        fewest=error.data.get("fewest", 2),
                    ),
                )
                return
            await self.bot.store.tournaments.save_status(stored.id, event)
            await self.refresh(stored)
        if event.status == RUNNING:
            await self._run_round(stored)
        elif event.status == FINISHED and event.rounds:  # its end not all announced yet
            await self._round_over(stored, event.rounds[-1])
        if event.status in (FINISHED, CANCELLED):
            self._forget(stored.id)

    async def _run_round(self, stored: StoredTournament) -> None:
        """Pair the next round if the last one is over, open its tables, read the results of
        tables whose match ended unseen; the round's end moves the event on."""
        event = stored.event
        current = event.current()
        if current is not None and current.done and stored.announced < current.number:
            await self._round_over(stored, current)  # its standings, cut off by a stop
            return
        if current is None or current.done:
            current = event.next_round()
            await self.bot.store.tournaments.save_round(stored.id, event, current)
            await self.refresh(stored)
            await self._announce_round(stored, current)
        elif not any(
            t.done or t.place is not None or t.table_id is not None for t in current.tables
        ):
            # paired and stored, then a stop before its tables: its announcement may have
            # been cut off too (posted again rather than never)
            await self.refresh(stored)
            await self._announce_round(stored, current)
        for table in current.tables:
            if table.done:
                continue
            if table.table_id is None:
                await self._open(stored, current, table)
            else:
                await self._resume_table(stored, current, table)
            if table.done and current.done:
                break
        if current.done:
            await self._round_over(stored, current)

    async def _announce_round(self, stored: StoredTournament, round_: Round) -> None:
        language = await self.language(stored)
        byes = [" & ".join(stored.event.names(u)) for u in round_.byes]
        line = text(
            language,
            "tournament.round_starts",
            title=title(language, stored),
            round=round_.number,
            tables=len(round_.tables),
        )
        if byes:
            line += "\n" + text(language, "tournament.byes", names=", ".join(byes))
        await self._say(stored, line, allowed_mentions=discord.AllowedMentions.none())

    # -- tables ------------------------------------------------------------------------------
    def _seats(self, stored: StoredTournament, table: Table) -> list[tuple[int, int, str]]:
        """(position, user id, name) of every player of the table, partners opposite."""
        event = stored.event
        names = {e.user_id: e.name for e in event.entrants}
        seats = []
        width = len(table.sides)
        for side, units in enumerate(table.sides):
            users = [user for unit in units for user in event.units[unit]]
            for k, user in enumerate(users):
                seats.append((side + k * width, user, names.get(user, "?")))
        return sorted(seats)

    def _present(self, stored: StoredTournament, user_id: int) -> bool:
        """A player who checked in (or whose absence a bot covers) and sits at no other table."""
        if user_id in stored.event.absent():
            return False
        return self.bot.service.tables.table_of_user(stored.guild_id, user_id) is None

    async def _open(self, stored: StoredTournament, round_: Round, table: Table) -> None:
        if table.place is not None and table.place != stored.channel_id:
            found = await self._lobby_in(table.place)
            if found is not None:  # opened before a stop, never noted: it is this table
                table.table_id = found
                await self.bot.store.tournaments.set_table(
                    stored.id, round_.number, table.number, found
                )
                await self.bot.locations.set_thread(found, table.place)
                await self._seat_and_start(stored, round_, table, table.place)
                return
        seats = self._seats(stored, table)
        humans = [(p, u, n) for p, u, n in seats if self._present(stored, u)]
        if not humans:  # no one to play it: both sides lose (stored before it counts)
            await self._record(stored, round_, table, ())
            return
        if table.place is None:  # the thread first, kept: a restart finds its table there
            place = await self._thread(stored, round_, table)
            await self.bot.store.tournaments.set_place(
                stored.id, round_.number, table.number, place
            )
            table.place = place
        where = table.place
        _, host_id, host_name = humans[0]
        snapshot = await self.bot.service.seating.open_table(
            stored.guild_id,
            where,
            PlayerRef(host_id, host_name),
            stored.game,
            stored.preset,
            stored.target,
            None,
            turn_seconds=stored.settings.turn_seconds,
        )
        table.table_id = snapshot.table_id
        await self.bot.store.tournaments.set_table(
            stored.id, round_.number, table.number, snapshot.table_id
        )
        if where != stored.channel_id:
            await self.bot.locations.set_thread(snapshot.table_id, where)
        await self._seat_and_start(stored, round_, table, where)

    async def _lobby_in(self, place: int) -> int | None:
        """The bot's table waiting in its lobby in this thread, if any."""
        for table_id in self.bot.service.tables_in_channel(place):
            await self.bot.service.restoring.ready(table_id)
            if self.bot.service.public_snapshot(table_id).status == LOBBY:
                return table_id
        return None

    async def _thread(self, stored: StoredTournament, round_: Round, table: Table) -> int:
        """A thread of the event's channel for the table (the channel itself if none)."""
        language = await self.language(stored)
        name = text(
            language,
            "tournament.thread_name",
            id=stored.id,
            round=round_.number,
            table=table.number,
        )
        channel = self.bot.get_channel(stored.channel_id)
        if not isinstance(channel, discord.TextChannel):
            with contextlib.suppress(discord.HTTPException):
                fetched = await self.bot.fetch_channel(stored.channel_id)
                channel = fetched if isinstance(fetched, discord.TextChannel) else None
        if channel is None or not isinstance(channel, discord.TextChannel):
            return stored.channel_id
        try:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as error:
            log.warning("tournament %s: no thread (%s): the channel is used", stored.id, error)
            return stored.channel_id
        return thread.id

    async def _seat_and_start(
        self, stored: StoredTournament, round_: Round, table: Table, where: int
    ) -> None:
        """Seat whoever is missing from the table's lobby (bots for the no-shows), start it,
        post its message and mention its players. Run again after a restart mid-way."""
        assert table.table_id is not None
        service = self.bot.service
        table_id = table.table_id
        snapshot = service.public_snapshot(table_id)
        if snapshot.status != LOBBY:
            return
        game = service.game_of(table_id)
        fixed = game.min_seats == game.max_seats  # four places: each player at their own
        seated = {s.user_id for s in snapshot.seats if s.user_id is not None}
        host_id = snapshot.host_id
        language = await self.language(stored)
        seats = self._seats(stored, table)
        for position, user_id, name in seats:
            if user_id in seated:
                if fixed and user_id == host_id:
                    with contextlib.suppress(TableError):  # the host to their own place
                        await service.seating.join(table_id, PlayerRef(user_id, name), position)
                continue
            if self._present(stored, user_id):
                await service.seating.join(
                    table_id, PlayerRef(user_id, name), position if fixed else None
                )
        absent = [name for _, user_id, name in seats if not self._present_at(table_id, user_id)]
        for name in absent:
            await service.seating.add_bot(table_id, host_id, _bot_name(language, name))
        await service.seating.start(table_id, host_id)
        await self._show_table(stored, round_, table, where)

    async def _show_table(
        self, stored: StoredTournament, round_: Round, table: Table, where: int
    ) -> None:
        """Post the table's message in its thread and mention its players there."""
        assert table.table_id is not None
        table_id = table.table_id
        language = await self.language(stored)
        await self.bot.notifier.post(table_id, where)
        seats = self._seats(stored, table)
        people = " ".join(f"<@{u}>" for _, u, _ in seats if self._present_at(table_id, u))
        line = text(
            language,
            "tournament.table_opened",
            title=title(language, stored),
            round=round_.number,
            table=table.number,
        )
        channel = self.bot.get_partial_messageable(where)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                content=f"{line}\n{people}",
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    def _present_at(self, table_id: int, user_id: int) -> bool:
        snapshot = self.bot.service.public_snapshot(table_id)
        return any(s.user_id == user_id for s in snapshot.seats)

    async def _resume_table(self, stored: StoredTournament, round_: Round, table: Table) -> None:
        """After a restart: a lobby is seated and started, a match started but never shown
        is posted, a match over is read."""
        assert table.table_id is not None
        if self.bot.service.has_table(table.table_id):
            await self.bot.service.restoring.ready(table.table_id)
            where = self.bot.service.public_snapshot(table.table_id).channel_id
            if self.bot.service.public_snapshot(table.table_id).status == LOBBY:
                await self._seat_and_start(stored, round_, table, where)
                return
            if (await self.bot.locations.get(table.table_id)).message_id is None:
                await self._show_table(stored, round_, table, where)
                return
        await self._read_result(stored, round_, table)

    async def _read_result(self, stored: StoredTournament, round_: Round, table: Table) -> None:
        """The table's match result as stored, if it is over; recorded once."""
        assert table.table_id is not None
        status, winners = await self.bot.store.tournaments.table_outcome(table.table_id)
        if winners is None and status not in ("abandoned", "broken"):
            return  # still in play
        sides: set[int] = set()
        if winners is not None:
            side_of = self._sides_of_seats(
                stored, table, await self.bot.store.get_seats(table.table_id)
            )
            sides = {side_of[seat] for seat in winners if seat in side_of}
        await self._record(stored, round_, table, tuple(sorted(sides)))

    @staticmethod
    def _sides_of_seats(
        stored: StoredTournament, table: Table, seats: list[SeatRecord]
    ) -> dict[int, int]:
        """Each seat's side: a game of four seats partners at opposite places (0 and 2 one
        side, 1 and 3 the other), as `_seats` placed them; at a table of two, a player's own
        side, and a bot the side of the player it stands in for (the side left)."""
        width = len(table.sides)
        if len(seats) == 4:
            return {seat.seat: seat.seat % width for seat in seats}
        by_user = {
            user: side
            for side, units in enumerate(table.sides)
            for unit in units
            for user in stored.event.units[unit]
        }
        found = {s.seat: by_user[s.user_id] for s in seats if s.user_id in by_user}
        left = [side for side in range(width) if side not in found.values()]
        for seat in sorted(s.seat for s in seats if s.seat not in found):
            if left:
                found[seat] = left.pop(0)
        return found

    async def _record(
        self, stored: StoredTournament, round_: Round, table: Table, sides: tuple[int, ...]
    ) -> None:
        event = stored.event
        before_status, before_bracket = event.status, list(event.bracket)
        event.record(round_.number, table.number, sides)
        try:
            await self.bot.store.tournaments.record_result(
                stored.id, event, round_.number, table.number, sides
            )
        except StoreError:
            table.winning_sides = None
            event.status, event.bracket = before_status, before_bracket
            raise

    async def _round_over(self, stored: StoredTournament, round_: Round) -> None:
        """Standings after the round; the podium at the end, else the next round. Each is
        posted, then counted in the store (a stop in between posts it again at the restart:
        twice rather than never)."""
        language = await self.language(stored)
        if stored.announced < round_.number:
            shown = standings(language, stored, round_.number)
            channel = self.bot.get_partial_messageable(stored.channel_id)
            await channel.send(
                embed=embed_of(shown), allowed_mentions=discord.AllowedMentions.none()
            )
            await self._announced(stored, round_.number)
        if stored.event.status == FINISHED:
            if stored.announced <= round_.number:
                await self.refresh(stored)
                await self._say(
                    stored,
                    podium(language, stored),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                await self._announced(stored, round_.number + 1)
            self._forget(stored.id)
            return
        await self._run_round(stored)

    async def _announced(self, stored: StoredTournament, count: int) -> None:
        await self.bot.store.tournaments.set_announced(stored.id, count)
        stored.announced = count

    # -- results -----------------------------------------------------------------------------
    async def match_over(self, table_id: int) -> None:
        """The service's listener: a table's match is over and stored. Read in the
        background, so the click that ended it is answered first."""
        self._spawn(self._match_over(table_id))

    async def _match_over(self, table_id: int) -> None:
        try:
            slot = await self.bot.store.tournaments.of_table(table_id)
        except StoreError as error:
            log.warning("table %s: its tournament could not be read: %s", table_id, error)
            return
        if slot is None:
            return
        tournament_id, round_no, table_no = slot
        try:
            async with self._locks[tournament_id]:
                stored = self.events.get(tournament_id)
                if stored is None or stored.event.status != RUNNING:
                    return
                round_ = stored.event.rounds[round_no - 1]
                table = stored.event.table(round_no, table_no)
                if table.done:
                    return
                await self._read_result(stored, round_, table)
                if round_.done and round_no == len(stored.event.rounds):
                    await self._round_over(stored, round_)
        except (StoreError, TableError, discord.HTTPException) as error:
            log.warning("tournament %s: will try again: %s", tournament_id, error)
            self._arm(tournament_id, RETRY_SECONDS)

    # -- reading -----------------------------------------------------------------------------
    async def load(self, tournament_id: int) -> StoredTournament:
        """An event, open (from memory) or not (from the store)."""
        if tournament_id in self.events:
            return self.events[tournament_id]
        return await self.bot.store.tournaments.load(tournament_id)


__all__ = ["CHECKIN", "MOST_EVENTS_PER_SERVER", "MOST_PLAYERS", "TournamentRunner"]


def _bot_name(language: str, name: str) -> Callable[[int], str]:
    """The name of the bot player seated for an absent entrant, whatever its number."""
    return lambda _: text(language, "tournament.bot_for", name=name)
