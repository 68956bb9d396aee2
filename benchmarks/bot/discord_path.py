"""The Discord path of `python -m benchmarks.bot` (clicks.py), short of the network.

It is what the glue does in the background for each change (the table message rendered as
`DiscordNotifier` renders it, the players' followed "My cards" messages, the turn's mention),
each costing what discord.py does before its HTTP call."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import handle_message_parameters

from bot.i18n import text
from bot.pictures.card_faces import Deck
from bot.pictures.layout import CardPicture, CardRow, rows_png
from bot.render.table import RenderedMessage, render_table
from bot.runtime.priority import background
from bot.service import PrivateSnapshot, SystemClock, TableError, TableService
from bot.ui.coalescer import EditCoalescer
from bot.ui.decks import PlayerDecks
from bot.ui.discord_notifier import digest, turn_of
from bot.ui.following import HandFollower
from bot.ui.layout import shown_as
from bot.ui.message_pictures import CardPictures, in_drawing_process
from storage import StoreError, TurnMention

LANGUAGE = "en"


def timed_png(rows: tuple[CardRow, ...], deck: Deck) -> tuple[bytes, float]:
    """A picture drawn, and the seconds its drawing took (in a drawing process)."""
    started = time.perf_counter()
    png = rows_png(rows, deck)
    return png, time.perf_counter() - started


def payload(rendered: RenderedMessage) -> None:
    """What discord.py builds to send a message, as the bot hands it over (`shown_as`): a
    Components V2 message's container (its flag set, no content nor embed), or the embed and
    its rows."""
    sent(**shown_as(rendered))


def sent(**shown: Any) -> None:
    """What discord.py does with a send's or an edit's arguments before its HTTP call: the
    message's JSON (flags, components, embeds, content), written out as it goes on the wire."""
    shown.pop("files", None)
    shown.pop("attachments", None)
    params = handle_message_parameters(**shown)
    discord.utils._to_json(params.payload)


class PlayerMessage:
    """A player's "My cards" message as the follower sees it: the interaction that made it.
    An edit, a follow-up (the hand moved to the bottom when the turn comes) and a deletion
    cost what discord.py does before its HTTP call."""

    _ids = itertools.count(1)

    def __init__(self, user_id: int) -> None:
        self.id = next(self._ids)
        self.user = SimpleNamespace(id=user_id)
        self.followup = self

    async def edit_original_response(self, **shown: Any) -> None:
        sent(**shown)  # a Components V2 message or an embed, as the follower edits it

    edit = edit_original_response

    async def delete_original_response(self) -> None:
        return None

    delete = delete_original_response

    async def send(
        self, *, ephemeral: bool = False, wait: bool = False, **shown: Any
    ) -> PlayerMessage:
        """A follow-up message of this interaction (it is edited and deleted as one)."""
        flags = discord.MessageFlags(ephemeral=ephemeral)
        sent(flags=flags, **shown)
        return self


class BenchNotifier:
    """The glue's background work for each change (see the module docstring) without the
    HTTP calls: the table message as `DiscordNotifier` renders it, and the players' "My cards"
    messages followed by the bot's own `HandFollower`, and the turn's mention (a short message
    naming the player whose turn starts, sent and later deleted: the guild setting's default)."""

    def __init__(self, edit_delay: float = 1.0, *, pictures: bool = True) -> None:
        self.service: TableService | None = None
        self.coalescer = EditCoalescer(self._edit, delay=edit_delay)
        self.clock = SystemClock()
        self.decks = PlayerDecks()  # every player's hand in the two-colour deck
        self.follower = HandFollower(self, self._spawn)  # type: ignore[arg-type]
        self._sent: dict[int, str] = {}
        self._messages: dict[tuple[int, int], PlayerMessage] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pings: dict[int, tuple[int, int]] = {}  # table id -> (seat, round) mentioned
        self._ping_pending: set[int] = set()
        self._pinging: set[int] = set()  # tables whose mention pass is under way
        self.quiet = False  # while the bench sets its tables up: no change is rendered
        # Hands and tables as pictures, as the bot draws them: in drawing processes, once each.
        self.pictures = CardPictures(draw=self._timed_draw, enabled=pictures)
        self.draw_times: list[float] = []

    async def _timed_draw(self, picture: CardPicture) -> bytes:
        """Drawn as the bot draws: in its drawing processes, at their lower priority."""
        png, seconds = await in_drawing_process(timed_png, picture.rows, picture.deck)
        self.draw_times.append(seconds)
        return png

    def message_of(self, table_id: int, user_id: int) -> PlayerMessage:
        key = (table_id, user_id)
        message = self._messages.get(key)
        if message is None:
            message = self._messages[key] = PlayerMessage(user_id)
        return message

    def answered(self, message: PlayerMessage, rendered: RenderedMessage) -> None:
        """A click's answer as the controller sends it: its hand's picture if drawn, else
        drawn after the answer and edited in."""
        cards = self.pictures.answer(message.id, rendered)
        if cards.waiting is not None:

            async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
                payload(latest)

            self._spawn(self.pictures.follow_up(message.id, cards.waiting, edit))

    async def table_changed(self, table_id: int) -> None:
        if self.quiet:
            return
        self.coalescer.mark(table_id)
        self.follower.table_changed(table_id)
        if table_id not in self._ping_pending and self._ping_may_change(table_id):
            self._ping_pending.add(table_id)
            self._spawn(self._turn_ping(table_id))

    def _ping_may_change(self, table_id: int) -> bool:
        """As `DiscordNotifier._ping_may_change`: no pass while the turn mentioned stays."""
        if table_id in self._pinging:
            return True
        assert self.service is not None
        try:
            return turn_of(self.service.public_snapshot(table_id)) != self._pings.get(table_id)
        except TableError:
            return True

    async def _turn_ping(self, table_id: int) -> None:
        """`DiscordNotifier._turn_ping` short of its HTTP calls: one pass per burst of
        changes; when the turn moves to another human, the old mention goes and a new one is
        written."""
        await asyncio.sleep(0)
        self._ping_pending.discard(table_id)
        self._pinging.add(table_id)
        try:
            await self._ping_pass(table_id)
        finally:
            self._pinging.discard(table_id)

    async def _ping_pass(self, table_id: int) -> None:
        assert self.service is not None
        try:
            snapshot = self.service.public_snapshot(table_id)
        except TableError:
            return
        wanted = turn_of(snapshot)
        if self._pings.get(table_id) == wanted:
            return
        if self._pings.pop(table_id, None) is not None:  # the mention is forgotten in the store
            with contextlib.suppress(StoreError):  # as the bot: logged, and the table carries on
                await self.service.store.delete_turn_mention(table_id, table_id)
        if wanted is None:
            return
        user_id = snapshot.seats[wanted[0]].user_id
        assert user_id is not None
        text(LANGUAGE, "table.turn_ping", mention=f"<@{user_id}>", table_id=table_id)
        discord.AllowedMentions(users=[discord.Object(user_id)]).to_dict()
        self._pings[table_id] = wanted
        mention = TurnMention(  # kept in the store while the turn lasts, as the bot does
            table_id=table_id,
            channel_id=snapshot.channel_id,
            message_id=table_id,
            seat=wanted[0],
            round_no=wanted[1],
        )
        with contextlib.suppress(StoreError):
            await self.service.store.save_turn_mention(mention)

    async def round_started(self, table_id: int) -> None:
        if self.quiet:
            return
        self._spawn(self._repost(table_id))
        self.follower.table_changed(table_id)

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        return None

    async def table_closed(self, table_id: int) -> None:
        self.coalescer.forget(table_id)
        self._sent.pop(table_id, None)
        self._pings.pop(table_id, None)
        self.follower.forget_table(table_id)

    def follow(self, private: PrivateSnapshot, user_id: int) -> None:
        """The player's own message was just rendered by their click: it follows the game."""
        message = self.message_of(private.table_id, user_id)
        self.follower.note(message, message.id, private, LANGUAGE)  # type: ignore[arg-type]

    def _render(self, table_id: int) -> RenderedMessage | None:
        assert self.service is not None
        try:
            return render_table(self.service.public_snapshot(table_id), LANGUAGE)
        except TableError:
            return None

    async def _edit(self, table_id: int) -> None:
        rendered = self._render(table_id)
        if rendered is None:
            return
        fingerprint = digest(rendered)
        if self._sent.get(table_id) != fingerprint:
            await self.pictures.complete(table_id, rendered)
            payload(rendered)
            self._sent[table_id] = fingerprint

    async def _repost(self, table_id: int) -> None:
        self.coalescer.forget(table_id)
        rendered = self._render(table_id)
        if rendered is not None:
            await self.pictures.complete(table_id, rendered)
            payload(rendered)
            self._sent[table_id] = digest(rendered)

    def _spawn(self, work: Any) -> None:
        # as the bot's notifier: background work, after the clicks' answers
        task = asyncio.get_running_loop().create_task(work, context=background())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        await self.coalescer.close()
        for task in list(self._tasks):
            task.cancel()
