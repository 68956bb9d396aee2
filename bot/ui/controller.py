"""Clicks and table commands turned into table service calls, and their answers.

Every click is parsed (a forged id gets one sentence), handed to the service (which checks it
against the engine and the seating), and answered within Discord's 3 seconds: the table
message by `response.edit_message`, a player's own message by editing that same ephemeral
message, a refusal by one short ephemeral sentence. Nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot import logs
from bot.games import plugin_for
from bot.i18n import language_of, text
from bot.render.actions import MAX_OPTIONS, ButtonSpec, under
from bot.render.private import render_private
from bot.render.table import RenderedMessage
from bot.render.watching import render_watcher
from bot.service.errors import TableError
from bot.snapshots import (
    PLAYING,
    ROUND_OVER,
    ActResult,
    PlayerRef,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
)
from bot.ui.coaching import answer_hint
from bot.ui.command_options import bind_interaction
from bot.ui.custom_ids import (
    THEN,
    BadCustomId,
    ComponentId,
    Kind,
    Verb,
    moves,
    parse,
    verb_id,
)
from bot.ui.deliveries import SeenInteractions
from bot.ui.dynamic_items import build_view, is_routed
from bot.ui.following import HandFollower
from bot.ui.layout import shown_as
from bot.ui.lessons import LessonGuide
from bot.ui.message_pictures import Prepared
from bot.ui.replies import interaction_gone, refuse
from bot.ui.reveals import RevealHolds
from bot.ui.timing import within_deadline
from games.errors import IllegalAction
from storage.models import GuildSettings

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.service.service import TableService

log = logging.getLogger(__name__)

ROUND_CHANGING = frozenset({Verb.START, Verb.CANCEL, Verb.NEXT_ROUND, Verb.REMATCH})
# A member's clicks handled at once: one clicking as fast as they can (or a script) gets the
# rest refused in one sentence at once, and takes no more of the bot than two clicks do.
CLICKS_IN_FLIGHT_PER_USER = 2


def player_of(interaction: discord.Interaction[Any]) -> PlayerRef:
    user = interaction.user
    return PlayerRef(user.id, user.display_name)


class TableController:
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._pending_hides: dict[int, int] = {}  # private message key -> token of its hide
        self._tokens = 0
        self._tasks: set[asyncio.Task[None]] = set()
        # pictures edited in once drawn (`_picture_after`, the follower's late ones)
        self._pictures_following: set[asyncio.Task[None]] = set()
        self.seen = SeenInteractions()  # a click Discord delivers twice is handled once
        self.in_flight: dict[int, int] = {}  # user id -> their clicks being handled
        # cards a rule showed a player, in view until the reveal delay is over
        self.reveals = RevealHolds(bot.clock, lambda *args: self.service.play.recall(*args))
        self.follower = HandFollower(
            bot,
            self._spawn,
            self.reveals,
            before_moving=bot.notifier.mentions_sent,
            spawn_picture=functools.partial(self._spawn, also=self._pictures_following),
        )
        self.lessons = LessonGuide(bot)  # guided hands: `/<game> learn` (bot/ui/lessons.py)

    @property
    def service(self) -> TableService:
        return self.bot.service

    # -- entry point of every component -------------------------------------------------
    async def on_component(
        self, interaction: discord.Interaction[Any], custom_id: str, values: tuple[str, ...]
    ) -> None:
        if not self.seen.first_time(interaction.id):
            log.info("click %s delivered again: already handled", interaction.id)
            return
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self.bot.guild_settings.note_preferred_locale(
                interaction.guild_id, interaction.guild_locale
            )
        user_id = interaction.user.id
        if self.in_flight.get(user_id, 0) >= CLICKS_IN_FLIGHT_PER_USER:
            log.info("user %s clicks faster than they are answered: refused", user_id)
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, "clicking_too_fast")
            return
        self.in_flight[user_id] = self.in_flight.get(user_id, 0) + 1
        try:
            await self._component(interaction, custom_id, values)
        finally:
            left = self.in_flight.pop(user_id) - 1
            if left:
                self.in_flight[user_id] = left

    async def _component(
        self, interaction: discord.Interaction[Any], custom_id: str, values: tuple[str, ...]
    ) -> None:
        bind_interaction(interaction)
        started = time.perf_counter()
        try:
            component = parse(custom_id)
        except BadCustomId:
            await refuse(interaction, "bad_button")
            self.bot.telemetry.click("unknown", time.perf_counter() - started, "bad_button")
            return
        logs.bind(table_id=component.table_id)
        self.bot.notifier.clicked(component.table_id)  # its messages go first in its channel
        refusal: str | None = None
        try:
            with self.follower.answering(component.table_id, interaction.user.id):
                await self._dispatch(interaction, component, values)
        except TableError as error:
            refusal = error.key
            await refuse(interaction, error.key, **error.params)
        except discord.HTTPException as error:
            level = logging.INFO if interaction_gone(error) else logging.WARNING
            log.log(level, "answering a click on table %s failed: %s", component.table_id, error)
        except Exception:
            # A bug must still get an answer, never a click that spins until it times out.
            refusal = "unknown"
            log.exception("a click on table %s failed", component.table_id)
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, "unknown")
        finally:
            self.bot.telemetry.click(
                self._game_name(component.table_id), time.perf_counter() - started, refusal
            )

    def _game_name(self, table_id: int) -> str:
        try:
            return str(self.service.game_of(table_id).name)
        except TableError:
            return "unknown"

    async def _dispatch(
        self,
        interaction: discord.Interaction[Any],
        component: ComponentId,
        values: tuple[str, ...],
    ) -> None:
        await self.service.restoring.ready(component.table_id)  # loaded first if just restarted
        if not await self._at_the_table(interaction, component.table_id):
            # A custom id names any table: one forged for another server's (or channel's)
            # table must not seat, play or stop anything there.
            log.info("a click for table %s came from elsewhere: refused", component.table_id)
            await refuse(interaction, "bad_button")
            return
        if component.kind is Kind.VERB:
            await self._verb(interaction, component, values)
        elif not _is_private_message(interaction):
            # Play, select and navigate live only on a player's own ephemeral message.
            await refuse(interaction, "bad_button")
        elif component.kind is Kind.PLAY:
            await self._play(interaction, component, component.text)
        elif component.kind is Kind.SELECT:
            await self._selected(interaction, component, values)
        elif component.kind is Kind.PICK:
            await self._picked(interaction, component, values)
        else:
            await self._navigate(interaction, component, component.text)

    async def _at_the_table(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Whether the click comes from the table's server and its channel (or thread)."""
        snapshot = self.service.public_snapshot(table_id)
        if interaction.guild_id != snapshot.guild_id:
            return False
        location = await self.bot.locations.get(table_id)
        return interaction.channel_id in (location.channel_id, location.thread_id)

    async def on_unrouted(self, interaction: discord.Interaction[Any]) -> None:
        """Any component interaction (called for every one): discord.py hands a click to the
        table item only if its custom id is on the message the click comes from, and Discord
        does not promise that (a client showing an older message: a late Join after the lobby
        closed, My cards on an old round's message; a forged id). Such a click gets the
        answer of an out-of-date button instead of silence."""
        data: dict[str, Any] = dict(interaction.data or {})
        if is_routed(interaction.message, data.get("component_type"), data.get("custom_id")):
            return
        if not self.seen.first_time(interaction.id):
            return
        log.info("click %r not on its message: answered as out of date", data.get("custom_id"))
        try:
            await refuse(interaction, "bad_button")
        except discord.HTTPException as error:
            level = logging.INFO if interaction_gone(error) else logging.WARNING
            log.log(level, "answering an out-of-date click failed: %s", error)

    # -- the table message's buttons ----------------------------------------------------
    async def _verb(
        self,
        interaction: discord.Interaction[Any],
        component: ComponentId,
        values: tuple[str, ...] = (),
    ) -> None:
        table_id, verb = component.table_id, component.verb
        assert verb is not None  # a verb's custom id always names it
        user_id = interaction.user.id
        if verb is Verb.HAND:
            await self.show_hand(interaction, table_id)
            return
        if verb is Verb.WATCH:
            await self.watch(interaction, table_id)
            return
        if verb is Verb.ACTIVITY:
            server = self.bot.activity_server
            if server is None:
                raise TableError("bad_button")  # an old message, from before it was turned off
            server.launched(interaction.channel_id or 0, user_id, table_id)  # the page's table
            await interaction.response.launch_activity()
            return
        if verb is Verb.HINT:
            if not await self.lessons.hint(interaction, table_id):  # a lesson's own move
                await answer_hint(self, interaction, component)
            return
        if verb is Verb.LEAVE and self._in_match(table_id, user_id):
            await self._confirm_leave(interaction, component)
            return
        if verb is Verb.LEAVE_SURE:
            await within_deadline(
                self.service.seating.leave(table_id, user_id),
                lambda: interaction.response.defer(ephemeral=True),
            )
            words = text(language_of(interaction.locale), "reply.left", table_id=table_id)
            if interaction.response.is_done():
                await interaction.edit_original_response(content=words, embed=None, view=None)
            else:
                await interaction.response.edit_message(content=words, embed=None, view=None)
            return
        if verb is Verb.STOP_SURE:
            can_manage = interaction.permissions.manage_guild
            await within_deadline(
                self.service.seating.stop(table_id, user_id, can_manage),
                lambda: interaction.response.defer(ephemeral=True),
            )
            words = text(language_of(interaction.locale), "reply.stopped", table_id=table_id)
            if interaction.response.is_done():
                await interaction.edit_original_response(content=words, embed=None, view=None)
            else:
                await interaction.response.edit_message(content=words, embed=None, view=None)
            return
        places = _places(values) if verb in (Verb.SEAT, Verb.SWAP) else ()
        if places is None or len(places) != {Verb.SEAT: 1, Verb.SWAP: 2}.get(verb, 0):
            await refuse(interaction, "bad_button")  # a forged or empty choice
            return
        calls: dict[Verb, Callable[[], Awaitable[object]]] = {
            Verb.SEAT: lambda: self.service.seating.join(
                table_id, player_of(interaction), places[0]
            ),
            Verb.SWAP: lambda: self.service.seating.swap_seats(table_id, user_id, *places),
            Verb.JOIN: lambda: self.service.seating.join(table_id, player_of(interaction)),
            Verb.LEAVE: lambda: self.service.seating.leave(table_id, user_id),
            Verb.ADD_BOT: lambda: self._add_bot(table_id, user_id),
            Verb.FILL_BOTS: lambda: self._add_bot(table_id, user_id, every_free_seat=True),
            Verb.START: lambda: self.service.seating.start(table_id, user_id),
            Verb.CANCEL: lambda: self.service.seating.cancel(table_id, user_id),
            Verb.NEXT_ROUND: lambda: self.service.play.next_round(table_id, user_id),
            Verb.REMATCH: lambda: self.service.seating.rematch(table_id, user_id),
        }
        if verb in ROUND_CHANGING:
            await within_deadline(calls[verb](), interaction.response.defer)
        else:
            with self.bot.notifier.answering_on_message(table_id):
                await within_deadline(calls[verb](), interaction.response.defer)
        if verb in ROUND_CHANGING:
            # The notifier re-posts or edits the table message; just acknowledge the click.
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        rendered = await self.bot.notifier.render(table_id)
        if rendered is not None:
            message = interaction.message
            key = message.id if message is not None else interaction.id
            cards = self.bot.pictures.answer(key, rendered)
            await _update(interaction, rendered, cards)
            self._picture_after(interaction, key, cards)
            self.bot.notifier.note_sent(table_id, rendered)

    def _in_match(self, table_id: int, user_id: int) -> bool:
        """Seated (and not gone) at a table whose match is under way: leaving hands the seat
        to a bot for good, so it is asked twice."""
        snapshot = self.service.public_snapshot(table_id)
        seated = any(s.user_id == user_id and not s.left for s in snapshot.seats)
        return seated and snapshot.status in (PLAYING, ROUND_OVER)

    async def _confirm_leave(
        self, interaction: discord.Interaction[Any], component: ComponentId
    ) -> None:
        language = language_of(interaction.locale)
        sure = ButtonSpec(
            verb_id(component.table_id, component.round_no, Verb.LEAVE_SURE),
            text(language, "button.leave_sure"),
            "danger",
        )
        await interaction.response.send_message(
            text(language, "reply.leave_confirm", table_id=component.table_id),
            view=build_view((sure,)),
            ephemeral=True,
        )

    async def _add_bot(
        self, table_id: int, user_id: int, every_free_seat: bool = False
    ) -> PublicSnapshot:
        """A bot player (at every free seat: `every_free_seat`) named in the table's language
        ("Bot 2", "Robot 2"); the service numbers it."""
        snapshot = self.service.public_snapshot(table_id)
        language = await self.bot.guild_settings.public_language(snapshot.guild_id)
        add = (
            self.service.seating.fill_with_bots if every_free_seat else self.service.seating.add_bot
        )
        return await add(
            table_id, user_id, lambda number: text(language, "table.bot_name", number=number)
        )

    # -- a player's own message ---------------------------------------------------------
    async def show_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """ "My cards": always a fresh ephemeral message (old ones may be frozen)."""
        private = await within_deadline(
            self.service.play.private_view(table_id, interaction.user.id),
            lambda: interaction.response.defer(ephemeral=True, thinking=True),
        )
        rendered, language, hide_at, shown = await self._render_private(
            interaction, table_id, private, private.reveals
        )
        key = await self._post_ephemeral(interaction, rendered)
        self._rendered(key, interaction, private, language, hide_at, shown)

    async def watch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Watch: a fresh ephemeral message showing the table as a watcher sees it, which the
        follower keeps current while its token lives (as a player's "My cards")."""
        watched = await within_deadline(
            self.service.watching.watch(table_id, interaction.user.id),
            lambda: interaction.response.defer(ephemeral=True, thinking=True),
        )
        language = language_of(interaction.locale)
        rendered = render_watcher(watched, language)
        key = await self._post_ephemeral(interaction, rendered)
        self.follower.note_watcher(interaction, key, watched, language)

    async def _post_ephemeral(
        self, interaction: discord.Interaction[Any], rendered: RenderedMessage
    ) -> int:
        """A new message only the clicker sees (an answer, or a follow-up once deferred), its
        picture now if drawn, else after, in place: the message's key for the follower."""
        pictures = self.bot.pictures
        cards = pictures.answer(None, rendered)
        files = cards.attachments or []
        shown = shown_as(rendered, cards.embed)
        if interaction.response.is_done():
            sent = await interaction.followup.send(**shown, ephemeral=True, wait=True, files=files)
            key = sent.id
        else:
            response = await interaction.response.send_message(**shown, ephemeral=True, files=files)
            key = response.message_id or interaction.id
        pictures.posted(key, rendered, cards)
        self._picture_after(interaction, key, cards)
        return key

    async def _play(
        self, interaction: discord.Interaction[Any], component: ComponentId, notation: str
    ) -> None:
        lesson = await self.lessons.judge(interaction, component.table_id, notation)
        if lesson.answered:
            return  # a lesson's wrong move: answered with why, nothing played
        result = await within_deadline(
            self._act(component.table_id, interaction.user.id, component.round_no, notation),
            interaction.response.defer,
        )
        await self._show_private(interaction, component.table_id, result.private, result.reveals)
        if lesson.step is not None:
            await self.lessons.played(component.table_id, lesson.step)

    async def _act(self, table_id: int, user_id: int, round_no: int, notation: str) -> ActResult:
        """Play the click's moves in order (`swap 2;end`: one click, two moves) as a whole or
        not at all: the service tries them all before it plays any (`bot.service.play.whole`:
        a later move is left out only once the turn it was for is over). The reveals of every
        move are shown."""
        first, *then = moves(notation)
        result: ActResult = await self.service.play.act(table_id, user_id, round_no, first, then)
        return result

    async def _selected(
        self,
        interaction: discord.Interaction[Any],
        component: ComponentId,
        values: tuple[str, ...],
    ) -> None:
        if len(values) != 1:
            await refuse(interaction, "bad_button")
            return
        value = values[0]
        game = self.service.game_of(component.table_id)
        if THEN in value:
            await self._selected_together(interaction, component, value)
            return
        try:
            game.parse_action(value)
        except IllegalAction:
            await self._navigate(interaction, component, value)  # a piece of an action
            return
        # Some notations read a first piece as a whole action (`meld 7S` parses, though
        # a pack needs three cards): a value that only starts legal actions is a step.
        private = await within_deadline(
            self.service.play.private_view(component.table_id, interaction.user.id),
            interaction.response.defer,
        )
        if value not in private.legal and any(a.startswith(value + " ") for a in private.legal):
            await self._navigate(interaction, component, value, private)
            return
        await self._play(interaction, component, value)

    async def _selected_together(
        self, interaction: discord.Interaction[Any], component: ComponentId, value: str
    ) -> None:
        """An option that plays several moves in one choice (`announce;discard 7H`: "Knock
        and discard 7♥"): each move a distinct, well-formed notation (a forged value is
        refused), and each offered to the player now, else nothing is played; then played in
        order as a button's moves are."""
        parts = moves(value)
        game = self.service.game_of(component.table_id)
        try:
            well_formed = len(set(parts)) == len(parts) and all(
                _MOVE.fullmatch(part) and game.parse_action(part) is not None for part in parts
            )
        except IllegalAction:
            well_formed = False
        if not well_formed:
            await refuse(interaction, "bad_button")
            return
        private = await within_deadline(
            self.service.play.private_view(component.table_id, interaction.user.id),
            interaction.response.defer,
        )
        if private.round_no is not None and private.round_no != component.round_no:
            raise TableError("stale_button")
        if any(part not in private.legal for part in parts):
            raise TableError("choice_gone")
        await self._play(interaction, component, value)

    async def _picked(
        self,
        interaction: discord.Interaction[Any],
        component: ComponentId,
        values: tuple[str, ...],
    ) -> None:
        """Several options of one select complete one action (`m=meld` + 7S 7H 2C): played as
        `<prefix> <values>`, and the engine's check decides, as for any click."""
        if not _are_pieces(values):
            await refuse(interaction, "bad_button")
            return
        await self._play(interaction, component, " ".join((component.text, *values)))

    async def _navigate(
        self,
        interaction: discord.Interaction[Any],
        component: ComponentId,
        prefix: str,
        private: PrivateSnapshot | None = None,
    ) -> None:
        if private is None:
            private = await within_deadline(
                self.service.play.private_view(component.table_id, interaction.user.id),
                interaction.response.defer,
            )
        if private.round_no is not None and private.round_no != component.round_no:
            raise TableError("stale_button")
        if prefix and not under(private.legal, prefix) and not self._stage_offered(private, prefix):
            # A step of a move since played (from another message) or never offered: nothing
            # to choose under it. Reveals waiting for the player are shown with their moves.
            if not private.reveals:
                raise TableError("choice_gone")
            prefix = ""
        await self._show_private(interaction, component.table_id, private, private.reveals, prefix)

    def _stage_offered(self, private: PrivateSnapshot, prefix: str) -> bool:
        """A step the game's menu lays out before any legal move starts with it."""
        snapshot = self.service.public_snapshot(private.table_id)
        return plugin_for(snapshot.game).offers_stage(private, prefix, snapshot.options)

    async def _show_private(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        private: PrivateSnapshot,
        reveals: tuple[Reveal, ...],
        prefix: str = "",
    ) -> None:
        rendered, language, hide_at, shown = await self._render_private(
            interaction, table_id, private, reveals, prefix
        )
        message = interaction.message
        key = message.id if message is not None else interaction.id
        cards = self.bot.pictures.answer(key, rendered)
        await _update(interaction, rendered, cards)
        self._picture_after(interaction, key, cards)
        self._rendered(key, interaction, private, language, hide_at, shown, prefix)

    def _picture_after(
        self, interaction: discord.Interaction[Any], key: int, cards: Prepared
    ) -> None:
        """The answer (or an edit) went out before its hand's picture was drawn: it follows,
        in place."""
        if cards.waiting is None:
            return

        async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
            await interaction.edit_original_response(**shown_as(latest), attachments=files)

        self._spawn(
            self.bot.pictures.follow_up(key, cards.waiting, edit), also=self._pictures_following
        )

    async def pictures_followed(self) -> None:
        """Wait until every answer that went out before its picture was drawn has it, or gave
        it up (tests: a drawing sends nothing until it is done, so a quiet Discord is no sign)."""
        while self._pictures_following:
            await asyncio.gather(*self._pictures_following, return_exceptions=True)

    async def _render_private(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        private: PrivateSnapshot,
        reveals: tuple[Reveal, ...],
        prefix: str = "",
    ) -> tuple[RenderedMessage, str, float | None, tuple[Reveal, ...]]:
        """A player's own message in their language, when its reveals (if any) hide, and the
        reveals it lays over the hand: those this answer hands out, and those handed out
        earlier still in view."""
        language = language_of(interaction.locale)
        user_id = interaction.user.id
        until = None
        if reveals:
            until = self.bot.clock.now() + await self._reveal_seconds(interaction.guild_id)
            if self.service.game_of(table_id).round_class.recalls_sights:
                self.reveals.hold(table_id, user_id, private.round_no, reveals, until)
            # else shown in this answer only (the game cannot place them later)
        shown, hide_at = await self.reveals.shown(table_id, user_id, private.round_no, reveals)
        if until is not None:
            hide_at = until if hide_at is None else min(hide_at, until)
        public = self.service.public_snapshot(table_id)
        rendered = render_private(
            private,
            public,
            language,
            reveals=shown,
            hide_at=hide_at,
            prefix=prefix,
            deck=self.bot.decks.of(user_id),
        )
        return rendered, language, hide_at, shown

    # -- reveals: in view for the guild's delay, then hidden ----------------------------

    async def _reveal_seconds(self, guild_id: int | None) -> float:
        if guild_id is None:  # no guild, no guild setting: the settings' default delay
            return float(GuildSettings.model_fields["reveal_seconds"].default)
        return float((await self.bot.guild_settings.get(guild_id)).reveal_seconds)

    def _rendered(
        self,
        key: int,
        interaction: discord.Interaction[Any],
        private: PrivateSnapshot,
        language: str,
        hide_at: float | None,
        shown: tuple[Reveal, ...],
        prefix: str = "",
    ) -> None:
        """A private message was (re-)rendered: a pending hide of it is now moot, and the new
        content's reveals, if any, get their own hide. From now on it follows the game (the
        follower hides the reveals of the player's newest message; this, of an older one),
        at the menu step `prefix` it shows."""
        self.follower.note(interaction, key, private, language, hide_at, shown, prefix)
        self._pending_hides.pop(key, None)
        if hide_at is None:
            return
        self._tokens += 1
        self._pending_hides[key] = self._tokens
        self._spawn(self._hide_later(key, self._tokens, interaction, private, language, hide_at))

    async def _hide_later(
        self,
        key: int,
        token: int,
        interaction: discord.Interaction[Any],
        private: PrivateSnapshot,
        language: str,
        hide_at: float,
    ) -> None:
        await self.bot.clock.sleep(max(0.0, hide_at - self.bot.clock.now()))
        if self._pending_hides.get(key) != token:
            return  # the message was re-rendered since, with its own hide
        del self._pending_hides[key]
        if self.follower.follows(private.table_id, interaction.user.id, interaction.id):
            return  # the player's newest message: the follower redraws it at `hide_at`
        try:
            public = self.service.public_snapshot(private.table_id)
        except TableError:
            return
        deck = self.bot.decks.of(interaction.user.id)
        rendered = render_private(private, public, language, deck=deck)  # an older one: all hidden
        cards = await self.bot.pictures.complete(key, rendered)
        files = cards.edit_files()
        try:
            await interaction.edit_original_response(**shown_as(rendered, cards.embed), **files)
            self._picture_after(interaction, key, cards)  # drawn late: it follows
        except discord.NotFound:
            log.info("revealed cards not hidden: their message is gone")  # moved, deleted
        except discord.HTTPException as error:
            log.warning("could not hide revealed cards: %s", error)

    def _spawn(
        self, work: Coroutine[Any, Any, None], *, also: set[asyncio.Task[None]] | None = None
    ) -> None:
        """Run `work` on its own, kept in `_tasks` (and in `also`) until done."""
        task = asyncio.get_running_loop().create_task(work)
        for kept in (self._tasks,) if also is None else (self._tasks, also):
            kept.add(task)
            task.add_done_callback(kept.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def _places(values: tuple[str, ...]) -> tuple[int, ...] | None:
    """The places a lobby select chose ("2", or "0 2" for a swap); None if malformed."""
    if len(values) != 1:
        return None
    words = values[0].split()
    if not words or not all(w.isascii() and w.isdigit() and len(w) <= 2 for w in words):
        return None
    return tuple(int(w) for w in words)


_PIECE = re.compile(r"[A-Za-z0-9#]{1,12}")
_MOVE = re.compile(r"[A-Za-z0-9:.#_-]+(?: [A-Za-z0-9:.#_-]+)*")  # one move of a select's value


def _are_pieces(values: tuple[str, ...]) -> bool:
    """The values of a pick: 1 to 25 distinct words of a notation (forged ones are refused)."""
    return (
        0 < len(values) <= MAX_OPTIONS
        and len(set(values)) == len(values)
        and all(_PIECE.fullmatch(v) for v in values)
    )


def _is_private_message(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _update(
    interaction: discord.Interaction[Any], rendered: RenderedMessage, cards: Prepared
) -> None:
    """Edit the message the clicked component is on (after a deferral, through the token),
    with its hand's picture as `cards` says (None: the message keeps the files it has)."""
    files = cards.edit_files()
    if interaction.response.is_done():
        await interaction.edit_original_response(**shown_as(rendered, cards.embed), **files)
    else:
        await interaction.response.edit_message(**shown_as(rendered, cards.embed), **files)
