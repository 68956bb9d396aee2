"""A stuck shard: two bot processes (`python -m bot`, one shard each of two) on one PostgreSQL
database; the process of shard 0 is stopped with SIGSTOP (stuck, not dead: its connections
stay open, nobody answers on them) for a while, then continued. People play at a table of each
shard throughout: the other shard's must not notice; the stuck one's clicks cannot be answered
(no other process may serve its guilds) and Discord drops them; once continued it answers
again, and every move a player was shown done is in the database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.local.records import LocalInteraction, LocalUser
from bot.local.server import LocalDiscord, running_local_discord
from bot.ui.emojis import EMOJIS
from tests.bot.e2e.bot_processes import BotProcess
from tests.bot.e2e.faults.postgres import own_server
from tests.bot.e2e.faults.run import ANSWER_SECONDS, RECOVERY_TARGET, FaultRow, answered_within
from tests.bot.e2e.people import START_WAIT, Crowd, Person, table_message
from tests.bot.e2e.players import Choice, verb_choice
from tests.bot.e2e.test_shards_e2e import open_table, stored_moves

STUCK = 0  # the shard whose process is stopped
NAMES = ("ann", "ben", "cat")
LATE_ANSWER = "LOCAL DISCORD: interaction answered after"


def long_round(person: Person) -> tuple[str, ...]:
    """Draw and discard, never call Dutch: the round outlasts the fault."""
    return ("peek", "draw", "discard", "skip", "end")


async def shard_stopped(seconds: float) -> FaultRow:
    """Shard 0's process stopped (SIGSTOP) for `seconds`, then continued (SIGCONT)."""
    row = FaultRow("shards: one of two processes stopped (SIGSTOP)")
    row.expected_errors = (LATE_ANSWER,)  # the fake, of each click the stuck process answered late
    names = tuple(f"{n}0" for n in NAMES)
    with tempfile.TemporaryDirectory(prefix="cardtable-stuck-") as folder:
        async with (
            own_server() as (_, url),
            running_local_discord(user_names=names, shard_count=2) as fake,
        ):
            first = fake.guilds[fake.guild_id]
            other = fake.add_guild(
                "Other Club", tuple(f"{n}1" for n in NAMES), shard=1 - fake.shard_of(first.id)
            )
            guilds = sorted((first, other), key=lambda g: fake.shard_of(g.id))
            processes = [BotProcess(fake, url, Path(folder), shard) for shard in (0, 1)]
            crowd = Crowd(fake)
            try:
                for process in processes:
                    process.start()
                await crowd.until(
                    lambda: crowd.up(0) and crowd.up(1), "both shards", timeout=START_WAIT
                )
                await crowd.until(
                    lambda: len(fake.emojis.by_id) >= EMOJIS, "card pictures", timeout=START_WAIT
                )
                tables = [
                    await open_table(fake, "dutch", guild.channel_id, guild.users[:3], 1000)
                    for guild in guilds
                ]
                for table_id in tables:
                    await crowd.until(
                        lambda t=table_id: _hand(fake, t) is not None, "the round begun"
                    )
                people = [
                    Person(crowd, user, table_id, shard, long_round, host=user is guild.users[0])
                    for shard, (guild, table_id) in enumerate(zip(guilds, tables, strict=True))
                    for user in guild.users[:3]
                ]
                playing = [asyncio.create_task(p.play()) for p in people if p.shard != STUCK]
                stuck_table, stuck_user = tables[STUCK], guilds[STUCK].users[0]
                healthy = crowd.answered.get(1 - STUCK, 0)
                stopped = processes[STUCK].child
                assert stopped is not None
                started = time.monotonic()
                os.kill(stopped.pid, signal.SIGSTOP)
                clicked: list[LocalInteraction] = []
                try:
                    while time.monotonic() - started < seconds:
                        clicked.append(await _my_cards(fake, stuck_table, stuck_user))
                        await asyncio.sleep(0.5)  # a person trying again
                finally:
                    os.kill(stopped.pid, signal.SIGCONT)
                ended = time.monotonic()
                row.seconds = round(ended - started, 1)
                healthy = crowd.answered.get(1 - STUCK, 0) - healthy
                while time.monotonic() - ended < 3 * RECOVERY_TARGET:
                    again = await _my_cards(fake, stuck_table, stuck_user)
                    if await answered_within(again, ANSWER_SECONDS):
                        row.recovery = round(time.monotonic() - ended, 2)
                        break
                row.clicks = len(clicked)
                row.answered = sum(1 for i in clicked if _in_time(i))
                row.notes.append(
                    f"shard {1 - STUCK} answered {healthy} clicks meanwhile; the stuck shard's "
                    f"clicks were answered {_late(clicked)} times after Discord's 3 s, in vain, "
                    "once it went on"
                )
                for task in playing:
                    task.cancel()
                await asyncio.gather(*playing, return_exceptions=True)
                stored = await stored_moves(url)
                acked: dict[int, Counter[tuple[int, int, str]]] = {}
                for ack in crowd.acks:
                    move = (ack.round_no, ack.user_id, ack.notation)
                    acked.setdefault(ack.table_id, Counter())[move] += 1
                row.lost = sum(
                    sum((moves - stored.get(table_id, Counter())).values())
                    for table_id, moves in acked.items()
                )
                row.notes.append(f"{len(crowd.acks)} moves acknowledged at shard {1 - STUCK}")
                row.notes.append("hidden cards not read: the bots run in other processes")
                errors = [e for p in processes for e in p.errors()]
                if errors:
                    row.broken.append(f"{len(errors)} error lines: {errors[:2]}")
            finally:
                for process in processes:
                    with contextlib.suppress(ProcessLookupError, AssertionError):
                        if process.child is not None:
                            os.kill(process.child.pid, signal.SIGCONT)
                    process.stop()
    return row


async def _my_cards(fake: LocalDiscord, table_id: int, user: LocalUser) -> LocalInteraction:
    """`user` clicks "My cards" on the table message."""
    hand = _hand(fake, table_id)
    assert hand is not None
    return await fake.click(user, hand.message_id, hand.custom_id)


def _hand(fake: LocalDiscord, table_id: int) -> Choice | None:
    """The "My cards" button of the table message (None: not in play)."""
    message = table_message(fake, table_id)
    return verb_choice(message, "hand") if message is not None else None


def _in_time(interaction: LocalInteraction) -> bool:
    """Its first answer reached Discord within the 3 s Discord waits."""
    first = interaction.requests[0] if interaction.requests else None
    return first is not None and first.ok and first.at - interaction.created_at <= ANSWER_SECONDS


def _late(clicked: list[LocalInteraction]) -> int:
    return sum(1 for i in clicked if i.requests and not _in_time(i))
