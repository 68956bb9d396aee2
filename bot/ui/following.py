"""A player's open "My cards" message follows the game.

It is re-rendered in place when their turn comes, when the game asks them something, when the
round ends or the next one starts, and when what a waiting player's message shows of the table
changes (the game says what: a trump once made), so nobody has to press Refresh. Other players'
moves leave a waiting player's message as it is, so it says nothing they change (the table
message shows those).

An ephemeral message can only be edited through the interaction that made it, for 15 minutes
(Discord's token lifetime): each player's newest message is remembered with its interaction
until then, and forgotten when the table closes. A follow-up render hands out no revealed card
(reveals come once, with the click that earned them) and does not count as the player being
back (`TableService.follow_view`). A watcher's message (the Watch button) is followed the same
way. What a pass redraws, and when a hand moves to the bottom, is on `HandFollower`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.games import plugin_for
from bot.render.actions import under
from bot.render.private import render_private
from bot.render.table import RenderedMessage
from bot.render.watching import render_watcher
from bot.service.errors import TableError
from bot.snapshots import PrivateSnapshot, PublicSnapshot, Reveal, WatcherSnapshot
from bot.ui.layout import shown_as
from bot.ui.message_pictures import Prepared
from bot.ui.reveals import RevealHolds

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60.0  # seconds: Discord's 15 minutes, less a margin for slow edits
# round, table status, legal actions, what of the table a waiting message shows
Moment = tuple[int | None, str, tuple[str, ...], Hashable]


def waiting_key(game: str, view: Any) -> Hashable:
    """What of the table a waiting player's message shows that others' moves change, from the
    seat's view or the public one (`GamePlugin.waiting_key`)."""
    if view is None or not game:
        return None
    return plugin_for(game).waiting_key(view)


def moment_of(private: PrivateSnapshot) -> Moment:
    """What a player's message is about: a new round, a new status or a change in what the
    player may do now (their turn starts, a power asks them, their turn is over), or in what
    a waiting player's message shows of the table (a trump made)."""
    return (
        private.round_no,
        private.status,
        private.legal,
        waiting_key(private.game, private.view),
    )


@dataclass(slots=True)
class Followed:
    """One followed message and what it was drawn from.

    It remembers the table's published version its moment was read at: a pass builds no
    private view for a message drawn at the version still published (a version grows with
    every stored change, and only a stored change moves a moment). A click's answer carries
    the version its view was built at (`PrivateSnapshot.version`): the next pass looks at it
    once more only if the table changed since (a view of unknown version is looked at)."""

    interaction: discord.Interaction[Any]
    message_key: int
    language: str
    since: float  # clock time the interaction's token was issued
    moment: Moment
    version: int | None = None  # the published version `moment` was read at (None: unknown)
    reveals_until: float | None = None  # when the first card it shows by a rule hides
    # the cards a rule showed, as laid over the hand when it was drawn (None: not known)
    shown: tuple[Reveal, ...] | None = None
    # the message, once moved to the bottom as a follow-up of `interaction` (None: the
    # interaction's own message, edited as its original response)
    message: discord.WebhookMessage | None = None
    moving: bool = False  # it is being moved to the bottom: passes leave it to the move
    posted: bool = False  # it is a hand this follower moved to the bottom (it deletes it)
    watching: bool = False  # a watcher's message (the Watch button), not a player's hand
    # the menu step it shows ("" the top): a redraw keeps it while it is still offered, so a
    # card hiding does not take a player out of the step they opened
    prefix: str = ""


class HandFollower:
    """Each table's followed messages, redrawn by one pass after each change of the table.

    While a player's click is being answered, passes leave that player's message alone (the
    answer is about to show what a pass would). Every render lays over the hand the cards a
    rule showed the player that are still in view (`bot/ui/reveals.py`), and the message is
    redrawn once the first of them is due to hide. When the player's turn comes the hand moves
    to the bottom (`_move`); a message posted just as a click came is deleted, and so is a hand
    moved to the bottom once a newer "My cards" of the player replaces it: each player has one
    current "My cards" per table, drawn from the newest view. A watcher's message is redrawn
    from the watcher's view whenever the published table moved, after the players' hands,
    never moved to the bottom, and dropped once they no longer watch."""

    def __init__(
        self,
        bot: CardTableBot,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        reveals: RevealHolds | None = None,
        before_moving: Callable[[int], Awaitable[None]] | None = None,
        spawn_picture: Callable[[Coroutine[Any, Any, None]], None] | None = None,
    ) -> None:
        self.bot = bot
        self._spawn = spawn
        # a picture drawn late, to edit in: a task of its own kind (tests wait for them all)
        self._spawn_picture = spawn_picture or spawn
        # awaited before a hand moves to the bottom: the turn's mention goes out first
        self._before_moving = before_moving
        # the cards in view by a rule: the controller's (shared with its answers), else own
        self._reveals = reveals or RevealHolds(bot.clock, lambda *a: bot.service.play.recall(*a))
        # table id -> user id -> their message: a change looks at its own table's only (a
        # scan of every followed message grows with the tables: docs/performance.md)
        self._followed: dict[int, dict[int, Followed]] = {}
        self._pending: set[int] = set()  # tables with a follow pass scheduled
        # (table id, user id) -> their clicks being answered now (gone once answered)
        self._answering: dict[tuple[int, int], int] = {}

    def tracked(self) -> int:
        return sum(len(users) for users in self._followed.values())

    def note(
        self,
        interaction: discord.Interaction[Any],
        message_key: int,
        private: PrivateSnapshot,
        language: str,
        reveals_until: float | None = None,
        shown: tuple[Reveal, ...] | None = None,
        prefix: str = "",
    ) -> None:
        """The player's message was just rendered (by their own click): follow it from here.
        `reveals_until`: when the first card it shows by a rule hides (None: it shows none);
        `shown`: the cards a rule showed it lays over the hand (None: not known); `prefix`:
        the menu step it shows."""
        users = self._followed.setdefault(private.table_id, {})
        followed = users.get(interaction.user.id)
        if followed is not None and followed.interaction.id == interaction.id:
            followed.moment, followed.language = moment_of(private), language
        else:
            posted = followed is not None and followed.posted
            if posted and followed is not None and followed.message_key != message_key:
                # Another message of theirs is the newest now (a new "My cards"): the hand
                # this follower moved to the bottom goes, as a move deletes the one it
                # replaces (nothing else could hide the cards a rule showed on it)
                self._spawn(self._retire(followed))
                posted = False
            now = self.bot.clock.now()
            followed = Followed(interaction, message_key, language, now, moment_of(private))
            followed.posted = posted  # a click on the hand moved: still the follower's post
            users[interaction.user.id] = followed
        # the version the view was built at: a pass finds the message drawn at the version
        # still published and builds no view for it (a view of unknown version is looked at)
        followed.version = private.version
        followed.shown = shown
        followed.prefix = prefix
        self._hide_at(followed, private.table_id, reveals_until)
        # The answer was drawn from a view taken before it was sent: a move meanwhile (the
        # turn passing to this player) found the message not yet followed, so look once more
        # (in the table's next pass: one for a burst of changes and answers).
        self.table_changed(private.table_id)

    def note_watcher(
        self,
        interaction: discord.Interaction[Any],
        message_key: int,
        watched: WatcherSnapshot,
        language: str,
    ) -> None:
        """A member's watcher message was just rendered (their Watch click): it follows the
        table from here, re-rendered in place at every published change while its token
        lives, and dropped once they no longer watch (they sat down)."""
        public = watched.public
        moment: Moment = (public.round_no, public.status, (), None)
        followed = Followed(
            interaction, message_key, language, self.bot.clock.now(), moment, watching=True
        )
        followed.version = watched.version
        self._followed.setdefault(watched.table_id, {})[interaction.user.id] = followed
        self.table_changed(watched.table_id)  # a change while it was being sent

    def follows(self, table_id: int, user_id: int, interaction_id: int) -> bool:
        """Is the message this interaction made the player's newest, followed one?"""
        followed = self._followed.get(table_id, {}).get(user_id)
        return followed is not None and followed.interaction.id == interaction_id

    def has_open_hand(self, table_id: int, user_id: int) -> bool:
        """Has the player a "My cards" message of this table that still follows the game?"""
        followed = self._followed.get(table_id, {}).get(user_id)
        return followed is not None and self.bot.clock.now() - followed.since <= TOKEN_LIFETIME

    def is_answering(self, table_id: int, user_id: int) -> bool:
        """Is a click of this player at this table being answered now?"""
        return (table_id, user_id) in self._answering

    def _hide_at(self, followed: Followed, table_id: int, until: float | None) -> None:
        """The message shows cards a rule showed its player until `until`: redraw it then."""
        followed.reveals_until = until
        if until is not None:
            self._spawn(self._wake(table_id, until))

    async def _wake(self, table_id: int, until: float) -> None:
        await self.bot.clock.sleep(max(0.0, until - self.bot.clock.now()))
        self.table_changed(table_id)

    @contextlib.contextmanager
    def answering(self, table_id: int, user_id: int) -> Iterator[None]:
        """A click of this player at this table is being answered: passes leave their
        message to the answer until it is out (or failed), then look at it again."""
        key = (table_id, user_id)
        self._answering[key] = self._answering.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._answering.pop(key) - 1
            if left:
                self._answering[key] = left
            else:
                self.table_changed(table_id)

    def forget_table(self, table_id: int) -> None:
        self._followed.pop(table_id, None)
        self._pending.discard(table_id)

    def table_changed(self, table_id: int) -> None:
        """Something happened at the table: one pass over its followed messages, soon (none
        when the pass would find every message as it is: at most bot moves, only the
        messages of the players whose turn starts or ends are redrawn)."""
        if table_id in self._pending:
            return
        users = self._followed.get(table_id)
        if not users or not self._worth_a_pass(table_id, users):
            return
        self._pending.add(table_id)
        self._spawn(self._follow(table_id))

    def _worth_a_pass(self, table_id: int, users: dict[int, Followed]) -> bool:
        """Would a pass now do anything: drop a message whose token died or whose table is
        gone, hide a card a rule showed, or build a view for a message the published table
        may have changed? The pass itself asks the same before each message, as it is then;
        a change published later calls `table_changed` again."""
        now = self.bot.clock.now()
        try:
            public = self.bot.service.public_snapshot(table_id)
        except TableError:
            return True  # the pass drops its messages
        for user_id, followed in users.items():
            if now - followed.since > TOKEN_LIFETIME:
                return True
            if (table_id, user_id) in self._answering or followed.moving:
                continue  # its answer (its move) shows it; a pass follows it
            if followed.watching:
                if public.version != followed.version:
                    return True
                continue
            until = followed.reveals_until
            if until is not None and now >= until:
                return True
            if public.version != followed.version and (
                not _unchanged_waiting(public, user_id, followed)
                or self._sights_may_move(table_id, user_id, followed)
            ):
                return True
        return False

    def _sights_may_move(self, table_id: int, user_id: int, followed: Followed) -> bool:
        """The message lays cards a rule showed over the hand, held where the player knows
        they lie: another player's move may carry one elsewhere (a Jack's exchange)."""
        return followed.reveals_until is not None and self._reveals.holds(
            table_id, user_id, followed.moment[0]
        )

    async def _follow(self, table_id: int) -> None:
        await asyncio.sleep(0)  # let the rest of a burst of changes land first
        self._pending.discard(table_id)
        here = list(self._followed.get(table_id, {}).items())
        # the players' hands first, one by one, then the watchers' messages all at once: a
        # hand never waits behind the edits of a table's watchers (25 at most)
        for user_id, followed in here:
            if not followed.watching:
                await self._refresh((table_id, user_id), followed)
        watchers = [self._refresh((table_id, u), f) for u, f in here if f.watching]
        if watchers:
            await asyncio.gather(*watchers)

    async def _refresh(self, key: tuple[int, int], followed: Followed) -> None:
        table_id, user_id = key
        if self.bot.clock.now() - followed.since > TOKEN_LIFETIME:
            self._drop(key, followed)  # its token is dead: the message is frozen for good
            return
        if key in self._answering or followed.moving:
            return  # the answer (the move) shows it; a pass follows it
        if followed.watching:
            await self._refresh_watcher(key, followed)
            return
        until = followed.reveals_until
        hiding = until is not None and self.bot.clock.now() >= until  # a card must hide now
        moving = self._sights_may_move(table_id, user_id, followed)
        try:
            public = self.bot.service.public_snapshot(table_id)
            if not hiding and (
                public.version == followed.version or _unchanged_waiting(public, user_id, followed)
            ):
                if not moving or public.version == followed.version:
                    return
                # Still waiting: only where the cards it shows by a rule lie may have changed.
                # That alone is looked at (no view built), at the version read before it.
                version = public.version
                shown, _ = await self._reveals.shown(table_id, user_id, followed.moment[0])
                if shown == followed.shown:
                    followed.version = version
                    return
            private = await self.bot.service.play.follow_view(table_id, user_id)
            # Nothing awaited since `private` was built under the table's lock, and a change
            # is published before its lock is released: this is the version it was built at.
            public = self.bot.service.public_snapshot(table_id)
        except TableError:
            self._drop(key, followed)
            return
        if private is None:
            self._drop(key, followed)
            return
        followed.version = public.version
        moment = moment_of(private)
        same = moment == followed.moment and not hiding
        if same and not moving:
            return
        if private.legal and not followed.moment[2]:
            # Their turn came: the hand moves to the bottom, after the turn's mention, which
            # the channel's pacing may hold a while. The move reads the view then, and the
            # table's passes leave the message to it meanwhile.
            followed.moving = True
            self._spawn(self._move(key, followed))
            return
        followed.moment = moment
        shown, hide_at = await self._reveals.shown(table_id, user_id, private.round_no)
        if self._followed.get(table_id, {}).get(user_id) is not followed:
            return  # a newer message of the player came meanwhile
        if same and shown == followed.shown:
            return  # the cards it shows by a rule lie where it shows them
        followed.shown = shown
        if followed.prefix and not self._still_offered(private, public, followed.prefix):
            followed.prefix = ""  # the step's moves went by: the top of the menu
        rendered = render_private(
            private,
            public,
            followed.language,
            reveals=shown,
            hide_at=hide_at,
            prefix=followed.prefix,
            deck=self.bot.decks.of(user_id),
        )
        self._hide_at(followed, table_id, hide_at)
        try:
            cards = await self.bot.pictures.complete(followed.message_key, rendered)
            files = cards.edit_files()
            showing = shown_as(rendered, cards.embed)
            await _edit(followed.message, followed.interaction, **showing, **files)
            self._picture_follows(followed, followed.message_key, cards)
        except discord.HTTPException as error:
            log.info("stopped following a private message of table %s: %s", table_id, error)
            self._drop(key, followed)

    async def _refresh_watcher(self, key: tuple[int, int], followed: Followed) -> None:
        """A watcher's message, re-rendered from the table as published now if it changed
        (it shows the table, so every stored change may change it)."""
        table_id, user_id = key
        try:
            if self.bot.service.public_snapshot(table_id).version == followed.version:
                return
            watched = await self.bot.service.watching.watcher_view(table_id, user_id)
        except TableError:
            self._drop(key, followed)
            return
        if watched is None:  # they sat down, or no longer watch: the message stays as it is
            self._drop(key, followed)
            return
        followed.version = watched.version
        rendered = render_watcher(watched, followed.language)
        try:
            cards = await self.bot.pictures.complete(followed.message_key, rendered)
            files = cards.edit_files()
            await followed.interaction.edit_original_response(
                **shown_as(rendered, cards.embed), **files
            )
            self._picture_follows(followed, followed.message_key, cards)
        except discord.HTTPException as error:
            log.info("stopped following a watcher's message of table %s: %s", table_id, error)
            self._drop(key, followed)

    @staticmethod
    def _still_offered(private: PrivateSnapshot, public: PublicSnapshot, prefix: str) -> bool:
        """Does the menu step `prefix` still lead somewhere (as the controller checks a
        click on it)?"""
        if under(private.legal, prefix):
            return True
        return plugin_for(public.game).offers_stage(private, prefix, public.options)

    def _current(self, key: tuple[int, int], followed: Followed) -> bool:
        """Is this message still the player's newest, with no click of theirs being answered
        (the answer is about to be, or is, the message they look at)?"""
        table_id, user_id = key
        return (
            self._followed.get(table_id, {}).get(user_id) is followed and key not in self._answering
        )

    async def _move(self, key: tuple[int, int], followed: Followed) -> None:
        """The player's turn came: once the turn's mention is out, their hand is posted anew
        below what the channel showed since (the table message, the mention), drawn from the
        view as it is then, and the old message deleted, so the hand they need is the last
        thing on their screen. One move at a time per message; none once a newer message
        (a click's answer) is theirs. Then the table's next pass looks at it again."""
        table_id = key[0]
        try:
            if self._before_moving is not None:
                await self._before_moving(table_id)
            if self._current(key, followed):
                await self._to_the_bottom(key, followed)
        except TableError:
            self._drop(key, followed)
        except discord.HTTPException as error:
            log.info("stopped following a private message of table %s: %s", table_id, error)
            self._drop(key, followed)
        finally:
            followed.moving = False
            self.table_changed(table_id)  # what changed meanwhile, a card due to hide

    async def _to_the_bottom(self, key: tuple[int, int], followed: Followed) -> None:
        table_id, user_id = key
        private = await self.bot.service.play.follow_view(table_id, user_id)
        public = self.bot.service.public_snapshot(table_id)  # the version it was built at
        if private is None:
            self._drop(key, followed)
            return
        if not private.legal:  # their turn went by meanwhile: the message stays as it is
            return
        shown, hide_at = await self._reveals.shown(table_id, user_id, private.round_no)
        if not self._current(key, followed):
            return
        followed.version, followed.moment = public.version, moment_of(private)
        followed.shown = shown
        followed.prefix = ""  # a new turn's hand opens at the top of its menu
        rendered = render_private(
            private,
            public,
            followed.language,
            reveals=shown,
            hide_at=hide_at,
            deck=self.bot.decks.of(user_id),
        )
        self._hide_at(followed, table_id, hide_at)
        pictures = self.bot.pictures
        cards = await pictures.complete(None, rendered)  # a new message: its picture anew
        if not self._current(key, followed):
            return
        sent = await followed.interaction.followup.send(
            **shown_as(rendered, cards.embed),
            ephemeral=True,
            wait=True,
            files=cards.attachments or [],
        )
        pictures.posted(sent.id, rendered, cards)
        if not self._current(key, followed):  # a click's answer became theirs meanwhile
            await _delete(sent)
            return
        old, followed.message, followed.message_key = followed.message, sent, sent.id
        self._picture_follows(followed, sent.id, cards)
        followed.posted = True
        if old is not None:
            await _delete(old)
        else:
            try:
                await followed.interaction.delete_original_response()
            except discord.HTTPException as error:
                log.info("an old private message could not be deleted: %s", error)

    def _picture_follows(self, followed: Followed, key: int, cards: Prepared) -> None:
        """The message (`key`) went without its cards' picture, still being drawn: it is
        edited in once drawn, if the message still shows those cards."""
        if cards.waiting is None:
            return
        message, interaction = followed.message, followed.interaction

        async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
            await _edit(message, interaction, **shown_as(latest), attachments=files)

        self._spawn_picture(self.bot.pictures.follow_up(key, cards.waiting, edit))

    async def _retire(self, followed: Followed) -> None:
        """Delete a hand moved to the bottom that a newer message of the player replaced
        (while the token that reaches it lives)."""
        if self.bot.clock.now() - followed.since > TOKEN_LIFETIME:
            return  # frozen for good: nothing can reach it any more
        if followed.message is not None:
            await _delete(followed.message)
            return
        try:  # a click on it made it that click's own message
            await followed.interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("an old private message could not be deleted: %s", error)

    def _drop(self, key: tuple[int, int], followed: Followed) -> None:
        """Stop following this message (unless a newer one of the player replaced it)."""
        table_id, user_id = key
        users = self._followed.get(table_id)
        if users is not None and users.get(user_id) is followed:
            del users[user_id]
            if not users:
                del self._followed[table_id]


async def _edit(
    message: discord.WebhookMessage | None, interaction: discord.Interaction[Any], **fields: Any
) -> None:
    """Edit a followed message: the follow-up it was moved to, else the interaction's own."""
    if message is not None:
        await message.edit(**fields)
    else:
        await interaction.edit_original_response(**fields)


async def _delete(message: discord.WebhookMessage) -> None:
    try:
        await message.delete()
    except discord.HTTPException as error:
        log.info("an old private message could not be deleted: %s", error)


def _unchanged_waiting(public: PublicSnapshot, user_id: int, followed: Followed) -> bool:
    """The player's message shows them waiting (no move to make) in this round and status,
    and the published table says they still are: nothing to re-render, and no need to build
    their view (at each change, only the players whose turn starts or ends are looked at)."""
    if followed.moment != (
        public.round_no,
        public.status,
        (),
        waiting_key(public.game, public.view),
    ):
        return False
    for info in public.seats:
        if info.user_id == user_id:
            return not info.left and info.seat not in public.to_act
    return False
