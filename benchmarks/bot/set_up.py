"""The click benchmark's set-up (`python -m benchmarks.bot`, clicks.py).

Thousands of tables are seated and started through the table service before anything is
measured; here too are the players who grow a Dame hand of 40 cards, and the clock that stands
still meanwhile.

Seating 10,000 tables takes minutes on a loaded machine, longer than a turn's timer (a
minute). So the service's clock is held while the tables are set up (`HeldClock`): no timer
fires then, and every turn's deadline counts from the moment the clicks begin, as if the
set-up had taken no time. The notifier is quiet meanwhile (`BenchNotifier.quiet`): the table
messages, pictures and turn mentions of 10,000 starts are not what the bench measures, and
their backlog would run into the window.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.clock import Clock, TimerCallback, TimerHandle, sleep_by_timer
from bot.service import PlayerRef
from games.contract import Round
from games.dame.round import DameRound

if TYPE_CHECKING:
    from benchmarks.bot.clicks import Bench

PLAYERS_PER_TABLE = 4
BIG_HAND = 40  # a Dame hand this big or bigger is reported apart
HOARDER_SEAT = 1
SET_UP_BATCH = 100  # tables seated (or started) at once
BOT_TABLE_USERS = 1_000_000_000  # the humans of the tables of bot players: user ids from here

Chooser = Callable[[Round[Any, Any, Any], int, random.Random], str | None]


@dataclass(slots=True)
class Table:
    table_id: int
    game: str
    host_id: int
    chooser: dict[int, Chooser]  # seat -> how its player chooses (default: the simple policy)
    bots: bool = False  # one human and three bot players (else four humans)


class _HeldTimer:
    """A timer armed while the clock is held: armed for real, with its whole delay, once the
    clock is released (unless cancelled first)."""

    __slots__ = ("armed", "callback", "cancelled", "delay")

    def __init__(self, delay: float, callback: TimerCallback) -> None:
        self.delay = delay
        self.callback = callback
        self.cancelled = False
        self.armed: TimerHandle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.armed is not None:
            self.armed.cancel()


class HeldClock:
    """`base` (the system clock in the bench, a fake one in tests), except that time stands
    still between `hold()` and `release()`: `now()` does not move, and a timer armed meanwhile
    starts counting its delay at the release. After the release, `now()` runs on as `base`
    does, behind it by the time it was held."""

    def __init__(self, base: Clock) -> None:
        self._base = base
        self._held_at: float | None = None
        self._lost = 0.0  # the time it was held, in all
        self._held: list[_HeldTimer] = []

    @property
    def held(self) -> bool:
        return self._held_at is not None

    def hold(self) -> None:
        if self._held_at is None:
            self._held_at = self._base.now()

    def release(self) -> None:
        if self._held_at is None:
            return
        self._lost += self._base.now() - self._held_at
        self._held_at = None
        timers, self._held = self._held, []
        for timer in timers:
            if not timer.cancelled:
                timer.armed = self._base.call_later(timer.delay, timer.callback)

    def now(self) -> float:
        return (self._base.now() if self._held_at is None else self._held_at) - self._lost

    def call_later(self, delay: float, callback: TimerCallback) -> TimerHandle:
        if self._held_at is None:
            return self._base.call_later(delay, callback)
        timer = _HeldTimer(delay, callback)
        self._held.append(timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        await sleep_by_timer(self, seconds)


def hoard(round_: Round[Any, Any, Any], seat: int, rng: random.Random) -> str | None:
    """A Dame player who takes the pile whenever they may (until they hold `BIG_HAND` cards)
    and never lays: their hand grows to 40 cards and more. Legal by construction: it picks
    among the engine's own play options."""
    return _draw_or_discard(round_, seat, rng, take=True)


def idle(round_: Round[Any, Any, Any], seat: int, rng: random.Random) -> str | None:
    """The other players at a hoarder's table draw and discard: the pile grows for the
    hoarder, and the hand is not ended by someone going out."""
    return _draw_or_discard(round_, seat, rng, take=False)


def _draw_or_discard(
    round_: Round[Any, Any, Any], seat: int, rng: random.Random, *, take: bool
) -> str | None:
    assert isinstance(round_, DameRound)
    options = round_.play_options(seat)
    if options is None:
        return None
    if options.draw:
        if take and options.take and len(round_.hands[seat]) < BIG_HAND:
            return "take " + " ".join(code.split("#")[0] for code in options.take[:2])
        return "draw"
    if not options.discard:
        return None
    return "discard " + rng.choice(options.discard).split("#")[0]


async def open_tables(
    bench: Bench,
    count: int,
    games: list[str],
    hoarders: float,
    grown: int,
    bot_tables: int = 0,
    bots: str = "strong",
    coach: bool = False,
) -> None:
    """Seat every table first (`count` of four humans, `bot_tables` of one human and three
    bot players, games in turn, coached with `coach`), then start them all in one pass.
    `grown` of the hoarders' tables are then played until the hoarder holds `BIG_HAND` cards,
    and every table of humans gets its first click ready. Every table is then unplayed until
    its first click (`Bench.played`). The notifier is quiet all along (nothing of the set-up
    is measured); the players' "My cards" messages are followed from the end of it."""
    service = bench.service

    async def humans(t: int, chooser: dict[int, Chooser]) -> Table:
        game = games[t % len(games)]
        people = [PlayerRef(1_000 * (t + 1) + p, f"T{t}P{p}") for p in range(PLAYERS_PER_TABLE)]
        snapshot = await service.seating.open_table(1, 10 + t % 20, people[0], game)
        for person in people[1:]:
            await service.seating.join(snapshot.table_id, person)
        return Table(snapshot.table_id, game, people[0].user_id, chooser)

    async def with_bots(t: int) -> Table:
        game = games[t % len(games)]
        human = PlayerRef(BOT_TABLE_USERS + t, f"B{t}")
        snapshot = await service.seating.open_table(
            2, 10 + t % 20, human, game, bots=bots, coach=coach
        )
        for _ in range(PLAYERS_PER_TABLE - 1):
            await service.seating.add_bot(snapshot.table_id, human.user_id)
        return Table(snapshot.table_id, game, human.user_id, {}, True)

    seating: list[Callable[[], Awaitable[Table]]] = []
    dame_tables = 0
    for t in range(count):
        chooser: dict[int, Chooser] = {}
        if games[t % len(games)] == "dame":
            dame_tables += 1  # a hoarder at `hoarders` of them, spread evenly
            if int(dame_tables * hoarders) > int((dame_tables - 1) * hoarders):
                chooser = {seat: idle for seat in range(PLAYERS_PER_TABLE)}
                chooser[HOARDER_SEAT] = hoard
        seating.append(functools.partial(humans, t, chooser))
    seating += [functools.partial(with_bots, t) for t in range(bot_tables)]
    bench.notifier.quiet = True
    try:
        # a batch at a time, so that the store commits each batch's writes together
        for first in range(0, len(seating), SET_UP_BATCH):
            batch = seating[first : first + SET_UP_BATCH]
            for table in await asyncio.gather(*(seat() for seat in batch)):
                bench.tables[table.table_id] = table
        bench.unplayed = set(bench.tables)
        bench.played.clear()
        seated = list(bench.tables.values())
        for first in range(0, len(seated), SET_UP_BATCH):
            starting = seated[first : first + SET_UP_BATCH]
            await asyncio.gather(*(service.seating.start(t.table_id, t.host_id) for t in starting))
        hoarded = [t for t in bench.tables.values() if t.chooser][:grown]
        await asyncio.gather(*(grow_hand(bench, table) for table in hoarded))
    finally:
        bench.notifier.quiet = False
    for table in bench.tables.values():
        for info in service.public_snapshot(table.table_id).seats:
            # every player has "My cards" open: the follower re-renders it when it changes
            if info.user_id is None:
                continue  # a bot player
            private = await service.play.follow_view(table.table_id, info.user_id)
            assert private is not None
            bench.notifier.follow(private, info.user_id)
        if not table.bots:
            bench.requeue(table.table_id)


async def grow_hand(bench: Bench, table: Table) -> None:
    """Play a hoarder's table (unmeasured) until the hoarder holds `BIG_HAND` cards."""
    for _ in range(5_000):
        view = bench.service.public_snapshot(table.table_id).view
        if view is not None and view.hand_sizes[HOARDER_SEAT] >= BIG_HAND:
            return
        click = bench.next_click(table)
        if click is None or click.verb != "act":
            return  # the hand ended (it does not while nobody lays): leave it as it is
        assert click.round_no is not None
        await bench.service.play.act(click.table_id, click.user_id, click.round_no, click.notation)
