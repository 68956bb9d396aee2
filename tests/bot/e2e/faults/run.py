"""One fault's run and its row of the table: people click at a table of Dutch while a fault
holds, then after it; every click's answer is judged, the public and private payloads are
read by the leak checker, and the bot is restarted from its store to count the moves it had
acknowledged and lost.

A click is *answered* when its first answer reaches the local Discord within Discord's 3 s
(the fake enforces the deadline too); it is *refused in one sentence* when that answer is one
short private line and nothing else; a move is *acknowledged* when the click's answer with
words (after a "thinking…" deferral, the one that follows it) is not a refusal and the engine
took the move. *Recovery* is the time from the fault's end to the first move played and shown
on the table message.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.app import CardTableBot
from bot.local.gateway import ShardOffline
from bot.local.layout import is_v2
from bot.local.records import LocalInteraction, LocalUser
from bot.local.server import LocalDiscord
from bot.snapshots import PLAYING
from bot.ui.custom_ids import BadCustomId, parse
from tests.bot.e2e.harness import ONE_SENTENCE_MAX, BotUnderTest, players
from tests.bot.e2e.leak_checker import LeakChecker
from tests.bot.e2e.players import Choice, choices, verb_choice

ANSWER_SECONDS = 3.0  # Discord's deadline for a click's first answer
RECOVERY_TARGET = 10.0  # seconds after a fault's end
FOLLOW_UP_WAIT = 15.0  # seconds a person waits on "thinking…" before clicking again
PREFERENCE = ("peek", "draw", "discard", "skip", "end")  # a long round: never call Dutch
Position = tuple[int, int]  # (round number, actions played in it)


@dataclass
class FaultRow:
    """What a fault did to the players: one row of the fault table."""

    fault: str
    seconds: float = 0.0  # how long the fault held
    clicks: int = 0  # clicks made while it held
    answered: int = 0  # of those, answered within 3 s (a move, a view or one sentence)
    refused: int = 0  # of those, refused in one sentence
    deferred: int = 0  # of those, answered "thinking…" first (the move or sentence came later)
    undelivered: int = 0  # of those, that Discord could not deliver (no gateway)
    lost: int = 0  # acknowledged moves missing after a restart from the store
    leaks: int = 0  # hidden cards shown to someone who may not see them
    recovery: float | None = None  # seconds from the fault's end to a move played and shown
    # Discord itself refused the answers (5xx on an interaction's callback): no bot can answer
    answers_refused_by_discord: bool = False
    # ERROR lines the fault itself causes, by their first words (discord.py logs each failed
    # reconnection with its traceback; the fake, each answer it refused as late)
    expected_errors: tuple[str, ...] = ()
    broken: list[str] = field(default_factory=list)  # other guarantees the fault broke
    requests_refused: int = 0  # REST storms: the bot's requests Discord refused meanwhile
    sessions: tuple[int, int] = (0, 0)  # gateway drops: (identified again, resumed)
    notes: list[str] = field(default_factory=list)

    def targets_missed(self) -> list[str]:
        """The targets this row misses, each in a few words (empty: all met)."""
        missed: list[str] = list(self.broken)
        delivered = self.clicks - self.undelivered
        if self.answered < delivered and not self.answers_refused_by_discord:
            missed.append(f"{delivered - self.answered} clicks unanswered within 3 s")
        if self.lost:
            missed.append(f"{self.lost} acknowledged moves lost")
        if self.leaks:
            missed.append(f"{self.leaks} hidden cards shown")
        if self.recovery is None or self.recovery > RECOVERY_TARGET:
            missed.append(f"recovery {self.recovery} s")
        return missed


def one_sentence(interaction: LocalInteraction) -> bool:
    """The first answer with words is a single short private line with nothing to click."""
    shown = [r for r in interaction.requests if r.shows_message and _shows_words(r.payload)]
    if not shown:
        return False
    payload = shown[0].payload if isinstance(shown[0].payload, dict) else {}
    data = payload.get("data", payload)
    content = str(data.get("content") or "")
    return (
        shown[0].ephemeral
        and bool(content)
        and "\n" not in content
        and len(content) <= ONE_SENTENCE_MAX
        and not data.get("embeds")
        and not data.get("components")
    )


class FaultRun:
    """Three people at a table of Dutch in the bot under test; `click` is one person's click."""

    def __init__(self, harness: BotUnderTest, row: FaultRow) -> None:
        self.harness = harness
        self.fake = harness.fake
        self.row = row
        self.table_id = 0
        self.acknowledged: Position = (0, 0)
        self.during = False
        self.ended_at = 0.0
        self.checker: LeakChecker | None = None
        self.last_private: dict[int, int] = {}
        self.clicked: list[LocalInteraction] = []  # every click delivered to the bot

    @property
    def bot(self) -> CardTableBot:
        return self.harness.live

    async def seat(self) -> None:
        """Alice, Bob and Carol start a match; the leak checker reads every payload."""
        alice, bob, carol = players(self.fake)
        self.harness.choose = self._choose
        self.checker = self.harness.leak_checker()
        self.table_id = await self.harness.seat_players(alice, [bob, carol], target=1000)

    @staticmethod
    def _choose(offered: list[Choice]) -> Choice | None:
        for wanted in PREFERENCE:
            for choice in offered:
                if (choice.notation or "").startswith(wanted):
                    return choice
        return None

    def position(self) -> Position:
        snapshot = self.bot.service.public_snapshot(self.table_id)
        return snapshot.round_no or 0, self.harness.actions_played(self.table_id)

    def mover(self) -> LocalUser | None:
        snapshot = self.bot.service.public_snapshot(self.table_id)
        if snapshot.status != PLAYING or not snapshot.to_act:
            return None
        return self.harness.user_of_seat(self.table_id, snapshot.to_act[0])

    def _offered(self, user: LocalUser, round_no: int) -> Choice | None:
        message_id = self.last_private.get(user.id)
        if message_id is None or message_id not in self.fake.messages:
            return None
        found = [c for c in choices(self.fake.message(message_id)) if _round_of(c) == round_no]
        return self._choose(found)

    async def click(self) -> LocalInteraction | None:
        """The person whose turn it is clicks their move, or "My cards" when their message
        offers none. Counted and judged; None when nobody may act (the round is over)."""
        user = self.mover()
        if user is None:
            return None
        round_no, _ = self.position()
        choice = self._offered(user, round_no)
        if choice is None:
            choice = verb_choice(self.harness.table_message(self.table_id), "hand")
            assert choice is not None, "the table message has no 'My cards' button"
        before = self.position()
        try:
            if choice.component_type == 3:
                assert choice.value is not None
                interaction = await self.fake.choose(
                    user, choice.message_id, choice.custom_id, [choice.value]
                )
            else:
                interaction = await self.fake.click(user, choice.message_id, choice.custom_id)
        except ShardOffline:  # Discord drops a click it cannot deliver
            if self.during:
                self.row.clicks += 1
                self.row.undelivered += 1
            return None
        self.clicked.append(interaction)
        answered = await answered_within(interaction, ANSWER_SECONDS)
        deferred = answered and not any(_shows_words(r.payload) for r in interaction.requests)
        if deferred:  # "thinking…": a person waits for the answer that follows
            await _followed_up(self.fake, interaction, FOLLOW_UP_WAIT)
        for request in interaction.requests:
            shown = self.fake.messages.get(request.message_id or 0)
            if request.ephemeral and shown is not None and choices(shown):
                self.last_private[user.id] = int(shown["id"])
        after = self.position()
        told_done = any(_shows_words(r.payload) for r in interaction.requests if r.ok)
        if told_done and not one_sentence(interaction) and after > before:
            self.acknowledged = max(self.acknowledged, after)
        if self.during:
            self.row.clicks += 1
            self.row.answered += int(answered)
            self.row.refused += int(answered and one_sentence(interaction))
            self.row.deferred += int(deferred)
        return interaction

    @contextlib.asynccontextmanager
    async def fault(self, name: str) -> AsyncIterator[None]:
        """The block is the fault: clicks in it are counted; its end starts the recovery."""
        self.row.fault = name
        started = time.monotonic()
        self.during = True
        try:
            yield
        finally:
            self.during = False
            self.ended_at = time.monotonic()
            self.row.seconds = round(self.ended_at - started, 1)

    async def click_for(self, seconds: float, *, pause: float = 0.2) -> None:
        """People click for `seconds` (a click, then `pause`: a person reading)."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            await self.click()
            await asyncio.sleep(pause)

    async def recover(self, *, within: float = 30.0) -> None:
        """People click until a move is played and the table message shows it: the seconds
        since the fault's end are the recovery."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            before = self.position()
            await self.click()
            if self.position() > before and await self._table_message_shows_now():
                self.row.recovery = round(time.monotonic() - self.ended_at, 2)
                return
            await asyncio.sleep(0.1)
        self.row.notes.append(f"no move shown within {within} s of the fault's end")

    async def _table_message_shows_now(self, within: float = RECOVERY_TARGET) -> bool:
        """Whether the stored table message comes to show what the bot would render now."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            rendered = await self.bot.notifier.render(self.table_id)
            message = await self.harness.stored_table_message(self.table_id)
            if rendered is not None and self.harness.shows(message, rendered):
                return True
            await asyncio.sleep(0.05)
        return False

    async def handled(self, within: float = 30.0) -> None:
        """Wait, within a bound, until the bot has tried to answer every click (a click
        answered late, or whose answer Discord refused, is tried again by discord.py for a
        while); the clicks it gave up on are noted."""
        await self.harness.settle()
        with contextlib.suppress(AssertionError):
            await self.fake.wait_for(
                lambda: all(i.requests for i in self.clicked),
                timeout=within,
                what="an answer to every click",
            )
        await self.harness.settle()
        silent = sum(1 for i in self.clicked if not i.requests)
        if silent:
            self.row.notes.append(f"{silent} clicks never reached Discord's answer route")

    def count_leaks(self) -> None:
        """The leak checker's findings; it stops reading (a restart follows)."""
        assert self.checker is not None
        self.fake.listeners.remove(self.checker.check)
        self.fake.inject_listeners.remove(self.checker.interaction_arrived)
        self.row.leaks = len(self.checker.leaks)
        self.row.notes += [str(leak) for leak in self.checker.leaks[:3]]

    async def count_lost(self) -> None:
        """After a restart from the store: acknowledged moves the restored table lacks."""
        async with self.harness.running():
            restored = self.position()
        if restored < self.acknowledged:
            round_no, played = self.acknowledged
            self.row.lost = played - restored[1] if restored[0] == round_no else played
            self.row.notes.append(f"acknowledged {self.acknowledged}, restored {restored}")


async def answered_within(interaction: LocalInteraction, seconds: float) -> bool:
    try:
        await asyncio.wait_for(interaction.answered.wait(), seconds)
    except TimeoutError:
        return False
    return True


def _shows_words(payload: object) -> bool:
    """An answer with words, an embed or a Components V2 layout (a deferral shows none)."""
    if not isinstance(payload, dict):
        return False
    data = payload.get("data", payload)
    if not isinstance(data, dict):
        return False
    return bool(
        data.get("content")
        or data.get("embeds")
        or (is_v2(data.get("flags")) and data.get("components"))
    )


async def _followed_up(fake: LocalDiscord, interaction: LocalInteraction, within: float) -> None:
    """Wait, within a bound, for a deferred click's answer with words."""
    with contextlib.suppress(AssertionError):
        await fake.wait_for(
            lambda: any(_shows_words(r.payload) for r in interaction.requests),
            timeout=within,
            what="the deferred answer",
        )


def _round_of(choice: Choice) -> int | None:
    try:
        return parse(choice.custom_id).round_no
    except BadCustomId:
        return None
