"""The real bot (bot.app.create_bot, all its cogs, a temporary database) against the fake Discord,
with players who click what they are shown, and a leak checker reading the live game."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.app import CardTableBot, create_bot
from bot.clock import FakeClock
from bot.local.layout import IS_COMPONENTS_V2
from bot.local.payloads import with_string_ids
from bot.local.records import EPHEMERAL, LocalInteraction, LocalUser
from bot.local.server import LocalDiscord, running_client
from bot.runtime.runner import InlinePolicyRunner
from bot.settings import Settings
from bot.snapshots import FINISHED, LOBBY, PLAYING, ROUND_OVER, PublicSnapshot
from bot.ui.custom_ids import BadCustomId, Kind, Verb, parse
from bot.ui.layout import shown_as
from games.cards import Card, shuffled
from storage.models import GuildSettings
from tests.bot.bots import UNPACED
from tests.bot.e2e.leak_checker import Exposure, LeakChecker, card_faces
from tests.bot.e2e.players import (
    Choice,
    Chooser,
    answer_message,
    answer_text,
    choices,
    pick,
    toward,
    use,
    verb_choice,
)

REVEAL_SECONDS = float(GuildSettings.model_fields["reveal_seconds"].default)  # a guild's default
EDIT_DELAY = 0.02  # seconds the bot coalesces table edits (1 s in production)
STEP_QUIET = 0.005  # after a click's answer: its follow-ups, not the coalesced table edit
# Classic Dutch, fastest honest play: call Dutch when offered, else draw and discard.
DUTCH_PREFERENCE = ("peek", "dutch", "draw", "discard", "skip", "end")


EIGHT = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")  # user names
MENU_DEPTH = 5  # clicks at most to reach one action: family, pieces, groups, the action
ONE_SENTENCE_MAX = 200  # characters: "one short sentence"


def players(fake: LocalDiscord) -> tuple[LocalUser, LocalUser, LocalUser]:
    return fake.user("alice"), fake.user("bob"), fake.user("carol")


def assert_one_short_private_sentence(interaction: LocalInteraction) -> str:
    """The answer is a single ephemeral message of one short line, with nothing to click."""
    (answer,) = [r for r in interaction.requests if r.shows_message]
    assert answer.ephemeral and answer.user_id == interaction.user.id
    data = answer.payload.get("data", answer.payload)
    content = str(data.get("content") or "")
    assert content and "\n" not in content and len(content) <= ONE_SENTENCE_MAX
    assert not data.get("embeds") and not data.get("components")
    assert all(r.ok for r in interaction.requests)
    return content


class BotUnderTest:
    """Starts and restarts the bot on one database; its players act through the fake."""

    def __init__(
        self, fake: LocalDiscord, database: Path, *, edit_delay: float = EDIT_DELAY
    ) -> None:
        self.fake = fake
        self.database = database
        self.database_url: str | None = None  # a PostgreSQL database instead of the file
        self.edit_delay = edit_delay
        self.clock = FakeClock()
        self._seeds = itertools.count(1)
        self.bot: CardTableBot | None = None
        self.last_private: dict[int, int] = {}  # user id -> their latest ephemeral message
        self.choose: Chooser = lambda offered: pick(offered, DUTCH_PREFERENCE)
        self.channel_edits = UNPACED  # Discord's limit is enforced where a test asks for it
        self.pacing_clock: FakeClock | None = None  # None: real time
        # Pictures of hands and tables cost CPU at each change: drawn where a test asks
        # (tests/bot/e2e/test_pictures_e2e.py, test_privacy_e2e.py), else cards as emojis only.
        self.hand_pictures = False
        # (table, round) -> the seats to act when last looked at, and every card seen in a
        # hand at a change of them: what a watcher of a table shown with its hands may see
        self._turn_hands: dict[tuple[int, int | None], tuple[tuple[int, ...], frozenset[str]]] = {}
        self.more_settings: dict[str, Any] = {}  # more variables (the Activity's, …)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[CardTableBot]:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            DISCORD_TOKEN="fake-token",
            DATABASE_PATH=self.database,
            DATABASE_URL=self.database_url,
            DEV_GUILD_ID=self.fake.guild_id,
            **self.more_settings,
        )
        bot = create_bot(
            settings,
            clock=self.clock,
            edit_delay=self.edit_delay,
            guild_ready_timeout=0.01,
            seed_source=lambda: next(self._seeds),
            channel_edits=self.channel_edits,
            pacing_clock=self.pacing_clock,
            hand_pictures=self.hand_pictures,
            # bot moves in this process, so "settled" means the bot players have moved too
            # (the worker process runner has its own test in tests/bot/service)
            policy_runner=InlinePolicyRunner(),
        )
        self.bot = bot
        async with running_client(bot):
            # tests read the service directly: every table loaded (a click would load its own)
            await bot.service.restoring.wait()
            # Cards show as pictures once uploaded: wait, so every test sees one rendering.
            await asyncio.wait_for(bot.card_emojis.done.wait(), 10)
            yield bot
            await self.settle()
        self.bot = None

    @property
    def live(self) -> CardTableBot:
        assert self.bot is not None, "the bot is not running"
        return self.bot

    async def settle(self) -> None:
        """Let the bot finish what it is doing: bot moves, pending table edits, answers in
        flight."""
        await self.fake.settle(quiet=EDIT_DELAY)
        if self.bot is not None:
            await self.bot.service.followup.settle()
            if self.pacing_clock is not None:
                # paced edits wait for their channel's window on the test's clock, which only
                # the test moves: move it on until none is left, or draining waits forever
                while not self.bot.notifier.idle:
                    await self.pacing_clock.advance(1.0)
                    await self.fake.settle(quiet=EDIT_DELAY)
            await self.bot.notifier.drain()
            await self.bot.tables.pictures_followed()
        await self.fake.settle(quiet=EDIT_DELAY)

    # -- the table ------------------------------------------------------------------------
    def table_ids(self) -> list[int]:
        return self.live.service.table_ids()

    def table_message(self, table_id: int) -> dict[str, Any]:
        """The newest public message, in any channel or thread, carrying this table's buttons."""
        public = [m for m in self.fake.messages.values() if not int(m["flags"]) & EPHEMERAL]
        for message in reversed(public):
            if any(_table_of(c) == table_id for c in choices(message)):
                return message
        raise AssertionError(f"no message of table {table_id} with buttons")

    async def stored_table_message(self, table_id: int) -> dict[str, Any]:
        """The message the bot keeps for this table (whatever it now shows)."""
        location = await self.live.locations.get(table_id)
        assert location.message_id is not None, f"table {table_id} has no message"
        return self.fake.message(location.message_id)

    async def open_table(
        self,
        host: LocalUser,
        *,
        game: str = "dutch",
        channel_id: int | None = None,
        **options: Any,
    ) -> int:
        """`/<game> start` by the host (any game; `options`: the command's): the table's id."""
        before = set(self.table_ids())
        answer = await self.fake.slash(host, f"{game} start", channel_id=channel_id, **options)
        await answer.wait_answered()
        await self.settle()
        (table_id,) = set(self.table_ids()) - before
        return table_id

    async def ask(
        self, user: LocalUser, command: str, **options: Any
    ) -> tuple[LocalInteraction, dict[str, Any]]:
        """`/command` by `user`: the interaction and the message its answer shows. A deferred
        command answers by a follow-up after a query of the store, which a quiet moment does
        not prove has come: it is waited for."""
        asked = await self.fake.slash(user, command, **options)
        await asked.wait_answered()
        await self.fake.wait_for(
            lambda: bool(shown_answer(asked)), what=f"the answer to /{command}"
        )
        await self.settle()
        return asked, shown_answer(asked)

    async def press(self, user: LocalUser, table_id: int, verb: str) -> LocalInteraction:
        choice = verb_choice(self.table_message(table_id), verb)
        assert choice is not None, f"the table message has no {verb!r} button"
        interaction = await use(self.fake, user, choice)
        await self.settle()
        return interaction

    def stack_decks(self, table_id: int, decks: Iterable[int | Sequence[Card]]) -> None:
        """Deal the next rounds from known orders of the table's own deck (any game's, for its
        options): a number is a seed shuffling that deck, a list of cards is the order itself,
        so the match is the same every run."""
        table = self.live.service._table(table_id)
        for deck in decks:
            if isinstance(deck, int):
                deck = shuffled(table.game.deck(table.options), deck)
            self.live.service.stack_deck(table_id, list(deck))

    async def start_with_bots(
        self,
        host: LocalUser,
        game: str,
        bots: int,
        *,
        before_start: Callable[[int], None] | None = None,
        **options: Any,
    ) -> int:
        """`/<game> start` by the host, `bots` bot players added, then Start: the table's id.
        `before_start(table_id)` runs in the lobby (e.g. to stack the decks)."""
        started = await self.fake.slash(host, f"{game} start", **options)
        await started.wait_answered()
        await self.settle()
        (table_id,) = self.table_ids()
        if before_start is not None:
            before_start(table_id)
        for _ in range(bots):
            await self.press(host, table_id, Verb.ADD_BOT.value)
        await self.press(host, table_id, Verb.START.value)
        return table_id

    async def seat_players(
        self,
        host: LocalUser,
        guests: Sequence[LocalUser],
        *,
        decks: Iterable[int | Sequence[Card]] = range(101, 111),
        **options: Any,
    ) -> int:
        """The host opens a table (`options`: the start command's, `game` among them), the
        guests join in turn, the host starts it, its rounds dealt from `decks` (see
        `stack_decks`): the table's id."""
        table_id = await self.open_table(host, **options)
        self.stack_decks(table_id, decks)
        for guest in guests:
            await self.press(guest, table_id, Verb.JOIN.value)
        await self.press(host, table_id, Verb.START.value)
        assert self.live.service.public_snapshot(table_id).status == PLAYING
        return table_id

    # -- playing --------------------------------------------------------------------------
    def user_of_seat(self, table_id: int, seat: int) -> LocalUser:
        info = self.live.service.public_snapshot(table_id).seats[seat]
        for user in self.fake.users.values():
            if user.id == info.user_id:
                return user
        raise AssertionError(f"seat {seat} is not one of the fake's users")

    async def my_cards(self, user: LocalUser, table_id: int) -> LocalInteraction:
        """Click "My cards" on the table message; remember the ephemeral answer."""
        choice = verb_choice(self.table_message(table_id), Verb.HAND.value)
        assert choice is not None, "the table message has no 'My cards' button"
        interaction = await use(self.fake, user, choice)
        await self.fake.settle(quiet=STEP_QUIET)
        message = answer_message(self.fake, interaction)
        if message is not None:
            self.last_private[user.id] = int(message["id"])
        return interaction

    def newest_private(self, user: LocalUser) -> int | None:
        """The user's newest ephemeral message with something to click (their hand: when
        their turn comes it moves below the channel's newer messages, the old one deleted)."""
        found = [
            r.message_id
            for r in self.fake.requests
            if r.ephemeral
            and r.user_id == user.id
            and r.message_id in self.fake.messages
            and choices(self.fake.message(r.message_id))
        ]
        return max(found, default=None)

    def private_choices(self, user: LocalUser, round_no: int) -> list[Choice]:
        message_id = self.last_private.get(user.id)
        if message_id is None or message_id not in self.fake.messages:
            message_id = self.newest_private(user)
        if message_id is None:
            return []
        self.last_private[user.id] = message_id
        offered = choices(self.fake.message(message_id))
        return [c for c in offered if _round_of(c) == round_no]

    async def act(self, user: LocalUser, table_id: int) -> LocalInteraction:
        """One step of `user`: from their own message (fetched anew when it offers nothing for
        this round), the action `self.choose` picks among those offered."""
        _, interaction = await self._step(user, table_id, self.choose)
        return interaction

    async def play(self, user: LocalUser, table_id: int, notation: str) -> LocalInteraction:
        """`user` plays exactly `notation` by clicking through the menu steps their own
        message offers (a select narrowing to it, then its option or button). The bot
        players' moves that follow it are played too."""
        choose = toward(notation)
        played = self.actions_played(table_id)
        seat = self.live.service.public_snapshot(table_id).seat_of(user.id)
        for _ in range(MENU_DEPTH):
            choice, interaction = await self._step(user, table_id, choose)
            if choice.notation == notation or choice.values:  # a pick is a move's last step
                await self.settle()
                snapshot = self.live.service.public_snapshot(table_id)
                assert snapshot.status != PLAYING or self._played_by(table_id, played) == seat, (
                    f"{user.name}'s {notation!r} was not played: "
                    f"{answer_text(self.fake, interaction)}"
                )
                return interaction
        raise AssertionError(f"{notation!r} is not reached in {MENU_DEPTH} menu steps")

    async def act_toward(self, user: LocalUser, table_id: int, notation: str) -> LocalInteraction:
        """One menu step of `user` toward `notation` (the select option or button that narrows
        to it), without playing it: the step's message is then `user`'s latest."""
        _, interaction = await self._step(user, table_id, toward(notation))
        return interaction

    async def _step(
        self, user: LocalUser, table_id: int, choose: Chooser
    ) -> tuple[Choice, LocalInteraction]:
        round_no = self.live.service.public_snapshot(table_id).round_no
        assert round_no is not None
        offered = self.private_choices(user, round_no)
        if choose(offered) is None:
            await self.my_cards(user, table_id)
            offered = self.private_choices(user, round_no)
        choice = choose(offered)
        assert choice is not None, f"{user.name} is offered nothing: {offered}"
        interaction = await use(self.fake, user, choice)
        await self.fake.settle(quiet=STEP_QUIET)
        if self.live.service.followup.pending(table_id):  # the bot moves that follow the click
            await self.live.service.followup.settle(table_id)
            await self.fake.settle(quiet=STEP_QUIET)
        message = answer_message(self.fake, interaction)
        if message is not None and int(message["flags"]) & EPHEMERAL:
            self.last_private[user.id] = int(message["id"])
        return choice, interaction

    async def play_round(self, table_id: int, *, max_steps: int = 200) -> None:
        """Whoever may act acts, until the round is over."""
        for _ in range(max_steps):
            if self.live.service.public_snapshot(table_id).status != PLAYING:
                await self.settle()
                return
            await self._move(table_id)
        raise AssertionError(f"the round was not over after {max_steps} steps")

    async def play_to_the_end(
        self,
        table_id: int,
        *,
        as_the_bot: bool = False,
        seed: int = 1,
        max_moves: int = 2_000,
        watch: Callable[[PublicSnapshot], None] | None = None,
    ) -> None:
        """Any game's match played to its end through the real clicks, one `step` at a time
        (`as_the_bot`: every person plays what the game's simple bot would, drawn from `seed`).
        `watch`, a test's own checks, is given the table's snapshot before each step and once
        at the end."""
        rng = random.Random(seed) if as_the_bot else None
        for _ in range(max_moves):
            if watch is not None:
                watch(self.live.service.public_snapshot(table_id))
            if not await self.step(table_id, as_the_bot=rng):
                return
        raise AssertionError(f"the match was not over after {max_moves} moves")

    async def step(self, table_id: int, *, as_the_bot: random.Random | None = None) -> bool:
        """One step of any game's match through the real clicks: the next round started as the
        host would start it, or one move of the first person who may act (what `self.choose`
        picks among what their message offers; `as_the_bot`: what the game's simple bot would
        play, drawn from this generator, through the menu steps to it). False once the match
        is over (its last edits settled)."""
        status = self.live.service.public_snapshot(table_id).status
        if status == FINISHED:
            await self.settle()  # the last edits of the table message
            return False
        if status == ROUND_OVER:
            await self.next_round(table_id)
        else:
            assert status == PLAYING, status
            await self._move(table_id, as_the_bot)
        return True

    async def _move(self, table_id: int, as_the_bot: random.Random | None = None) -> None:
        """One move of the first person who may act."""
        snapshot = self.live.service.public_snapshot(table_id)
        # Bot players, and the seats of players who left, move by themselves.
        people = [
            s
            for s in snapshot.to_act
            if snapshot.seats[s].user_id is not None and not snapshot.seats[s].left
        ]
        assert people, f"only bot players may act, yet they did not: {snapshot.to_act}"
        user = self.user_of_seat(table_id, people[0])
        if as_the_bot is None:
            await self.act(user, table_id)
            return
        notation = self.live.service.bot_choice(table_id, user.id, as_the_bot)
        assert notation is not None, f"{user.name} may not act at table {table_id}"
        await self.play(user, table_id, notation)

    async def next_round(self, table_id: int) -> None:
        snapshot = self.live.service.public_snapshot(table_id)
        choice = verb_choice(self.table_message(table_id), Verb.NEXT_ROUND.value)
        if choice is not None:
            await use(self.fake, self.user_of_seat(table_id, 0), choice)
        elif snapshot.next_round_at is not None:
            await self.clock.advance(snapshot.next_round_at - self.clock.now())
        await self.settle()
        assert self.live.service.public_snapshot(table_id).status == PLAYING

    def _played_by(self, table_id: int, index: int) -> int | None:
        """The seat that played the round's action number `index` (None: not played yet)."""
        table = self.live.service._table(table_id)
        history = table.round.history if table.round is not None else []
        return history[index][0] if index < len(history) else None

    def actions_played(self, table_id: int) -> int:
        """How many actions the engine applied in the current round."""
        table = self.live.service._table(table_id)
        return len(table.round.history) if table.round is not None else 0

    async def assert_table_message_converged(self, table_id: int) -> None:
        """The stored table message shows exactly what the bot would render now."""
        await self.settle()
        rendered = await self.live.notifier.render(table_id)
        assert rendered is not None
        shown = await self.stored_table_message(table_id)
        assert self.shows(shown, rendered), (shown, self.sent(rendered))

    def sent(self, rendered: Any, *, picture: bool = True) -> dict[str, Any]:
        """What the bot sends for this rendering (its embeds and components, as the local
        server keeps them): without card pictures (most e2e tests, or `picture` False: not
        drawn in time), the table message goes without the table's image."""
        pictures = self.live.pictures
        embed = rendered.embed if pictures.enabled else pictures.answer(None, rendered).embed
        if not picture:
            embed = embed.copy()
            embed.set_image(url=None)
        shown = shown_as(rendered, embed)
        sent = {"flags": 0, "embeds": [], "components": shown["view"].to_components()}
        if shown["embed"] is not None:
            sent["embeds"] = [dict(shown["embed"].to_dict())]
        else:
            sent["flags"] = IS_COMPONENTS_V2
        return json.loads(json.dumps(with_string_ids(sent)))

    def shows(self, message: dict[str, Any], rendered: Any, *, picture: bool = True) -> bool:
        """Whether the stored `message` shows this rendering as the bot sends it."""
        sent = self.sent(rendered, picture=picture)
        return (
            message["embeds"] == sent["embeds"]
            and message["components"] == sent["components"]
            and (int(message["flags"]) & IS_COMPONENTS_V2) == sent["flags"]
        )

    # -- what may be seen -----------------------------------------------------------------
    def exposure(self) -> Exposure:
        """Card faces the public table shows now, each seated user's own view, and what each
        watcher may see: nothing more than the public table, or, at a table shown with its
        hands, the cards held at a change of the seats to act this test saw itself (its own
        record of the turns, not the engine's: a card drawn during the turn is not in it)."""
        if self.bot is None or self.bot._service is None:
            return Exposure()
        service = self.bot.service
        public: set[str] = set()
        private: dict[int, frozenset[str]] = {}
        for table_id in service.table_ids():
            snapshot = service.public_snapshot(table_id)
            public |= card_faces(snapshot)
            table = service._table(table_id)  # the live round: what each seat's view shows
            for seat, info in enumerate(snapshot.seats):
                if info.user_id is None or table.round is None or snapshot.status == LOBBY:
                    continue
                seen = card_faces(table.round.view(seat))
                seen |= card_faces(table.pending_reveals.get(seat, []))
                private[info.user_id] = frozenset(seen)
            held = self._held_at_turns(table_id, table)
            for watcher in table.watchers:
                private[watcher] = private.get(watcher, frozenset()) | held
        return Exposure(frozenset(public), private)

    def _held_at_turns(self, table_id: int, table: Any) -> frozenset[str]:
        """At a table shown with its hands, the cards held at every change of the seats to
        act this round, as this test saw them (nothing at a table shown without hands)."""
        if table.spectators != "hands" or table.round is None:
            return frozenset()
        key = (table_id, table.round_no)
        to_act = tuple(table.round.to_act())
        last = self._turn_hands.get(key)
        if last is None or last[0] != to_act:
            held = card_faces(table.round.open_hands())
            self._turn_hands[key] = (to_act, (last[1] if last else frozenset()) | held)
        return self._turn_hands[key][1]

    def leak_checker(self) -> LeakChecker:
        """A checker on every payload from now on. It also looks at the game each time the
        service reports a change (synchronously, right after the change, before any other
        click runs), so concurrent clicks never hide a state a payload was rendered from."""
        checker = LeakChecker(
            self.exposure,
            is_private_view_request=_asks_private_view,
            is_exempt=_is_rules,
            now=self.clock.now,
            reveal_seconds=REVEAL_SECONDS,
        ).attach(self.fake)
        notifier = self.live.notifier
        for name in ("table_changed", "round_started", "turn_reminder", "table_closed"):
            setattr(notifier, name, _observing(checker, getattr(notifier, name)))
        return checker


def shown_answer(interaction: LocalInteraction) -> dict[str, Any]:
    """The latest message an interaction's answer shows with words or an embed (a deferral
    shows neither); {} while there is none."""
    for request in reversed(interaction.requests):
        payload = request.payload if isinstance(request.payload, dict) else {}
        data = payload.get("data", payload)
        shown = isinstance(data, dict) and (
            data.get("embeds")
            or data.get("content")
            or int(data.get("flags") or 0) & IS_COMPONENTS_V2
        )
        if request.shows_message and shown:
            return data
    return {}


def _observing(checker: LeakChecker, call: Callable[..., Awaitable[None]]) -> Any:
    async def observed(*args: Any) -> None:
        checker.observe()
        await call(*args)

    return observed


def _parsed(choice: Choice) -> Any:
    try:
        return parse(choice.custom_id)
    except BadCustomId:
        return None


def _table_of(choice: Choice) -> int | None:
    component = _parsed(choice)
    return component.table_id if component is not None else None


def _round_of(choice: Choice) -> int | None:
    component = _parsed(choice)
    return component.round_no if component is not None else None


def _asks_private_view(interaction: LocalInteraction) -> bool:
    """A click whose answer is a player's own view: "My cards", or any click on a private
    message (play, select, navigate)."""
    if interaction.custom_id is None:
        return False
    try:
        component = parse(interaction.custom_id)
    except BadCustomId:
        return False
    return component.verb is Verb.HAND or component.kind is not Kind.VERB


def _is_rules(interaction: LocalInteraction) -> bool:
    """`/dutch rules` describes cards in general ("a red King is worth 15"), not anyone's."""
    return interaction.kind == "command" and "rules" in str(interaction.data.get("options"))
