"""Turn timers on a fake clock: a reminder at half time, a safe default move at the end, two
timeouts in a row make the seat away (played by the bot policy) until "My cards"."""

from __future__ import annotations

import pytest

from bot.service import PLAYING, ROUND_OVER, FakeClock, RecordingNotifier, TableService
from storage import GuildSettings, Store
from tests.bot.service.conftest import ANN, BOB, GUILD, open_dutch, user_at

SAFE_TURN = ("peek 3 4", "draw", "discard", "skip", "end")  # never calls Dutch


async def play_safe_turn(service: TableService, table_id: int) -> None:
    snapshot = service.public_snapshot(table_id)
    seat, round_no = snapshot.to_act[0], snapshot.round_no
    assert round_no is not None
    user_id = user_at(snapshot, seat)
    while True:
        legal = (await service.play.private_view(table_id, user_id)).legal
        choice = next((a for a in SAFE_TURN if a in legal), None)
        if choice is None:
            return
        await service.play.act(table_id, user_id, round_no, choice)
        await service.followup.settle(table_id)  # an away seat's move follows the click


def timeouts_of(service: TableService, table_id: int, seat: int) -> list[str]:
    return [
        e.kind
        for e in service.public_snapshot(table_id).log
        if e.source == "table" and e.seat == seat and e.kind in ("timeout", "away", "back")
    ]


async def test_the_guild_turn_seconds_drive_reminder_and_default_move(
    service: TableService, store: Store, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    await store.save_guild_settings(GuildSettings(guild_id=GUILD, turn_seconds=30))
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    snapshot = service.public_snapshot(table_id)
    assert snapshot.to_act == (1,) and snapshot.turn_deadline == clock.now() + 30
    await clock.advance(14)
    assert notifier.of("turn_reminder") == []
    await clock.advance(1)
    assert notifier.of("turn_reminder") == [(table_id, 1)]
    await clock.advance(14)
    assert service.public_snapshot(table_id).to_act == (1,)
    await clock.advance(1)  # Bob's peek is played for him: the absent player blocks nothing
    snapshot = service.public_snapshot(table_id)
    assert snapshot.status == PLAYING
    assert snapshot.view is not None and snapshot.view.peeked == (True, True)
    assert timeouts_of(service, table_id, 1) == ["timeout"]
    assert (await store.load_round(table_id, 0)).actions[-1][0] == 1


async def test_reveals_of_a_timed_out_peek_are_shown_once_later(
    service: TableService, clock: FakeClock
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    await clock.advance(90)
    first = await service.play.private_view(table_id, BOB.user_id)
    assert sorted(r.data["slot"] for r in first.reveals) == [3, 4]
    assert all(r.data["seat"] == 1 and r.data["card"] for r in first.reveals)
    again = await service.play.private_view(table_id, BOB.user_id)
    assert again.reveals == ()
    assert again.view is not None and all(s.card is None for s in again.view.grids[1])


async def test_two_timeouts_in_a_row_make_the_seat_away_until_my_cards(
    service: TableService, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    start = clock.now()
    for _ in range(100):
        snapshot = service.public_snapshot(table_id)
        if snapshot.seats[1].away:
            break
        if snapshot.status == ROUND_OVER:
            await service.play.next_round(table_id, ANN.user_id)
        elif 0 in snapshot.to_act:
            await play_safe_turn(service, table_id)
        else:
            await clock.advance(90)
    assert service.public_snapshot(table_id).seats[1].away
    assert timeouts_of(service, table_id, 1)[-2:] == ["timeout", "away"]
    assert clock.now() - start == 2 * 90  # the peek's timeout, then the first turn's
    reminders = len(notifier.of("turn_reminder"))

    # Away: Bob's turns are played at once by the bot policy, without timers.
    turns = 0
    for _ in range(3):
        snapshot = service.public_snapshot(table_id)
        if snapshot.status != PLAYING:
            break
        assert snapshot.to_act == (0,)
        await play_safe_turn(service, table_id)
        turns += 1
    assert turns, "the round ended before any turn of the away seat"
    assert len(notifier.of("turn_reminder")) == reminders

    # "My cards" brings Bob back.
    private = await service.play.private_view(table_id, BOB.user_id)
    assert not private.away
    snapshot = service.public_snapshot(table_id)
    assert not snapshot.seats[1].away
    assert timeouts_of(service, table_id, 1)[-1] == "back"


async def test_a_click_resets_the_timeout_count(service: TableService, clock: FakeClock) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await clock.advance(90)  # both peeks time out: one timeout each
    snapshot = service.public_snapshot(table_id)
    assert snapshot.status == PLAYING and not any(s.away for s in snapshot.seats)
    (seat,) = snapshot.to_act
    other = 1 - seat
    await play_safe_turn(service, table_id)  # a click: this seat's count is back to 0
    assert service.public_snapshot(table_id).to_act == (other,)
    await clock.advance(90)  # the other seat's second timeout in a row
    snapshot = service.public_snapshot(table_id)
    assert snapshot.seats[other].away
    assert snapshot.status == PLAYING  # the round goes on: the claims below are about its turns
    assert snapshot.to_act == (seat,)  # the away seat's turn was played at once
    await clock.advance(90)  # one timeout after a click: not away
    assert not service.public_snapshot(table_id).seats[seat].away


@pytest.mark.parametrize("players", [2, 4])
async def test_a_table_of_absent_players_still_ends_its_round(
    service: TableService, clock: FakeClock, players: int
) -> None:
    from bot.service import PlayerRef

    people = [PlayerRef(700 + i, f"P{i}") for i in range(players)]
    table_id = await open_dutch(service, people)
    for _ in range(20):
        if service.public_snapshot(table_id).status != PLAYING:
            break
        await clock.advance(90)
    snapshot = service.public_snapshot(table_id)
    assert snapshot.status == ROUND_OVER
    assert all(s.away for s in snapshot.seats)
    assert snapshot.next_round_at is None  # nobody is here: no new round starts by itself


async def test_no_timer_fires_once_the_service_is_closed(
    service: TableService, store: Store, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    """A closing bot closes its store next: a turn timer firing then would fail to store the
    default move (and log an error). Closing the service cancels every timer."""
    await store.save_guild_settings(GuildSettings(guild_id=GUILD, turn_seconds=30))
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    stored = len((await store.load_round(table_id, 0)).actions)
    await service.close()
    await clock.advance(120)  # past the reminder, the timeout and a second one
    assert notifier.of("turn_reminder") == []
    assert len((await store.load_round(table_id, 0)).actions) == stored
    assert timeouts_of(service, table_id, 1) == []
