"""The table service's notifier on Discord.

It makes coalesced edits of the public table message, a fresh message each round, turn
reminders, and the closing edit.

Every public message is rendered from the service's public snapshot in the guild's language.
A digest of the last content sent per table skips edits that would change nothing (for
instance after a click already answered with `interaction.response.edit_message`).

Memory: what is kept per table (digest, last snapshot, lock) is kept for open tables only.
Every way a table leaves the service ends in `table_closed`, whose closing edit frees it all
(and the table's location and pending edit); work that comes later for a closed table finds
nothing to do and keeps nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.clock import Clock, SystemClock
from bot.custom_ids import Verb, verb_id
from bot.games import plugin_for
from bot.i18n import text
from bot.render.actions import ButtonSpec
from bot.render.table import RenderedMessage, render_table
from bot.runtime.priority import background
from bot.service.errors import TableError
from bot.snapshots import CLOSED, PLAYING, ROUND_OVER, PublicSnapshot
from bot.ui.coalescer import EditCoalescer, RetryLater
from bot.ui.layout import shown_as
from bot.ui.message_pictures import EditFiles, Prepared, drawn_in_thread
from bot.ui.pacer import CLICKED, EDITS_PER_WINDOW, WINDOW_SECONDS, ChannelPacer
from storage.models import TurnMention

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

# Discord error codes: unknown message / channel, and "message too old to edit" (30046).
UNKNOWN_MESSAGE = 10008
TOO_OLD_TO_EDIT = 30046
REPOST_CODES = frozenset({UNKNOWN_MESSAGE, TOO_OLD_TO_EDIT})
REMINDER_LIFETIME = 120.0  # seconds a turn reminder stays in the channel


def turn_of(snapshot: PublicSnapshot) -> tuple[int, int] | None:
    """(seat, round) when one human, present seat is to play; else None (a phase everyone
    plays at once is nobody's turn, even when one seat is left to play it)."""
    if snapshot.status != PLAYING or len(snapshot.to_act) != 1 or snapshot.round_no is None:
        return None
    if plugin_for(snapshot.game).everyone_at_once(snapshot.view):
        return None
    seat = snapshot.to_act[0]
    info = snapshot.seats[seat] if seat < len(snapshot.seats) else None
    if info is None or info.user_id is None or info.is_bot or info.away or info.left:
        return None
    return seat, snapshot.round_no


def digest(rendered: RenderedMessage) -> str:
    payload = {
        "embed": rendered.embed.to_dict(),
        "components": [repr(c) for c in rendered.components],
        "seats": [repr(s) for s in rendered.seats],
    }
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


class DiscordNotifier:
    def __init__(
        self,
        bot: CardTableBot,
        *,
        edit_delay: float = 1.0,
        channel_edits: tuple[int, float] = (EDITS_PER_WINDOW, WINDOW_SECONDS),
        pacing_clock: Clock | None = None,
    ) -> None:
        self.bot = bot
        # Retries back off from twice the coalescing delay (2 s in production) up to a minute.
        self.coalescer = EditCoalescer(self._edit, delay=edit_delay, retry_delay=2 * edit_delay)
        # Discord's rate limit runs on real time, whatever clock the tables' timers use.
        edits, per = channel_edits
        clock = pacing_clock or SystemClock()
        self.pacer = ChannelPacer(clock, edits=edits, per=per)  # edits of table messages
        # posts and deletes of the bot's short messages (turn mentions, reminders), under the
        # same limit and order: Discord counts them apart from edits
        self.posts = ChannelPacer(clock, edits=edits, per=per)
        # Per open table (and a closed one until its closing edit): see the module docstring.
        self._sent: dict[int, str] = {}  # table id -> digest of the content last sent
        # table id -> the mention of the turn now played (kept in the store too)
        self._pings: dict[int, TurnMention] = {}
        self._ping_pending: set[int] = set()
        # table id -> the turn (seat, round) its player's own click started: not mentioned
        self._seen_turns: dict[int, tuple[int, int]] = {}
        self._ping_locks: dict[int, asyncio.Lock] = {}
        # table id -> (message id, file name) of the round-end picture that message carries
        self._pictured: dict[int, tuple[int, str]] = {}
        self._last: dict[int, PublicSnapshot] = {}  # table id -> the snapshot last rendered
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # table id -> clicks being answered by an edit of the table message itself
        self._answering: dict[int, int] = {}

    # -- TableNotifier ------------------------------------------------------------------
    async def table_changed(self, table_id: int) -> None:
        self._moved_up(table_id, ChannelPacer.changed)
        # A table being played is edited without the coalescing delay: its players' "My
        # cards" follow every move at once, and a table message a second behind them showed
        # a card already taken. A burst still makes one edit per edit under way, and the
        # channel's pacer keeps the edits within Discord's limit. A click answered by an edit
        # of the table message itself needs none: the delayed edit finds it sent.
        at_once = self.pacer.class_of(table_id) == CLICKED and table_id not in self._answering
        self.coalescer.mark(table_id, at_once=at_once)
        self.bot.tables.follower.table_changed(table_id)  # open "My cards" messages follow
        if table_id not in self._ping_pending and self._ping_may_change(table_id):
            self._ping_pending.add(table_id)
            self._spawn(self._turn_ping(table_id))

    def _ping_may_change(self, table_id: int) -> bool:
        """Would a mention pass (`_turn_ping`) do anything now? Not when the turn it would
        mention is the one mentioned (or there is none, and no mention) and no pass is under
        way: most changes are moves within a turn or bot players' moves, and a pass per change
        was a task, two loop turns and a snapshot read for nothing. A change later in the
        burst asks again."""
        lock = self._ping_locks.get(table_id)
        if lock is not None and lock.locked():
            return True  # a pass may be posting another turn's mention: the next one checks
        try:
            wanted = turn_of(self.bot.service.public_snapshot(table_id))
        except TableError:
            return True  # the pass forgets the table
        seen = self._seen_turns.get(table_id)
        if seen is not None:
            return wanted != seen  # that turn is over: the pass forgets it, mentions the next
        current = self._pings.get(table_id)
        return wanted != (None if current is None else (current.seat, current.round_no))

    def refresh(self, table_id: int) -> None:
        """Show the table's state again (after a restart), when its channel has room: tables
        clicked or changed since the start go first, and a refresh that changes nothing sends
        nothing."""
        self.coalescer.mark(table_id)

    async def _turn_ping(self, table_id: int) -> None:
        """Mention the player whose turn starts (guild setting `turn_pings`), in a short
        message deleted once that turn is over. A simultaneous phase (everyone peeks) and bot
        or away seats get none. The mention is kept in the store while its turn lasts: a
        restarted bot adopts it (`adopt_mentions`), deletes it once played and does not
        mention the same turn again. Posts and deletes wait for their turn in the channel
        (`posts`, the same limit as edits); a mention whose turn is over by then is dropped."""
        await asyncio.sleep(0)  # a burst of moves makes one pass
        self._ping_pending.discard(table_id)
        if not self.bot.service.has_table(table_id):
            return  # closed meanwhile: its closing deleted any mention
        lock = self._ping_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            try:
                snapshot = self.bot.service.public_snapshot(table_id)
            except TableError:
                self._ping_locks.pop(table_id, None)
                self._seen_turns.pop(table_id, None)
                return
            wanted = turn_of(snapshot)
            if self._seen_turns.get(table_id, wanted) != wanted:
                del self._seen_turns[table_id]  # the turn a player's own click started is over
            current = self._pings.get(table_id)
            if current is not None and (current.seat, current.round_no) == wanted:
                return
            user_id = None
            if wanted is not None:
                user_id = snapshot.seats[wanted[0]].user_id
                if user_id is not None and self.bot.tables.follower.is_answering(table_id, user_id):
                    # The player's own click started their turn: its answer shows them their
                    # moves where they look, and a mention would land below it.
                    self._seen_turns[table_id] = wanted
            if current is not None:
                del self._pings[table_id]
                await self._delete_ping(current)
            if wanted is None or user_id is None or self._seen_turns.get(table_id) == wanted:
                return
            settings = await self.bot.guild_settings.get(snapshot.guild_id)
            if not settings.turn_pings:
                return
            language = await self.bot.guild_settings.public_language(snapshot.guild_id)
            location = await self.bot.locations.get(table_id)
            channel_id = location.post_channel_id
            channel = self.bot.get_partial_messageable(channel_id)
            async with self.posts.turn(channel_id, table_id) as turn:
                if self._turn_now(table_id) != wanted:  # played while waiting for the channel
                    turn.edited = False
                    return
                try:
                    sent = await channel.send(
                        text(
                            language, "table.turn_ping", mention=f"<@{user_id}>", table_id=table_id
                        ),
                        allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                    )
                except discord.HTTPException as error:
                    log.warning("could not mention the turn at table %s: %s", table_id, error)
                    return
            mention = TurnMention(
                table_id=table_id,
                channel_id=channel_id,
                message_id=sent.id,
                seat=wanted[0],
                round_no=wanted[1],
            )
            if not self.bot.service.has_table(table_id):  # closed while the mention went out
                await self._delete_ping(mention, stored=False)
                self._ping_locks.pop(table_id, None)
                return
            self._pings[table_id] = mention
            try:
                await self.bot.store.save_turn_mention(mention)
            except Exception as error:  # a restart will not delete it: no reason to stop here
                log.warning("could not keep the turn mention of table %s: %s", table_id, error)

    def _turn_now(self, table_id: int) -> tuple[int, int] | None:
        try:
            return turn_of(self.bot.service.public_snapshot(table_id))
        except TableError:
            return None

    async def mentions_sent(self, table_id: int) -> None:
        """Wait until the mention of the turn that just started at this table, if any, is
        out (a player's hand moving to the bottom goes below it)."""
        while table_id in self._ping_pending:  # its task is spawned: it takes the lock next
            await asyncio.sleep(0)
        lock = self._ping_locks.get(table_id)
        if lock is not None:
            async with lock:
                pass

    async def _delete_ping(self, mention: TurnMention, *, stored: bool = True) -> None:
        """Delete a turn mention (in its turn in the channel), and forget it in the store."""
        channel = self.bot.get_partial_messageable(mention.channel_id)
        async with self.posts.turn(mention.channel_id, mention.table_id):
            with contextlib.suppress(discord.HTTPException):  # already gone: nothing to do
                await channel.get_partial_message(mention.message_id).delete()
        if stored:
            try:
                await self.bot.store.delete_turn_mention(mention.table_id, mention.message_id)
            except Exception as error:  # kept: a restart deletes it again, which is harmless
                log.warning("could not forget the turn mention of %s: %s", mention.table_id, error)

    def adopt_mentions(self, mentions: list[TurnMention]) -> None:
        """After a restart: the mentions the previous process posted and kept (before the
        tables are restored). Each is deleted once its turn is played, and its turn is not
        mentioned again."""
        for mention in mentions:
            self._pings.setdefault(mention.table_id, mention)

    def table_lost(self, table_id: int) -> None:
        """A table that could not be restored: its mention goes (it will never be played)."""
        mention = self._pings.pop(table_id, None)
        self._ping_locks.pop(table_id, None)
        self._seen_turns.pop(table_id, None)
        if mention is not None:
            self._spawn(self._delete_ping(mention))

    def _moved_up(self, table_id: int, move: Callable[[ChannelPacer, int], None]) -> None:
        for pacer in (self.pacer, self.posts):
            move(pacer, table_id)

    def clicked(self, table_id: int) -> None:
        """Someone clicked at this table (the controller says so at every click): its
        messages go first in its channel, before tables only changed or refreshed."""
        self._moved_up(table_id, ChannelPacer.clicked)

    @contextlib.contextmanager
    def answering_on_message(self, table_id: int) -> Iterator[None]:
        """A click whose answer edits the table message itself (join, add a bot): the changes
        it makes wait the coalescing delay, so the answer, not a second edit, shows them."""
        self._answering[table_id] = self._answering.get(table_id, 0) + 1
        try:
            yield
        finally:
            left = self._answering.pop(table_id) - 1
            if left:
                self._answering[table_id] = left

    async def round_started(self, table_id: int) -> None:
        """A channel holds one live message per table: the lobby's message becomes the first
        round's, and each round is shown in the same message (its end stays in it, with the
        Next round button, until the next round starts). A message Discord no longer lets the
        bot edit (older than an hour) is posted anew and the old one deleted (`_repost`)."""
        self._moved_up(table_id, ChannelPacer.changed)
        self.coalescer.mark(table_id, at_once=True)
        self.bot.tables.follower.table_changed(table_id)

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        self._spawn(self._remind(table_id, seat))

    async def _remind(self, table_id: int, seat: int) -> None:
        try:
            snapshot = self.bot.service.public_snapshot(table_id)
        except TableError:
            return
        user_id = snapshot.seats[seat].user_id if seat < len(snapshot.seats) else None
        if user_id is None:
            return
        language = await self.bot.guild_settings.public_language(snapshot.guild_id)
        location = await self.bot.locations.get(table_id)
        channel = self.bot.get_partial_messageable(location.post_channel_id)
        async with self.posts.turn(location.post_channel_id, table_id) as turn:
            try:  # played while waiting for the channel: no reminder
                still = seat in self.bot.service.public_snapshot(table_id).to_act
            except TableError:
                still = False
            if not still:
                turn.edited = False
                return
            # "press My cards" to a player whose My cards is open (and follows) misleads
            opened = self.bot.tables.follower.has_open_hand(table_id, user_id)
            key = "table.reminder_open" if opened else "table.reminder"
            try:
                await channel.send(
                    text(language, key, mention=f"<@{user_id}>", table_id=table_id),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                    delete_after=REMINDER_LIFETIME,
                )
            except discord.HTTPException:
                log.warning("could not remind seat %s of table %s", seat, table_id)

    async def table_closed(self, table_id: int) -> None:
        self._spawn(self._close(table_id))

    async def _close(self, table_id: int) -> None:
        ping = self._pings.pop(table_id, None)
        self._ping_locks.pop(table_id, None)
        self._seen_turns.pop(table_id, None)
        if ping is not None:
            self._spawn(self._delete_ping(ping))  # in its turn; the closing edit goes on
        async with self._locks.setdefault(table_id, asyncio.Lock()):
            self.coalescer.forget(table_id)
            try:
                location = await self.bot.locations.get(table_id)
                async with self.pacer.turn(location.post_channel_id, table_id) as turn:
                    turn.edited = await self._edit_now(table_id)
            except (RetryLater, discord.HTTPException):
                log.warning("could not show the end of table %s", table_id)
            self._sent.pop(table_id, None)
            self._pictured.pop(table_id, None)
            self.bot.tables.follower.forget_table(table_id)
            self.bot.tables.reveals.forget_table(table_id)
            self._last.pop(table_id, None)
            self.pacer.forget(table_id)
            self.posts.forget(table_id)
            self.bot.locations.forget(table_id)
        self._locks.pop(table_id, None)

    # -- messages -----------------------------------------------------------------------
    def note_sent(self, table_id: int, rendered: RenderedMessage) -> None:
        """The table message was just updated by a click's response: no edit needed for it."""
        if self.bot.service.has_table(table_id):
            self._sent[table_id] = digest(rendered)

    def tracked(self) -> dict[str, int]:
        """How many tables each per-table map holds (the soak checks they come back down)."""
        return {
            "sent": len(self._sent),
            "pictured": len(self._pictured),
            "pings": len(self._pings) + len(self._ping_locks) + len(self._seen_turns),
            "followed": self.bot.tables.follower.tracked(),
            "last": len(self._last),
            "locks": len(self._locks),
            "pending_edits": self.coalescer.tracked(),
        }

    def _closed(self, table_id: int) -> bool:
        """Gone from the service and its closing edit done: nothing left to show or keep."""
        return table_id not in self._last and not self.bot.service.has_table(table_id)

    async def render(self, table_id: int) -> RenderedMessage | None:
        try:
            snapshot = self.bot.service.public_snapshot(table_id)
        except TableError:
            # A closed table is gone from the service: show its last state, closed.
            last = self._last.get(table_id)
            if last is None:
                return None
            snapshot = replace(last, status=CLOSED)
        else:
            self._last[table_id] = snapshot
        language = await self.bot.guild_settings.public_language(snapshot.guild_id)
        rendered = render_table(snapshot, language)
        if self.bot.activity_server is not None and snapshot.status in (PLAYING, ROUND_OVER):
            rendered = with_activity_button(rendered, snapshot, language)
        return rendered

    async def post(self, table_id: int, channel_id: int) -> discord.Message | None:
        """Send the table message to a channel (or thread) and remember where it is."""
        rendered = await self.render(table_id)
        if rendered is None:
            return None
        channel = self.bot.get_partial_messageable(channel_id)
        files = await self._picture_files(table_id, None, rendered)
        cards = await self.bot.pictures.complete(None, rendered)
        async with self.posts.turn(channel_id, table_id):
            message = await channel.send(
                **shown_as(rendered, _with_files(cards.embed, files + (cards.attachments or []))),
                files=files + (cards.attachments or []),
            )
        self.bot.pictures.posted(message.id, rendered, cards)
        self._note_pictured(table_id, message.id, rendered)
        await self.bot.locations.set_message(table_id, message.id)
        self.note_sent(table_id, rendered)
        self._picture_late(table_id, cards)
        return message

    async def _edit(self, table_id: int) -> None:
        """A coalesced edit: it waits for its turn in the channel (`ui/pacer.py`), then shows
        the table's state as it is by then."""
        if self._closed(table_id):
            return
        location = await self.bot.locations.get(table_id)
        async with self.pacer.turn(location.post_channel_id, table_id) as turn:
            turn.edited = False
            lock = self._lock(table_id)
            if lock is None:
                return
            async with lock:
                if not self._closed(table_id):
                    turn.edited = await self._edit_now(table_id)
            if turn.edited:
                self.bot.telemetry.edit(paced=turn.waited)

    async def _edit_now(self, table_id: int) -> bool:
        """Show the table's state on its message; False if there was nothing to send."""
        rendered = await self.render(table_id)
        if rendered is None:
            return False
        fingerprint = digest(rendered)
        if self._sent.get(table_id) == fingerprint:
            return False
        location = await self.bot.locations.get(table_id)
        if location.message_id is None:
            await self._repost(table_id)
            return True
        channel = self.bot.get_partial_messageable(location.post_channel_id)
        message = channel.get_partial_message(location.message_id)
        # The cards in play go with the text, in one edit (drawn off the loop, once each).
        cards = await self.bot.pictures.complete(location.message_id, rendered)
        files = cards.edit_files()
        pictured = self._pictured.get(table_id)
        if rendered.picture is None and pictured is not None and pictured[0] == location.message_id:
            # The round-end picture is all the message carries: the next round drops it.
            files = EditFiles(attachments=cards.attachments or [])
            del self._pictured[table_id]
        shown = cards.embed
        if rendered.picture is not None and pictured != (
            location.message_id,
            rendered.picture.filename,
        ):
            shown = _with_files(shown, [])  # the round's picture shows once attached, after
        try:
            await message.edit(**shown_as(rendered, shown), **files)
        except discord.HTTPException as error:
            self.bot.pictures.forget(location.message_id)  # what it carries is unknown now
            if error.status == 429 or error.status >= 500:
                raise RetryLater(None) from error  # discord.py already waited and retried
            if error.code in REPOST_CODES:
                await self._repost(table_id)
                return True
            raise
        picture = rendered.picture
        pictured = (location.message_id, picture.filename) if picture else None
        if picture is not None and self._pictured.get(table_id) != pictured:
            # The table shows the round's end at once; its picture follows when drawn.
            self._note_pictured(table_id, location.message_id, rendered)
            channel_id = location.post_channel_id
            self._spawn(
                self._attach_picture(table_id, channel_id, message, location.message_id, rendered)
            )
        self._sent[table_id] = fingerprint
        self._picture_late(table_id, cards)
        return True

    def _picture_late(self, table_id: int, cards: Prepared) -> None:
        """The message went without its cards' picture, still being drawn: it is not shown as
        it should be, and is edited again (in its turn) once the picture is drawn."""
        if cards.waiting is None:
            return
        self._sent.pop(table_id, None)
        self.bot.pictures.when_drawn(cards.waiting, lambda: self.coalescer.mark(table_id))

    async def _attach_picture(
        self,
        table_id: int,
        channel_id: int,
        message: discord.PartialMessage,
        message_id: int,
        rendered: RenderedMessage,
    ) -> None:
        files = await self._picture_files(table_id, None, rendered)
        if files:
            try:
                async with self.pacer.turn(channel_id, table_id) as turn:  # an edit like others
                    assert rendered.picture is not None
                    if self._pictured.get(table_id) != (message_id, rendered.picture.filename):
                        turn.edited = False  # the next round shows on the message already
                        return
                    latest = await self.render(table_id)
                    if latest is None or latest.picture != rendered.picture:
                        latest = rendered
                    await message.edit(attachments=files, **shown_as(latest))
                    self._sent[table_id] = digest(latest)
            except discord.HTTPException as error:
                log.warning("could not attach the round picture of table %s: %s", table_id, error)

    async def _picture_files(
        self, table_id: int, message_id: int | None, rendered: RenderedMessage
    ) -> list[discord.File]:
        """The round-end picture, when this message does not carry it yet. Drawn in a drawing
        thread (as the hands and tables): the event loop (and so every click) never waits for
        Pillow, nor does other work sent to threads."""
        picture = rendered.picture
        if picture is None or self._pictured.get(table_id) == (message_id, picture.filename):
            return []
        try:
            png = await drawn_in_thread(picture.png)
        except Exception:  # a picture is a bonus: the message goes out without it
            log.exception("could not draw the round-end picture of table %s", table_id)
            return []
        return [discord.File(io.BytesIO(png), picture.filename)]

    def _note_pictured(self, table_id: int, message_id: int, rendered: RenderedMessage) -> None:
        if rendered.picture is not None:
            self._pictured[table_id] = (message_id, rendered.picture.filename)

    async def _repost(self, table_id: int) -> None:
        location = await self.bot.locations.get(table_id)
        old = location.message_id
        try:
            await self.post(table_id, location.post_channel_id)
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                self.coalescer.mark(table_id)  # try again later: the table must converge
            log.warning("could not post the message of table %s: %s", table_id, error)
            return
        if old is not None:
            # One live message per table: the old one (too old to edit, say) goes.
            channel = self.bot.get_partial_messageable(location.post_channel_id)
            with contextlib.suppress(discord.HTTPException):  # already gone: nothing to do
                async with self.posts.turn(location.post_channel_id, table_id):
                    await channel.get_partial_message(old).delete()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        # what a change shows others is background work: the click's answer goes first
        task = asyncio.get_running_loop().create_task(self._guarded(work), context=background())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guarded(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except Exception:
            log.exception("updating a table message failed")

    @property
    def idle(self) -> bool:
        """No message update pending or under way."""
        return not self._tasks and not self.coalescer.pending

    async def drain(self) -> None:
        """Wait for every pending message update (tests, shutdown)."""
        while self._tasks or self.coalescer.pending:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            await self.coalescer.drain()

    def _lock(self, table_id: int) -> asyncio.Lock | None:
        """The table's lock, made on first use; None once the table is closed (no lock is made
        again for it: `_close` dropped the last one)."""
        lock = self._locks.get(table_id)
        if lock is None and not self._closed(table_id):
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def close(self) -> None:
        await self.coalescer.close()
        for task in list(self._tasks):
            task.cancel()


def with_activity_button(
    rendered: RenderedMessage, snapshot: PublicSnapshot, language: str
) -> RenderedMessage:
    """The table message with "Open the table": the Activity, for whoever clicks it."""
    button = ButtonSpec(
        verb_id(snapshot.table_id, snapshot.round_no or 0, Verb.ACTIVITY),
        text(language, "button.open_table"),
        "success",
    )
    return replace(rendered, components=(*rendered.components, button))


def _with_files(embed: discord.Embed, files: list[discord.File]) -> discord.Embed:
    """The embed as these files let it show: its picture left out when it names a file of
    the message that is not among them (a V2 gallery may only show a file the message has)."""
    url = embed.image.url or ""
    if not url.startswith("attachment://") or url[len("attachment://") :] in {
        f.filename for f in files
    }:
        return embed
    shown = embed.copy()
    shown.set_image(url=None)
    return shown
