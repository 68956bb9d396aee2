"""Two real bot processes (`python -m bot`, one shard each of two) on one PostgreSQL database,
against the local Discord's sharded gateway. People in a guild on each shard play Dutch and
partnership Euchre at once; the process of shard 0 is killed (SIGKILL) mid-round, right after a
click reached it, and restarted with the same shard. Every move a player was shown done is in
the database, the other process answers throughout, buttons of the killed process work for the
new one, every table finishes its match, and /leaderboard in each guild tells its results."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.local.records import LocalGuild, LocalInteraction, LocalUser
from bot.local.server import LocalDiscord, running_local_discord
from bot.ui.emojis import EMOJIS
from storage.compaction import decode_log
from tests.bot.e2e.bot_processes import BotProcess
from tests.bot.e2e.people import START_WAIT, WAIT, Crowd, Person, answered, table_message, table_of
from tests.bot.e2e.players import (
    answer_message,
    answer_text,
    choices,
    text_displays,
    use,
    verb_choice,
)
from tests.postgres_server import PostgresServer

KILLED = 0  # the shard whose process is killed
MOVES_BEFORE_KILL = 3  # at each of its tables, in the first round
MOVES_DURING_OUTAGE = 3  # answered by the other process while the killed one is down
DUTCH_NAMES = ("ann", "ben", "cat")
EUCHRE_NAMES = ("dan", "eve", "fay", "gus")  # seats 0 and 2, 1 and 3 are partners


def dutch_preference(person: Person) -> Sequence[str]:
    """Draw and discard for a few turns (a round long enough to be killed in), then call."""
    if person.moves_this_round < 4:
        return ("peek", "draw", "discard", "skip", "end")
    return ("peek", "dutch", "draw", "discard", "skip", "end")


def euchre_preference(person: Person) -> Sequence[str]:
    return ("order", "discard", "play")


@pytest.fixture
async def two_shards() -> AsyncIterator[tuple[LocalDiscord, list[LocalGuild]]]:
    names = tuple(f"{n}0" for n in DUTCH_NAMES + EUCHRE_NAMES)
    async with running_local_discord(user_names=names, shard_count=2) as fake:
        first = fake.guilds[fake.guild_id]
        other = fake.add_guild(
            "Other Club",
            tuple(f"{n}1" for n in DUTCH_NAMES + EUCHRE_NAMES),
            shard=1 - fake.shard_of(first.id),
        )
        by_shard = sorted((first, other), key=lambda g: fake.shard_of(g.id))
        yield fake, by_shard
        assert not fake.unknown_routes, f"routes the fake lacks: {fake.unknown_routes}"


async def open_table(
    fake: LocalDiscord, game: str, channel_id: int, people: list[LocalUser], target: int
) -> int:
    """The host's `/<game> start`, the others' Join, the host's Start: the table's id."""
    host, *guests = people
    started = await fake.slash(host, f"{game} start", channel_id=channel_id, target=target)
    await started.wait_answered(WAIT)
    message = answer_message(fake, started)
    assert message is not None, answer_text(fake, started)
    found = next(table_of(c) for c in choices(message) if table_of(c) is not None)
    assert found is not None
    table_id = found[0]
    for user in guests:
        current = table_message(fake, table_id)
        assert current is not None
        join = verb_choice(current, "join")
        assert join is not None
        await use(fake, user, join)
    current = table_message(fake, table_id)
    assert current is not None
    start = verb_choice(current, "start")
    assert start is not None
    await use(fake, host, start)
    return table_id


async def stored_moves(url: str) -> dict[int, Counter[tuple[int, int, str]]]:
    """Every stored action, by table: (round number, user id, notation) counted."""
    conn = await asyncpg.connect(url)
    try:
        seats = {
            (row["table_id"], row["seat"]): row["user_id"]
            for row in await conn.fetch("SELECT table_id, seat, user_id FROM seats")
        }
        moves: dict[int, Counter[tuple[int, int, str]]] = {}
        rows = await conn.fetch(
            "SELECT table_id, round_no, seat, notation FROM actions "
            "JOIN rounds ON rounds.id = actions.round_id"
        )
        logged = [
            (row["table_id"], row["round_no"], seat, notation)
            for row in await conn.fetch(
                "SELECT table_id, round_no, started_at, log FROM rounds WHERE log IS NOT NULL"
            )
            for _, seat, notation, _ in decode_log(row["started_at"], row["log"])
        ]
        for table_id, round_no, seat, notation in [tuple(r) for r in rows] + logged:
            user_id = seats[(table_id, seat)]
            moves.setdefault(table_id, Counter())[(round_no, user_id, notation)] += 1
        return moves
    finally:
        await conn.close()


async def answered_text(crowd: Crowd, interaction: LocalInteraction) -> str:
    """The words of a deferred answer, once its follow-up came."""
    await crowd.until(lambda: answered(interaction), f"an answer to {interaction.describe()}")
    return answer_text(crowd.fake, interaction)


def winners_shown(message: dict[str, Any]) -> set[str]:
    """The names in bold in the finished table message's winner line."""
    heading = text_displays(message)[0]  # `### title`, then the description
    description = heading.split("\n", 1)[1]
    return set(re.findall(r"\*\*([^*]+)\*\*", description.splitlines()[0]))


# Three bot processes start (two at first, one after the kill) and four tables play a match:
# on a machine whose cores are busy that took more than the suite's two minutes per test.
@pytest.mark.timeout(360)
async def test_two_shard_processes_share_postgresql_and_a_killed_one_loses_nothing(
    postgres_server: PostgresServer,
    two_shards: tuple[LocalDiscord, list[LocalGuild]],
    tmp_path: Path,
) -> None:
    fake, guilds = two_shards
    url = await postgres_server.create_database()
    processes = [BotProcess(fake, url, tmp_path, shard) for shard in (0, 1)]
    crowd = Crowd(fake)
    try:
        for process in processes:
            process.start()
        await crowd.until(
            lambda: crowd.up(0) and crowd.up(1), "both shards connected", timeout=START_WAIT
        )
        await crowd.until(lambda: None in fake.commands, "the commands synced")
        # Both processes draw and upload the card pictures as they start: the tables open once
        # that is done, so no click is answered by a process busy drawing 80 pictures.
        await crowd.until(
            lambda: len(fake.emojis.by_id) >= EMOJIS,
            "the card pictures uploaded",
            timeout=START_WAIT,
        )

        tables: dict[int, list[int]] = {}  # shard -> its tables
        people: list[Person] = []
        seated: dict[int, list[LocalUser]] = {}
        for shard, guild in enumerate(guilds):
            dutch, euchre = guild.users[:3], guild.users[3:7]
            dutch_id = await open_table(fake, "dutch", guild.channel_id, dutch, 10)
            euchre_id = await open_table(fake, "euchre", guild.other_channel_id, euchre, 1)
            tables[shard] = [dutch_id, euchre_id]
            seated[dutch_id], seated[euchre_id] = dutch, euchre
            for table_id, users, preference in (
                (dutch_id, dutch, dutch_preference),
                (euchre_id, euchre, euchre_preference),
            ):
                people += [
                    Person(crowd, user, table_id, shard, preference, host=user is users[0])
                    for user in users
                ]

        playing = asyncio.gather(*(person.play() for person in people))
        try:
            await kill_and_restart(crowd, processes[KILLED], tables)
            await asyncio.wait_for(asyncio.shield(playing), 3 * WAIT)
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)

        # Every move a player was shown done is stored, on both shards, before and after.
        stored = await stored_moves(url)
        acked: dict[int, Counter[tuple[int, int, str]]] = {}
        for ack in crowd.acks:
            move = (ack.round_no, ack.user_id, ack.notation)
            acked.setdefault(ack.table_id, Counter())[move] += 1
        for table_id, moves in acked.items():
            missing = moves - stored.get(table_id, Counter())
            assert not missing, f"table {table_id}: acknowledged moves not stored: {missing}"
        assert {a.run for a in crowd.acks if a.shard == KILLED} == {1, 2}
        used_old = {table_id for table_id, _, _ in crowd.old_buttons_answered}
        assert used_old == set(tables[KILLED]), "buttons of the killed process were not answered"

        # Every table finished its match; each guild's board (read from the shared database
        # by the process of its shard) lists its players, the winners with one win.
        conn = await asyncpg.connect(url)
        try:
            statuses = {r["id"]: r["status"] for r in await conn.fetch("SELECT * FROM tables")}
        finally:
            await conn.close()
        assert set(statuses.values()) == {"finished"} and len(statuses) == 4
        for shard, guild in enumerate(guilds):
            expected: dict[str, int] = {}
            for table_id in tables[shard]:
                final = table_message(fake, table_id)
                assert final is not None
                winners = winners_shown(final)
                assert winners
                for user in seated[table_id]:
                    name = user.name.title()
                    expected[name] = int(name in winners)
            board = await fake.slash(
                guild.users[0], "leaderboard", channel_id=guild.channel_id, order="wins"
            )
            shown = await answered_text(crowd, board)
            rows = re.findall(r"\*\*\d+\.\*\* (\w+) — .*? (\d+) wins? in (\d+) match", shown)
            assert {name: (int(w), int(m)) for name, w, m in rows} == {
                name: (wins, 1) for name, wins in expected.items()
            }, shown
    except BaseException:
        for process in processes:  # what each process did, shown with the failure
            print(process.tail(80))
        raise
    finally:
        for process in processes:
            process.stop()
    for process in processes:
        assert not process.errors(), "\n".join(process.errors())
        # Both processes started at once, each uploading the card pictures: both show them.
        assert process.said("card pictures ready"), process.log.read_text()


async def kill_and_restart(crowd: Crowd, process: BotProcess, tables: dict[int, list[int]]) -> None:
    """Kill the shard's process right after a click reaches it, mid-round at each of its
    tables; restart it once the other process has answered moves meanwhile."""
    shard = process.shard

    def moves_at(table_id: int) -> int:
        return sum(1 for a in crowd.acks if a.table_id == table_id and a.round_no == 0)

    await crowd.until(
        lambda: all(moves_at(t) >= MOVES_BEFORE_KILL for t in tables[shard]),
        f"{MOVES_BEFORE_KILL} moves at each table of shard {shard}",
    )
    crowd.kill_after_click[shard] = process.kill
    await crowd.until(lambda: not crowd.up(shard), f"shard {shard}'s process gone")
    assert process.reap() < 0  # killed by the signal
    other = 1 - shard
    answered = crowd.answered.get(other, 0)
    await crowd.until(
        lambda: crowd.answered.get(other, 0) >= answered + MOVES_DURING_OUTAGE,
        f"shard {other} answering while shard {shard} is down",
    )
    crowd.made_before_restart |= set(crowd.fake.messages)
    process.start()
    await crowd.until(lambda: crowd.up(shard), f"shard {shard}'s process back", timeout=START_WAIT)
