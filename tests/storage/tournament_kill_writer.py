"""Child process of the tournament kill test: tournaments run through the store as fast as
they can, every transition stored before it is printed as `tournament steps` (the count of
transitions done). It runs until it is killed.

Usage: python -m tests.storage.tournament_kill_writer DB_PATH_OR_URL

`next_step` decides each transition from the event's state alone (sign-ups, check-in, the
start, each round paired, each table's result), so the test replays any prefix of it and
resumes a reloaded event with it."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

from games.tournament.event import CHECKIN, FINISHED, RUNNING, SIGNUP, SWISS, Tournament
from storage import Store
from storage.tournaments import TournamentSettings, TournamentStore
from tests.storage.conftest import resolve_toy

PLAYERS = 9
CHECKED_IN = 7  # the last two are no-shows (bots play them)
SETTINGS = TournamentSettings(format=SWISS, seats=2, rounds=3)


def next_step(
    event: Tournament, tournament_id: int, store: TournamentStore
) -> Callable[[], Awaitable[None]] | None:
    """Make the event's next transition (in memory) and return the store call that keeps
    it; None once the event is over."""
    if event.status == SIGNUP and len(event.entrants) < PLAYERS:
        user = tournament_id * 100 + len(event.entrants)
        entrant = event.sign_up(user, f"player {user}", PLAYERS)
        return lambda: store.add_entrant(tournament_id, entrant)
    if event.status == SIGNUP:
        event.open_checkin()
        return lambda: store.save_status(tournament_id, event)
    if event.status == CHECKIN:
        waiting = [e for e in event.entrants[:CHECKED_IN] if not e.checked_in]
        if waiting:
            event.check_in(waiting[0].user_id)
            return lambda: store.check_in(tournament_id, waiting[0].user_id)
        event.start(seed=tournament_id)
        return lambda: store.save_status(tournament_id, event)
    if event.status != RUNNING:
        return None
    current = event.current()
    if current is None or current.done:
        new = event.next_round()
        return lambda: store.save_round(tournament_id, event, new)
    table = next(t for t in current.tables if not t.done)
    sides = ((tournament_id + current.number + table.number) % 2,)
    number = current.number
    event.record(number, table.number, sides)
    return lambda: store.record_result(tournament_id, event, number, table.number, sides)


def replayed(tournament_id: int, steps: int) -> Tournament:
    """The event after its first `steps` transitions (no store; fewer if it ends first)."""
    event = Tournament(SETTINGS.as_format())
    ignored = TournamentStore.__new__(TournamentStore)
    for _ in range(steps):
        if next_step(event, tournament_id, ignored) is None:
            break
    return event


async def main(location: str) -> None:
    store = await Store.open(location, games_resolver=resolve_toy)
    while True:
        tournament_id = await store.tournaments.create(
            guild_id=1,
            channel_id=9,
            created_by=1,
            game="dutch",
            preset=None,
            target=None,
            settings=SETTINGS,
            signup_closes_at=0.0,
            starts_at=0.0,
        )
        event = (await store.tournaments.load(tournament_id)).event
        steps = 0
        while (keep := next_step(event, tournament_id, store.tournaments)) is not None:
            await keep()
            steps += 1
            sys.stdout.write(f"{tournament_id} {steps}\n")
            sys.stdout.flush()
        assert event.status == FINISHED


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
