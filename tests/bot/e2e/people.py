"""Players who know only what Discord shows them, for a bot running in other processes.

Unlike `harness.BotUnderTest`, nothing here reads the bot's service: a `Person` finds their
table's newest message, opens "My cards", and plays what their own message offers; their open
message follows the game (the bot re-renders it when their turn comes), and when it offers
nothing they wait for the table message or their message to change. Every wait is on an event
of the local Discord (a request, a connection identifying or closing); timeouts only bound a
failure. A `Crowd` is everyone at once: what they were told was done (`Ack`), which bot
process answered, and a hook that kills a process right after a click reaches it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.local.gateway import ShardOffline
from bot.local.records import (
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_UPDATE,
    EPHEMERAL,
    LocalInteraction,
    LocalUser,
)
from bot.local.server import LocalDiscord
from bot.ui.custom_ids import BadCustomId, parse
from tests.bot.e2e.players import (
    SELECT,
    Choice,
    answer_message,
    choices,
    pick,
    step_toward,
    verb_choice,
)

WAIT = 30.0  # seconds: a bound on any one wait, so a stuck game fails instead of hanging
# A bot process's start (imports, worker processes, the store, the gateway) on a machine whose
# every core is busy took 30 s and more: a bound for a start, not a synchronisation.
START_WAIT = 120.0


def table_of(choice: Choice) -> tuple[int, int] | None:
    """(table id, round number) of a table component; None for another id."""
    try:
        component = parse(choice.custom_id)
    except BadCustomId:
        return None
    return component.table_id, component.round_no


def table_message(fake: LocalDiscord, table_id: int) -> dict[str, Any] | None:
    """The newest public message carrying this table's buttons."""
    public = [m for m in fake.messages.values() if not int(m["flags"]) & EPHEMERAL]
    for message in reversed(public):
        if any((table_of(c) or (0, 0))[0] == table_id for c in choices(message)):
            return message
    return None


def finished(message: dict[str, Any]) -> bool:
    return verb_choice(message, "rematch") is not None


def answered(interaction: LocalInteraction) -> bool:
    """The bot's answer is complete: a deferral is followed by its edit or follow-up."""
    if not interaction.answered.is_set():
        return False
    if interaction.callback_type in (CALLBACK_DEFERRED_UPDATE, CALLBACK_DEFERRED_MESSAGE):
        return len(interaction.requests) > 1
    return True


def updated_in_place(interaction: LocalInteraction) -> bool:
    """The clicked message itself was re-rendered (a move or a menu step done), not answered
    with a sentence of refusal."""
    return (
        interaction.callback_type in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE)
        and not any(r.route.startswith("POST /webhooks/") for r in interaction.requests)
        and all(r.ok for r in interaction.requests)
    )


@dataclass(frozen=True)
class Ack:
    """A move the player was shown done: the bot re-rendered their message after it."""

    table_id: int
    round_no: int
    user_id: int
    notation: str
    shard: int
    run: int  # which process of the shard answered (1: the first)


@dataclass
class Crowd:
    fake: LocalDiscord
    acks: list[Ack] = field(default_factory=list)
    answered: dict[int, int] = field(default_factory=dict)  # shard -> clicks answered
    made_before_restart: set[int] = field(default_factory=set)  # message ids
    # (table id, user, "move" or "hand"): a first click after a restart, on a message the
    # killed process made, that the new process answered
    old_buttons_answered: list[tuple[int, str, str]] = field(default_factory=list)
    kill_after_click: dict[int, Callable[[], None]] = field(default_factory=dict)  # shard
    # tables whose match the test knows is over by other means (a tournament's standings
    # posted): their people stop, whatever their table's message shows
    over: set[int] = field(default_factory=set)

    def run(self, shard: int) -> int:
        """How many times a process identified for this shard (the current run's number)."""
        return sum(1 for shard_id, _ in self.fake.gateway.identified if shard_id == shard)

    def up(self, shard: int) -> bool:
        return shard in self.fake.gateway.shards_connected()

    async def until(
        self, predicate: Callable[[], bool], what: str, *, timeout: float = WAIT
    ) -> None:
        await self.fake.wait_for(predicate, timeout=timeout, what=what)


class Person:
    """One user at one table of a guild on `shard`, choosing moves by `preference`."""

    def __init__(
        self,
        crowd: Crowd,
        user: LocalUser,
        table_id: int,
        shard: int,
        preference: Callable[[Person], Sequence[str]],
        *,
        host: bool = False,
    ) -> None:
        self.crowd = crowd
        self.fake = crowd.fake
        self.user = user
        self.table_id = table_id
        self.shard = shard
        self.preference = preference
        self.host = host
        self.private: int | None = None  # their newest own message
        self.reopen = False  # the message no longer follows the game (a restart, a refusal)
        self.run_seen = crowd.run(shard)
        self.moves_this_round = 0
        self.round_no: int | None = None

    # -- what they see ------------------------------------------------------------------
    def table(self) -> dict[str, Any]:
        message = table_message(self.fake, self.table_id)
        assert message is not None, f"table {self.table_id} has no message"
        return message

    def round_of(self, message: dict[str, Any]) -> int | None:
        for choice in choices(message):
            found = table_of(choice)
            if found is not None and found[0] == self.table_id:
                return found[1]
        return None

    def offered(self, round_no: int | None) -> list[Choice]:
        message = self.fake.messages.get(self.private or 0)
        if message is None or round_no is None:
            return []
        return [c for c in choices(message) if (table_of(c) or (0, -1))[1] == round_no]

    def private_round(self) -> int | None:
        """The round their own message is about (None: no message, or nothing on it)."""
        message = self.fake.messages.get(self.private or 0)
        rounds = {(table_of(c) or (0, -1))[1] for c in choices(message)} if message else set()
        return rounds.pop() if len(rounds) == 1 else None

    def _scene(self) -> str:
        table = self.table()
        private = self.fake.messages.get(self.private or 0) or {}
        seen = (
            table["id"],
            table.get("edited_timestamp"),
            private.get("id"),
            private.get("edited_timestamp"),
            self.crowd.run(self.shard),
            self.crowd.up(self.shard),
        )
        return json.dumps(seen)

    # -- what they do -------------------------------------------------------------------
    async def play(self) -> None:
        """Until the match is over: act when offered a move, else wait for a change."""
        while not finished(self.table()) and self.table_id not in self.crowd.over:
            if not self.crowd.up(self.shard):
                await self.crowd.until(
                    lambda: self.crowd.up(self.shard),
                    f"shard {self.shard} back for {self.user}",
                    timeout=START_WAIT,
                )
                continue
            if self.crowd.run(self.shard) != self.run_seen:
                self.run_seen = self.crowd.run(self.shard)
                self.reopen = True  # the new process does not follow the old messages
                await self._first_click_after_restart()
                continue
            table = self.table()
            round_no = self.round_of(table)
            if round_no != self.round_no:
                self.round_no, self.moves_this_round = round_no, 0
            choice = self._choose(round_no)
            if choice is not None and not self.reopen:
                await self._move(choice)
            elif self.host and verb_choice(table, "next") is not None:
                await self._click(verb_choice(table, "next"))  # type: ignore[arg-type]
            elif self.reopen or self.private_round() != round_no:
                scene = self._scene()
                await self._my_cards()
                if not self.offered(self.round_of(self.table())):
                    await self._wait_for_change(scene)
            else:
                await self._wait_for_change(self._scene())

    async def _first_click_after_restart(self) -> None:
        """A button of a message the killed process made: their own message's move if it
        offers one, else the table message's My cards."""
        choice = self._choose(self.round_of(self.table()))
        if choice is not None:
            interaction = await self._move(choice)
            verb = "move"
        else:
            interaction = await self._my_cards()
            verb = "hand"
        if interaction is not None and interaction.message_id in self.crowd.made_before_restart:
            self.crowd.old_buttons_answered.append((self.table_id, self.user.name, verb))

    def _choose(self, round_no: int | None) -> Choice | None:
        """The offered move the preference ranks first, or the step that asks for it (Call
        Dutch… opens the call's own button); never another menu step."""
        offered = self.offered(round_no)
        moves = [c for c in offered if c.notation is not None]
        choice = pick(offered, self.preference(self))
        if choice is None or choice.notation is not None:
            return choice
        return choice if step_toward(choice) in self.preference(self) else pick(moves, ())

    async def _wait_for_change(self, scene: str) -> None:
        private = self.fake.messages.get(self.private or 0) or {}
        await self.crowd.until(
            lambda: self._scene() != scene or self.table_id in self.crowd.over,
            f"a change for {self.user.name}: the table shows {self.table()['embeds']}, "
            f"their message {private.get('embeds')} "
            f"{[c.action for c in choices(private)] if private else 'none yet'}",
        )

    async def _my_cards(self) -> LocalInteraction | None:
        hand = verb_choice(self.table(), "hand")
        if hand is None:
            return None
        interaction = await self._click(hand)
        if interaction is None:
            return None
        message = answer_message(self.fake, interaction)
        if message is not None and int(message["flags"]) & EPHEMERAL:
            self.private, self.reopen = int(message["id"]), False
        return interaction

    async def _move(self, choice: Choice) -> LocalInteraction | None:
        interaction = await self._click(choice)
        if interaction is None:
            return None
        if not updated_in_place(interaction):
            self.reopen = True  # refused (one sentence): look at the cards again
            return interaction
        self.private, self.reopen = choice.message_id, False
        if choice.notation is None:
            return interaction  # a step that asks for the move (its button comes next)
        located = table_of(choice)
        assert located is not None
        if choice.component_type == SELECT and self._was_menu_step(choice):
            return interaction
        self.moves_this_round += 1
        self.crowd.acks.append(
            Ack(
                self.table_id,
                located[1],
                self.user.id,
                choice.notation,
                self.shard,
                self.run_seen,
            )
        )
        return interaction

    def _was_menu_step(self, choice: Choice) -> bool:
        """A select option naming the first words of moves opens a menu stage (its moves
        all start with them) instead of playing."""
        after = [c.notation or "" for c in self.offered(self.round_no) if c.notation]
        return bool(after) and all(n.startswith(f"{choice.notation} ") for n in after)

    async def _click(self, choice: Choice) -> LocalInteraction | None:
        """Click; the answered interaction, or None if the bot process went away first."""
        run = self.crowd.run(self.shard)
        try:
            if choice.component_type == SELECT:
                assert choice.value is not None
                interaction = await self.fake.choose(
                    self.user, choice.message_id, choice.custom_id, [choice.value]
                )
            else:
                interaction = await self.fake.click(self.user, choice.message_id, choice.custom_id)
        except ShardOffline:
            return None
        kill = self.crowd.kill_after_click.pop(self.shard, None)
        if kill is not None:
            kill()  # the click is on its way to the process being killed
        await self.crowd.until(
            lambda: answered(interaction)
            or self.crowd.run(self.shard) != run
            or not self.crowd.up(self.shard),
            f"an answer to {self.user.name}'s {choice.action!r}",
        )
        if not answered(interaction):
            return None  # lost with the process: never acknowledged
        self.crowd.answered[self.shard] = self.crowd.answered.get(self.shard, 0) + 1
        return interaction
