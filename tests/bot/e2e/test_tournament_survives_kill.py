"""A tournament of each format (Swiss, round robin, single elimination) played to its end by
people clicking through the local Discord, while its real bot process (`python -m bot` on an
SQLite file) is killed with SIGKILL at several moments: during sign-up, during check-in, mid
round with its tables in play (right after a click reached it), and between rounds (as soon as
a round's standings are posted, while the next round is being opened). Each time it is started
again on the same file; the event resumes where it was and ends with its podium, its stored
rounds and results matching the matches played: no round opened twice, no table opened twice,
no result lost or counted twice, and the standings posted are the ones the results give.

The process runs on the wall clock, so a sign-up's close and an event's start (minutes away)
are reached by moving the stored deadlines into the past while the process is down: what a
restart after a long stop meets."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.local.records import LocalUser, RecordedRequest
from bot.local.server import LocalDiscord, running_local_discord
from bot.render.tournaments import standings
from bot.ui.emojis import EMOJIS
from games.tournament.event import ELIMINATION, FINISHED, ROUND_ROBIN, SWISS
from storage.codec import loads
from storage.store import Store
from tests.bot.e2e.bot_processes import BotProcess
from tests.bot.e2e.people import (
    START_WAIT,
    WAIT,
    Crowd,
    Person,
    answered,
    table_of,
)
from tests.bot.e2e.players import answer_text, choices

NAMES = ("ann", "ben", "cat", "dan")
SHARD = 0
MOVES_BEFORE_KILL = 2  # at each table of the round killed mid-way


def dutch_preference(person: Person) -> Sequence[str]:
    """Draw and discard for a few turns (a round long enough to be killed in), then call."""
    if person.moves_this_round < 4:
        return ("peek", "draw", "discard", "skip", "end")
    return ("peek", "dutch", "draw", "discard", "skip", "end")


@pytest.fixture
async def four_people() -> AsyncIterator[LocalDiscord]:
    async with running_local_discord(user_names=NAMES) as fake:
        yield fake
        assert not fake.unknown_routes, f"routes the fake lacks: {fake.unknown_routes}"


@dataclass
class Event:
    """One event run by a real bot process, and the people who play it."""

    fake: LocalDiscord
    process: BotProcess
    database: Path
    crowd: Crowd
    tournament_id: int = 0
    message_id: int = 0
    kills: int = 0
    by_id: dict[int, LocalUser] = field(default_factory=dict)

    # -- the process ----------------------------------------------------------------------
    async def start(self) -> None:
        self.process.start()
        await self.crowd.until(lambda: self.crowd.up(SHARD), "the bot up", timeout=START_WAIT)
        if self.process.runs == 1:
            await self.crowd.until(lambda: None in self.fake.commands, "the commands synced")
            await self.crowd.until(
                lambda: len(self.fake.emojis.by_id) >= EMOJIS,
                "the card pictures uploaded",
                timeout=START_WAIT,
            )

    async def kill(self) -> None:
        """SIGKILL now (if a click has not done it already), and wait for it to be gone."""
        if self.process.child is not None and self.process.child.poll() is None:
            self.process.kill()
        await self.crowd.until(lambda: not self.crowd.up(SHARD), "the bot gone")
        assert self.process.reap() < 0, "killed by the signal"
        self.kills += 1

    def move_deadlines(self, **columns: float) -> None:
        """While the process is down: the stored sign-up close or start now this far behind
        (time passed while the bot was stopped)."""
        with closing(sqlite3.connect(self.database)) as db, db:
            for column, before in columns.items():
                assert column in ("signup_closes_at", "starts_at")
                db.execute(
                    f"UPDATE tournaments SET {column} = {column} - ? WHERE id = ?",
                    (before, self.tournament_id),
                )

    # -- Discord ----------------------------------------------------------------------------
    def said(self, words: str) -> list[str]:
        """Every public message of the event's channel with these words (content or embed)."""
        found = []
        for message in self.fake.channel_messages():
            shown = str(message.get("content") or "")
            for embed in message.get("embeds") or []:
                shown += f"\n{embed.get('title', '')}\n{embed.get('description', '')}"
            if words in shown:
                found.append(shown)
        return found

    async def create(self, **options: Any) -> None:
        created = await self.fake.slash(self.fake.admin, "tournament create", **options)
        await self.crowd.until(lambda: answered(created), "the tournament created")
        buttons = [
            c for m in self.fake.channel_messages() for c in choices(m) if c.custom_id[:3] == "tn:"
        ]
        assert buttons, answer_text(self.fake, created)
        self.message_id = buttons[-1].message_id
        self.tournament_id = int(buttons[-1].custom_id.split(":")[1])
        self.by_id = {u.id: u for u in self.fake.users.values()}

    async def press(self, user: LocalUser, action: str) -> str:
        """A click on the event's message: its one sentence."""
        custom_id = f"tn:{self.tournament_id}:{action}"
        clicked = await self.fake.click(user, self.message_id, custom_id)
        await self.crowd.until(lambda: answered(clicked), f"{user.name}'s {action}")
        return answer_text(self.fake, clicked)

    def players_shown(self) -> str:
        embed = self.fake.message(self.message_id)["embeds"][0]
        return str(embed["fields"][0]["name"])

    def opened_tables(self, round_no: int) -> list[tuple[int, int, list[LocalUser]]]:
        """(thread, table id, players mentioned in seat order) of each table of the round."""
        line = re.compile(rf"round {round_no}, table \d+: your match is here")
        found = []
        for message in list(self.fake.messages.values()):
            content = str(message.get("content") or "")
            if not line.search(content):
                continue
            thread = int(message["channel_id"])
            ids = [int(i) for i in re.findall(r"<@(\d+)>", content)]
            tables = {
                located[0]
                for m in self.fake.channel_messages(thread)
                for c in choices(m)
                if (located := table_of(c)) is not None
            }
            assert len(tables) == 1, f"one table in thread {thread}: {tables}"
            found.append((thread, tables.pop(), [self.by_id[i] for i in ids]))
        return found

    async def round_opened(self, round_no: int, tables: int) -> list[Person]:
        """Wait for the round's tables to be opened and their players mentioned; a person
        for each player (the first mentioned is the host)."""
        await self.crowd.until(
            lambda: len(self.opened_tables(round_no)) >= tables,
            f"round {round_no}'s {tables} tables opened",
            timeout=START_WAIT,
        )
        opened = self.opened_tables(round_no)
        assert len(opened) == tables, f"round {round_no} opened {len(opened)} tables"
        return [
            Person(self.crowd, user, table_id, SHARD, dutch_preference, host=k == 0)
            for _, table_id, users in opened
            for k, user in enumerate(users)
        ]

    async def play(
        self,
        people: list[Person],
        *,
        kill_mid_round: bool = False,
        kill_at: tuple[str, Callable[[RecordedRequest], bool]] | None = None,
    ) -> None:
        """Everyone plays their table's match to its end. `kill_mid_round`: the process is
        killed right after a click once each table has seen a few moves, then restarted.
        `kill_at`: it is killed the moment it makes this request of Discord (it never gets
        the answer), then restarted (armed before the first move: the round's end follows
        its last click at once)."""
        if kill_at is not None:
            self._arm(kill_at[1])
        playing = asyncio.gather(*(p.play() for p in people))
        try:
            if kill_mid_round:
                tables = {p.table_id for p in people}

                def moves_at(table_id: int) -> int:
                    return sum(1 for a in self.crowd.acks if a.table_id == table_id)

                await self.crowd.until(
                    lambda: all(moves_at(t) >= MOVES_BEFORE_KILL for t in tables),
                    "a few moves at each table",
                )
                self.crowd.kill_after_click[SHARD] = self.process.kill
                await self._restart_once_killed("a click killing the bot")
            if kill_at is not None:
                await self._restart_once_killed(kill_at[0])
                # every match of the round was over and stored: its standings were posted
                self.crowd.over |= {p.table_id for p in people}
            await asyncio.wait_for(asyncio.shield(playing), 3 * WAIT)
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)

    def _arm(self, request: Callable[[RecordedRequest], bool]) -> None:
        def listener(record: RecordedRequest) -> None:
            if request(record):
                self.fake.listeners.remove(listener)
                self.process.kill()

        self.fake.listeners.append(listener)

    async def _restart_once_killed(self, what: str) -> None:
        child = self.process.child
        assert child is not None
        try:  # the local Discord goes on answering it meanwhile
            code = await asyncio.to_thread(child.wait, START_WAIT)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the bot was not killed at {what}") from None
        assert code < 0, "killed by the signal"
        await self.crowd.until(lambda: not self.crowd.up(SHARD), "the bot's connection closed")
        self.kills += 1
        self.crowd.made_before_restart |= set(self.fake.messages)
        await self.start()

    # -- moments to kill at, as requests the process makes of Discord -------------------
    def checkin_opening(self) -> Callable[[RecordedRequest], bool]:
        """As check-in opens: the event's message shows its Check in button."""
        return lambda r: r.method == "PATCH" and r.message_id == self.message_id

    def standings_posted(self, round_no: int) -> tuple[str, Callable[[RecordedRequest], bool]]:
        """As the round's standings are posted."""
        words = f"standings after round {round_no}"

        def posting(record: RecordedRequest) -> bool:
            return record.route == "POST /channels/{channel_id}/messages" and words in str(
                record.payload
            )

        return words, posting

    def next_round_paired(self, round_no: int) -> tuple[str, Callable[[RecordedRequest], bool]]:
        """Once the next round is paired and stored, as the event's message is brought up to
        date, before the round is announced."""
        done = f"standings after round {round_no}"

        def editing(record: RecordedRequest) -> bool:
            return (
                record.method == "PATCH"
                and record.message_id == self.message_id
                and bool(self.said(done))
            )

        return f"round {round_no + 1} paired", editing

    def first_thread(self, round_no: int) -> tuple[str, Callable[[RecordedRequest], bool]]:
        """As the first table thread of the next round is made."""
        starts = f"round {round_no + 1} starts"

        def making(record: RecordedRequest) -> bool:
            return record.route.endswith("/threads") and bool(self.said(starts))

        return f"round {round_no + 1}'s first thread", making

    async def podium(self) -> None:
        await self.crowd.until(lambda: bool(self.said("is over! 🥇")), "the podium")
        await self.fake.settle()


async def running(fake: LocalDiscord, tmp_path: Path) -> Event:
    database = tmp_path / "cardtable.sqlite3"
    event = Event(fake, BotProcess(fake, database, tmp_path, SHARD), database, Crowd(fake))
    await event.start()
    return event


async def sign_up_everyone(event: Event, users: list[LocalUser], **options: Any) -> None:
    """Create the event (sign-up closes in a minute, it starts in two); everyone signs up."""
    await event.create(game="dutch", start_in=2, checkin=1, target=1, **options)
    for user in users:
        assert "signed up" in await event.press(user, "signup")


async def check_in_and_start(event: Event, users: list[LocalUser]) -> None:
    """The sign-up's close passes while the bot is down; check-in opens at the restart;
    everyone checks in; the start passes while the bot is down again."""
    await event.kill()
    event.move_deadlines(signup_closes_at=60.0)
    await event.start()
    await event.crowd.until(lambda: bool(event.said("check-in is open")), "check-in open")
    for user in users:
        assert "checked in" in await event.press(user, "checkin")
    await event.kill()
    event.move_deadlines(signup_closes_at=60.0, starts_at=120.0)
    await event.start()


async def checked_store(event: Event, rounds: int, tables: Sequence[int]) -> None:
    """The process stopped: the event is over, each of its rounds stored once with its tables,
    each table opened once (one bot table per thread, none shared), each result the one its
    match gives, and the last standings posted are the ones these results give."""
    event.process.stop()
    with closing(sqlite3.connect(event.database)) as db:
        db.row_factory = sqlite3.Row
        (status,) = db.execute(
            "SELECT status FROM tournaments WHERE id = ?", (event.tournament_id,)
        ).fetchone()
        assert status == FINISHED
        numbers = [
            r[0]
            for r in db.execute(
                "SELECT round_no FROM tournament_rounds WHERE tournament_id = ? ORDER BY 1",
                (event.tournament_id,),
            )
        ]
        assert numbers == list(range(1, rounds + 1))
        rows = db.execute(
            "SELECT round_no, sides, place, table_id, winning_sides FROM tournament_tables "
            "WHERE tournament_id = ? ORDER BY round_no, table_no",
            (event.tournament_id,),
        ).fetchall()
        per_round = [sum(1 for r in rows if r["round_no"] == n) for n in numbers]
        assert per_round == list(tables)
        table_ids = [r["table_id"] for r in rows]
        assert None not in table_ids and len(set(table_ids)) == len(table_ids)
        opened = db.execute("SELECT id, channel_id FROM tables ORDER BY id").fetchall()
        assert sorted(t["id"] for t in opened) == sorted(table_ids), "no table opened twice"
        assert sorted(t["channel_id"] for t in opened) == sorted(r["place"] for r in rows)
        (units_json,) = db.execute(
            "SELECT units FROM tournaments WHERE id = ?", (event.tournament_id,)
        ).fetchone()
        units = [set(u) for u in loads(units_json)]
        for row in rows:
            sides = [[u for unit in side for u in units[unit]] for side in loads(row["sides"])]
            seats = {
                s["seat"]: s["user_id"]
                for s in db.execute("SELECT seat, user_id FROM seats WHERE table_id = ?", (row[3],))
            }
            (winners_json,) = db.execute(
                "SELECT winners FROM matches WHERE table_id = ? AND finished_at IS NOT NULL "
                "ORDER BY match_no LIMIT 1",
                (row["table_id"],),
            ).fetchone()
            side_of = {
                seat: k
                for seat, user in seats.items()
                for k, side in enumerate(sides)
                if user in side
            }
            for seat in seats.keys() - side_of.keys():  # a bot for a no-show: the side left
                (side_of[seat],) = set(range(len(sides))) - set(side_of.values())
            expected = sorted({side_of[seat] for seat in loads(winners_json)})
            assert loads(row["winning_sides"]) == expected, "the result its match gives"
    store = await Store.open(event.database, integrity_check_delay=None)
    try:
        stored = await store.tournaments.load(event.tournament_id)
    finally:
        await store.close()
    last = standings("en", stored, rounds)
    posted = [
        embed
        for m in event.fake.channel_messages()
        for embed in m.get("embeds") or []
        if embed.get("title") == last.title
    ]
    assert posted and {e["description"] for e in posted} == {last.description}
    assert [[f["value"] for f in e.get("fields", [])] for e in posted][-1] == [
        v for _, v in last.fields
    ]
    assert len(event.said("is over! 🥇")) == 1
    for number in range(1, rounds + 1):
        assert event.said(f"round {number} starts"), f"round {number} was announced"
    assert not event.process.errors(), "\n".join(event.process.errors())


# Each test starts the bot process six or seven times (a start is seconds, more on a busy
# machine) and plays a few Dutch matches through the clicks.
@pytest.mark.timeout(420)
async def test_a_swiss_event_survives_kills_at_sign_up_check_in_mid_round_and_between_rounds(
    four_people: LocalDiscord, tmp_path: Path
) -> None:
    fake = four_people
    ann, ben, cat, dan = (fake.user(n) for n in NAMES)
    event = await running(fake, tmp_path)
    try:
        await event.create(game="dutch", format=SWISS, rounds=2, start_in=2, checkin=1, target=1)
        for user in (ann, ben):
            assert "signed up" in await event.press(user, "signup")
        await event.kill()  # during sign-up
        await event.start()
        assert "already signed up" in await event.press(ben, "signup")
        for user in (cat, dan):
            assert "signed up" in await event.press(user, "signup")
        await event.crowd.until(
            lambda: "Players (4/256)" in event.players_shown(), "the message showing four"
        )

        await event.kill()
        event.move_deadlines(signup_closes_at=60.0)
        event._arm(event.checkin_opening())  # killed as check-in opens, before it is said
        event.process.start()
        await event._restart_once_killed("check-in opening")
        await event.crowd.until(lambda: bool(event.said("check-in is open")), "check-in open")
        for user in (ann, ben):
            assert "checked in" in await event.press(user, "checkin")
        await event.kill()  # during check-in
        await event.start()
        assert "already checked in" in await event.press(ann, "checkin")
        assert "checked in" in await event.press(cat, "checkin")  # dan does not: a bot plays
        await event.kill()
        event.move_deadlines(signup_closes_at=60.0, starts_at=120.0)
        await event.start()

        first = await event.round_opened(1, 2)
        assert dan not in [p.user for p in first]
        await event.play(first, kill_mid_round=True, kill_at=event.standings_posted(1))
        await event.play(await event.round_opened(2, 2))
        await event.podium()
        await checked_store(event, 2, [2, 2])
        assert len(event.said("check-in is open")) == 1
    except BaseException:
        print(event.process.tail(80))
        raise
    finally:
        event.process.stop()


@pytest.mark.timeout(420)
async def test_a_round_robin_survives_kills_mid_round_and_between_rounds(
    four_people: LocalDiscord, tmp_path: Path
) -> None:
    fake = four_people
    users = [fake.user(n) for n in NAMES]
    event = await running(fake, tmp_path)
    try:
        await sign_up_everyone(event, users, format=ROUND_ROBIN)
        await check_in_and_start(event, users)
        await event.play(await event.round_opened(1, 2), kill_at=event.next_round_paired(1))
        second = await event.round_opened(2, 2)
        await event.play(second, kill_mid_round=True, kill_at=event.first_thread(2))
        await event.play(await event.round_opened(3, 2))
        await event.podium()
        await checked_store(event, 3, [2, 2, 2])
        with closing(sqlite3.connect(event.database)) as db:
            met = [
                frozenset(u for side in loads(s) for u in side)
                for (s,) in db.execute("SELECT sides FROM tournament_tables")
            ]
        assert len(met) == len(set(met)) == 6, "everyone met everyone once"
    except BaseException:
        print(event.process.tail(80))
        raise
    finally:
        event.process.stop()


@pytest.mark.timeout(420)
async def test_a_single_elimination_survives_kills_mid_round_and_before_its_final(
    four_people: LocalDiscord, tmp_path: Path
) -> None:
    fake = four_people
    users = [fake.user(n) for n in NAMES]
    event = await running(fake, tmp_path)
    try:
        await sign_up_everyone(event, users, format=ELIMINATION)
        await check_in_and_start(event, users)
        semis = await event.round_opened(1, 2)
        await event.play(semis, kill_mid_round=True, kill_at=event.first_thread(1))
        await event.play(await event.round_opened(2, 1))
        await event.podium()
        await checked_store(event, 2, [2, 1])
        with closing(sqlite3.connect(event.database)) as db:
            semis = [
                (loads(s), loads(w))
                for s, w in db.execute(
                    "SELECT sides, winning_sides FROM tournament_tables WHERE round_no = 1"
                )
            ]
            ((final_sides,),) = db.execute(
                "SELECT sides FROM tournament_tables WHERE round_no = 2"
            ).fetchall()
        finalists = {unit for side in loads(final_sides) for unit in side}
        for sides, winning in semis:  # one unit of each semi-final; its winner if it had one
            assert len(finalists & {unit for side in sides for unit in side}) == 1
            if len(winning) == 1:
                assert set(sides[winning[0]]) <= finalists
    except BaseException:
        print(event.process.tail(80))
        raise
    finally:
        event.process.stop()
