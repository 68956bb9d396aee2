"""The faults injected into the bot under test (the real bot, its store, the local Discord),
each a function of the harness and the fault's duration returning its row. The tests run
them for a few seconds; `python -m tests.bot.e2e.faults` for a minute each."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from bot.clock import SystemClock
from tests.bot.e2e.faults.postgres import POSTGRES_SCENARIOS
from tests.bot.e2e.faults.run import ANSWER_SECONDS, FaultRow, FaultRun, answered_within
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import verb_choice

RECONNECT_WAIT = 300.0  # seconds: a bound on discord.py's reconnection, never a synchronisation
EARLY = 0.9  # a timer fired before 90% of its delay fired early (a loaded machine is late)
TIMER_WAIT = 30.0  # seconds: a bound on a turn timer of 5 s, never a synchronisation
FULL_WAIT = 60.0  # seconds: a bound on filling the file's last pages, never a synchronisation


async def sqlite_full(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The SQLite file cannot grow (`max_page_count`, as a full disk): once its last page is
    used every move is refused in one sentence; given room again, play goes on."""
    row = FaultRow("SQLite: database full")
    run = FaultRun(harness, row)
    async with harness.running() as bot:
        await run.seat()
        connection = bot.store._db.conn
        pages = await (await connection.execute("PRAGMA page_count")).fetchone()
        assert pages is not None
        await connection.execute(f"PRAGMA max_page_count = {int(pages[0])}")
        async with run.fault(row.fault):
            # the file fills its last free pages: the fault holds from the first refusal
            deadline = time.monotonic() + FULL_WAIT
            while row.refused == 0 and time.monotonic() < deadline:
                row.clicks = row.answered = 0
                await run.click()
            row.clicks = row.answered = row.refused = 0
            await run.click_for(seconds)
            await connection.execute("PRAGMA max_page_count = 1073741823")
        await run.recover()
        await run.handled()
        run.count_leaks()
    await run.count_lost()
    return row


async def sqlite_read_only(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The SQLite file turns read-only (a disk remounted read-only; `query_only` on the
    bot's connection): every move is refused in one sentence; writable again, play goes on."""
    row = FaultRow("SQLite: file read-only")
    run = FaultRun(harness, row)
    async with harness.running() as bot:
        await run.seat()
        connection = bot.store._db.conn
        async with run.fault(row.fault):
            await connection.execute("PRAGMA query_only = 1")
            await run.click_for(seconds)
            await connection.execute("PRAGMA query_only = 0")
        await run.recover()
        await run.handled()
        run.count_leaks()
    await run.count_lost()
    return row


RECONNECTING = "Attempting a reconnect in"  # discord.py, at each failed reconnection
LATE_ANSWER = "LOCAL DISCORD: interaction answered after"  # the fake, of an answer it refused
TABLE_EDITS = "PATCH /channels/{channel_id}/messages/{message_id}"


async def _rest_storm(
    harness: BotUnderTest,
    seconds: float,
    name: str,
    status: int,
    *,
    route: str | None = None,
    is_global: bool = False,
) -> FaultRow:
    """People click while Discord answers `status` to `route` (None: every route)."""
    row = FaultRow(name)
    run = FaultRun(harness, row)
    fake = harness.fake
    async with harness.running():
        await run.seat()
        async with run.fault(row.fault):
            storm = fake.rest.faults.storm(
                status, seconds, route=route, retry_after=1.0, is_global=is_global
            )
            await run.click_for(seconds)
            fake.rest.faults.calm()
        await run.recover()
        await run.handled()
        run.count_leaks()
        row.requests_refused = storm.refused
        row.notes.append(f"{storm.refused} requests refused, {storm.refused / seconds:.1f}/s")
    await run.count_lost()
    return row


async def rest_5xx_table_messages(harness: BotUnderTest, seconds: float) -> FaultRow:
    """Discord answers 502 to every edit of a channel message (the table message)."""
    return await _rest_storm(harness, seconds, "REST: 502 on message edits", 502, route=TABLE_EDITS)


async def rest_5xx_everything(harness: BotUnderTest, seconds: float) -> FaultRow:
    """Discord answers 502 to every request, an interaction's answer included: the clicks
    made meanwhile cannot be answered (Discord shows "This interaction failed")."""
    row = await _rest_storm(harness, seconds, "REST: 502 on every route", 502)
    row.answers_refused_by_discord = True
    row.expected_errors = (LATE_ANSWER,)
    return row


async def rest_429_route(harness: BotUnderTest, seconds: float) -> FaultRow:
    """Discord rate limits the route of message edits (429, retry after 1 s)."""
    return await _rest_storm(harness, seconds, "REST: 429 on message edits", 429, route=TABLE_EDITS)


async def rest_429_global(harness: BotUnderTest, seconds: float) -> FaultRow:
    """Discord's global rate limit (429, global): every route but an interaction's own."""
    return await _rest_storm(harness, seconds, "REST: 429 global", 429, is_global=True)


async def _gateway_drop(
    harness: BotUnderTest, seconds: float, name: str, *, resumable: bool
) -> FaultRow:
    """The gateway connection drops and stays down for `seconds`: clicks meanwhile never
    reach the bot (Discord drops them); once it reconnects, play goes on by itself."""
    row = FaultRow(name, expected_errors=(RECONNECTING,))
    run = FaultRun(harness, row)
    fake = harness.fake
    async with harness.running():
        await run.seat()
        identified, resumed = len(fake.gateway.identified), len(fake.gateway.resumed)
        async with run.fault(row.fault):
            await fake.gateway.drop(resumable=resumable, down_for=seconds)
            await run.click_for(seconds)
        # the recovery counts the bot's reconnection: Discord is back, the bot not yet
        await fake.wait_for(
            lambda: fake.gateway.connected, timeout=RECONNECT_WAIT, what="a reconnection"
        )
        await run.recover()
        await run.handled()
        run.count_leaks()
        row.sessions = (
            len(fake.gateway.identified) - identified,
            len(fake.gateway.resumed) - resumed,
        )
        row.notes.append(f"identified again {row.sessions[0]}, resumed {row.sessions[1]}")
    await run.count_lost()
    return row


async def gateway_resume(harness: BotUnderTest, seconds: float) -> FaultRow:
    """A dropped gateway connection that resumes its session."""
    return await _gateway_drop(harness, seconds, "gateway: dropped, resumed", resumable=True)


async def gateway_identify(harness: BotUnderTest, seconds: float) -> FaultRow:
    """A dropped gateway connection whose session is gone: the bot must identify again."""
    return await _gateway_drop(
        harness, seconds, "gateway: dropped, identified again", resumable=False
    )


TURN_SECONDS = 5  # the shortest turn a server may set: the clock faults wait out one turn


async def _clock_step(harness: BotUnderTest, seconds: float, step: float) -> FaultRow:
    """The machine's wall clock steps by `step` seconds while a player's turn runs: the turn
    timer reminds them at half time and plays for them at the end, neither at once nor an
    hour late. Another player clicks meanwhile. `seconds` does not apply: one turn is waited."""
    direction = "forward" if step > 0 else "back"
    row = FaultRow(f"clock: wall stepped an hour {direction}")
    run = FaultRun(harness, row)
    shift = [0.0]
    harness.clock = SystemClock(wall=lambda: time.time() + shift[0])
    async with harness.running() as bot:
        await harness.ask(harness.fake.admin, "settings", turn_seconds=TURN_SECONDS)
        await run.seat()
        for _ in range(3):  # everyone peeks: the first turn to draw begins
            await run.click()
        waiting = run.mover()
        assert waiting is not None
        turn_began = time.monotonic()
        position = run.position()
        reminded: list[float] = []
        played: list[float] = []
        remind = bot.notifier.turn_reminder

        async def noted_reminder(table_id: int, seat: int) -> None:
            reminded.append(time.monotonic() - turn_began)
            await remind(table_id, seat)

        bot.notifier.turn_reminder = noted_reminder  # type: ignore[method-assign]
        watcher = next(u for u in players(harness.fake) if u != waiting)
        hand = verb_choice(harness.table_message(run.table_id), "hand")
        assert hand is not None
        async with run.fault(row.fault):
            shift[0] = step
            bound = time.monotonic() + TIMER_WAIT
            while not played and time.monotonic() < bound:
                # someone else opens their hand meanwhile: answered as ever
                row.clicks += 1
                clicked = await harness.fake.click(watcher, hand.message_id, hand.custom_id)
                row.answered += int(await answered_within(clicked, ANSWER_SECONDS))
                await asyncio.sleep(0.25)
                if run.position() > position:
                    played.append(time.monotonic() - turn_began)
        half = TURN_SECONDS / 2
        if not reminded or not played:
            row.broken.append(f"reminder at {reminded}, timeout at {played} s: never")
        elif played[0] - reminded[0] < half * EARLY:  # the timeout came with the reminder
            row.broken.append(f"reminder at {reminded[0]:.1f} s, timeout at {played[0]:.1f} s")
        row.notes.append(
            f"turn of {TURN_SECONDS} s: reminded after {_first(reminded)} s, "
            f"played for after {_first(played)} s"
        )
        await run.recover()
        await run.handled()
        run.count_leaks()
    await run.count_lost()
    return row


def _first(times: list[float]) -> str:
    return f"{times[0]:.1f}" if times else "never"


async def clock_forward(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The wall clock jumps an hour ahead (an NTP correction, a VM resumed)."""
    return await _clock_step(harness, seconds, 3600.0)


async def clock_back(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The wall clock goes an hour back."""
    return await _clock_step(harness, seconds, -3600.0)


SCENARIOS: dict[str, Callable[[BotUnderTest, float], Awaitable[FaultRow]]] = {
    "sqlite_full": sqlite_full,
    "sqlite_read_only": sqlite_read_only,
    "rest_5xx_table_messages": rest_5xx_table_messages,
    "rest_5xx_everything": rest_5xx_everything,
    "rest_429_route": rest_429_route,
    "rest_429_global": rest_429_global,
    "gateway_resume": gateway_resume,
    "gateway_identify": gateway_identify,
    "clock_forward": clock_forward,
    "clock_back": clock_back,
    **POSTGRES_SCENARIOS,
}
