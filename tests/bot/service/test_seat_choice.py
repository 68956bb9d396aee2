"""Fixed-size games (four seats in two partnerships): a player picks a free seat, the host swaps
seats; the places survive a restart and the match deals by them. Games with a range of seats
keep numbering seats in order."""

from __future__ import annotations

import pytest

from bot.service import PLAYING, FakeClock, RecordingNotifier, TableError, TableService
from storage import Store
from tests.bot.service.conftest import ANN, BOB, CAT, CHANNEL, DAN, GUILD


def places(service: TableService, table_id: int) -> dict[int, str]:
    return {s.position: s.name for s in service.public_snapshot(table_id).seats}


async def test_a_player_picks_a_free_seat_and_may_move_to_another(service: TableService) -> None:
    table_id = (await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre")).table_id
    await service.seating.join(table_id, BOB, 2)  # Ann's partner
    await service.seating.join(table_id, CAT)  # the first free seat
    assert places(service, table_id) == {0: "Ann", 1: "Cat", 2: "Bob"}
    await service.seating.join(table_id, CAT, 3)
    assert places(service, table_id) == {0: "Ann", 2: "Bob", 3: "Cat"}
    for player, seat, key in [
        (DAN, 2, "seat_taken"),
        (DAN, 4, "bad_seat"),
        (CAT, 3, "already_joined"),
    ]:
        with pytest.raises(TableError) as refused:
            await service.seating.join(table_id, player, seat)
        assert refused.value.key == key
    await service.seating.add_bot(table_id, ANN.user_id)  # the one free seat
    assert places(service, table_id)[1].startswith("Bot")


async def test_the_host_swaps_seats_even_with_an_empty_one(service: TableService) -> None:
    table_id = (await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre")).table_id
    await service.seating.join(table_id, BOB)
    await service.seating.swap_seats(
        table_id, ANN.user_id, 1, 2
    )  # Bob to the free seat opposite Ann
    assert places(service, table_id) == {0: "Ann", 2: "Bob"}
    await service.seating.swap_seats(table_id, ANN.user_id, 0, 2)
    assert places(service, table_id) == {0: "Bob", 2: "Ann"}
    for user, seats, key in [
        (BOB, (0, 1), "not_host"),
        (ANN, (1, 3), "bad_seat"),
        (ANN, (0, 0), "bad_seat"),
    ]:
        with pytest.raises(TableError) as refused:
            await service.seating.swap_seats(table_id, user.user_id, *seats)
        assert refused.value.key == key


async def test_places_survive_a_restart_and_the_match_deals_by_them(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table_id = (await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre")).table_id
    await service.seating.join(table_id, BOB, 3)
    again = TableService(store, clock, RecordingNotifier(), lambda: 3)
    await again.restoring.restore()
    assert places(again, table_id) == {0: "Ann", 3: "Bob"}
    await again.seating.add_bot(table_id, ANN.user_id)
    await again.seating.add_bot(table_id, ANN.user_id)
    snapshot = await again.seating.start(table_id, ANN.user_id)
    assert snapshot.status == PLAYING
    assert [(s.seat, s.position, s.name) for s in snapshot.seats][3] == (3, 3, "Bob")


async def test_games_with_a_range_of_seats_have_no_places_to_pick(service: TableService) -> None:
    table_id = (await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")).table_id
    await service.seating.join(table_id, BOB)
    await service.seating.join(table_id, CAT)
    await service.seating.leave(table_id, BOB.user_id)
    assert places(service, table_id) == {0: "Ann", 1: "Cat"}  # renumbered in order
    with pytest.raises(TableError) as refused:
        await service.seating.join(table_id, DAN, 2)
    assert refused.value.key == "bad_seat"
