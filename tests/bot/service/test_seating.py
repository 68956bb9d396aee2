from __future__ import annotations

import pytest

from bot.service import (
    CLOSED,
    LOBBY,
    PLAYING,
    PlayerRef,
    RecordingNotifier,
    TableError,
    TableService,
)
from storage import Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    FailingStore,
    end_round_quickly,
    open_dutch,
)


async def test_open_table_seats_the_host_in_a_stored_lobby(
    service: TableService, store: Store
) -> None:
    snapshot = await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch", target=50)
    assert snapshot.status == LOBBY
    assert [s.user_id for s in snapshot.seats] == [ANN.user_id]
    assert snapshot.target == 50 and snapshot.preset == "classic"
    assert (snapshot.min_seats, snapshot.max_seats) == (2, 10)
    seats = await store.get_seats(snapshot.table_id)
    assert [(s.seat, s.user_id, s.display_name) for s in seats] == [(0, ANN.user_id, "Ann")]
    assert service.tables.table_of_user(GUILD, ANN.user_id) == snapshot.table_id


async def test_a_user_sits_at_one_table_per_guild(service: TableService) -> None:
    first = await open_dutch(service, [ANN], start=False)
    with pytest.raises(TableError) as refused:
        await service.seating.open_table(GUILD, CHANNEL, ANN, "dutch")
    assert refused.value.key == "already_seated"
    assert refused.value.params["table_id"] == first
    second = await service.seating.open_table(GUILD, CHANNEL, BOB, "dutch")
    with pytest.raises(TableError) as refused:
        await service.seating.join(second.table_id, ANN)
    assert refused.value.key == "already_seated"
    other_guild = await service.seating.open_table(GUILD + 1, CHANNEL + 1, ANN, "dutch")
    assert other_guild.table_id not in (first, second.table_id)
    assert service.tables_in_channel(CHANNEL) == sorted([first, second.table_id])


async def test_joining_twice_is_refused(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    with pytest.raises(TableError) as refused:
        await service.seating.join(table_id, BOB)
    assert refused.value.key == "already_joined"
    assert len(service.public_snapshot(table_id).seats) == 2


async def test_a_full_table_refuses_the_next_player(service: TableService) -> None:
    players = [PlayerRef(500 + i, f"P{i}") for i in range(10)]
    table_id = await open_dutch(service, players, start=False)
    with pytest.raises(TableError) as refused:
        await service.seating.join(table_id, PlayerRef(999, "Late"))
    assert refused.value.key == "table_full"
    assert service.tables.table_of_user(GUILD, 999) is None


async def test_leaving_the_lobby_frees_the_seat(service: TableService, store: Store) -> None:
    table_id = await open_dutch(service, [ANN, BOB, CAT], start=False)
    snapshot = await service.seating.leave(table_id, BOB.user_id)
    assert [s.user_id for s in snapshot.seats] == [ANN.user_id, CAT.user_id]
    assert service.tables.table_of_user(GUILD, BOB.user_id) is None
    assert [s.user_id for s in await store.get_seats(table_id)] == [ANN.user_id, CAT.user_id]
    with pytest.raises(TableError) as refused:
        await service.seating.leave(table_id, BOB.user_id)
    assert refused.value.key == "not_seated"


async def test_the_host_leaving_passes_the_host_and_the_last_human_closes_the_table(
    service: TableService, notifier: RecordingNotifier, store: Store
) -> None:
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    snapshot = await service.seating.leave(table_id, ANN.user_id)
    assert snapshot.host_id == BOB.user_id
    await service.seating.add_bot(table_id, BOB.user_id)
    snapshot = await service.seating.leave(table_id, BOB.user_id)
    assert snapshot.status == CLOSED
    assert (table_id,) in notifier.of("table_closed")
    assert service.tables_in_channel(CHANNEL) == []
    assert (await store.get_table(table_id)).status == "abandoned"


async def test_only_the_host_starts_and_only_with_enough_players(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN], start=False)
    with pytest.raises(TableError) as refused:
        await service.seating.start(table_id, ANN.user_id)
    assert refused.value.key == "players_between"
    assert refused.value.params == {"game": "dutch", "min": 2, "max": 10}
    await service.seating.join(table_id, BOB)
    with pytest.raises(TableError) as refused:
        await service.seating.start(table_id, BOB.user_id)
    assert refused.value.key == "not_host"
    snapshot = await service.seating.start(table_id, ANN.user_id)
    assert snapshot.status == PLAYING and snapshot.round_no == 0
    assert snapshot.to_act == (0, 1)  # the peek phase: everyone peeks
    with pytest.raises(TableError) as refused:
        await service.seating.join(table_id, CAT)
    assert refused.value.key == "not_in_lobby"


async def test_the_host_adds_a_bot_so_two_can_play(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN], start=False)
    with pytest.raises(TableError):
        await service.seating.add_bot(table_id, BOB.user_id)
    snapshot = await service.seating.add_bot(table_id, ANN.user_id)
    assert snapshot.seats[1].is_bot and snapshot.seats[1].user_id is None
    started = await service.seating.start(table_id, ANN.user_id)
    assert started.to_act == (0, 1)  # answered before the bot's move
    await service.followup.settle(table_id)
    assert service.public_snapshot(table_id).to_act == (0,)  # the bot peeked


async def test_cancel_is_for_the_host_and_stop_for_the_host_or_a_manager(
    service: TableService, store: Store
) -> None:
    lobby = await open_dutch(service, [ANN, BOB], start=False)
    with pytest.raises(TableError) as refused:
        await service.seating.cancel(lobby, BOB.user_id)
    assert refused.value.key == "not_host"
    await service.seating.cancel(lobby, ANN.user_id)
    assert service.tables.table_of_user(GUILD, BOB.user_id) is None
    with pytest.raises(TableError) as refused:
        service.public_snapshot(lobby)
    assert refused.value.key == "no_table"

    running = await open_dutch(service, [ANN, BOB])
    with pytest.raises(TableError) as refused:
        await service.seating.cancel(running, ANN.user_id)
    assert refused.value.key == "match_running"
    with pytest.raises(TableError) as refused:
        await service.seating.stop(running, BOB.user_id, can_manage=False)
    assert refused.value.key == "not_allowed"
    await service.seating.stop(running, CAT.user_id, can_manage=True)
    assert (await store.get_table(running)).status == "abandoned"
    assert service.tables.table_of_user(GUILD, ANN.user_id) is None


async def test_unknown_game_preset_or_option_get_clear_errors(service: TableService) -> None:
    for kwargs, key in [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "dutch", "preset": "nope"}, "unknown_preset"),
        ({"game": "dutch", "target": -5}, "bad_option"),
    ]:
        with pytest.raises(TableError) as refused:
            await service.seating.open_table(GUILD, CHANNEL, ANN, **kwargs)  # type: ignore[arg-type]
        assert refused.value.key == key
    assert service.tables.table_of_user(GUILD, ANN.user_id) is None


async def test_the_host_removes_a_bot_from_the_lobby(service: TableService, store: Store) -> None:
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    await service.seating.add_bot(table_id, ANN.user_id, lambda _number: "Robo")
    with pytest.raises(TableError) as refused:
        await service.seating.remove_bot(table_id, ANN.user_id, 1)  # Bob is no bot
    assert refused.value.key == "not_a_bot"
    with pytest.raises(TableError) as refused:
        await service.seating.remove_bot(table_id, BOB.user_id, 2)
    assert refused.value.key == "not_host"
    snapshot = await service.seating.remove_bot(table_id, ANN.user_id, 2)
    assert [s.name for s in snapshot.seats] == ["Ann", "Bob"]
    assert len(await store.get_seats(table_id)) == 2


async def test_a_rematch_leaves_out_players_seated_elsewhere(service: TableService) -> None:
    table_id = await open_dutch(service, [ANN, BOB, CAT], target=1)
    for _ in range(20):
        await end_round_quickly(service, table_id)
        if service.public_snapshot(table_id).status != "round_over":
            break
        await service.play.next_round(table_id, ANN.user_id)
    other = await service.seating.open_table(GUILD, CHANNEL, CAT, "dutch")
    lobby = await service.seating.rematch(table_id, BOB.user_id)
    assert [s.user_id for s in lobby.seats] == [ANN.user_id, BOB.user_id]
    assert service.tables.table_of_user(GUILD, CAT.user_id) == other.table_id
    with pytest.raises(TableError) as refused:
        await service.play.private_view(table_id, CAT.user_id)
    assert refused.value.key == "not_seated"


async def test_a_seat_change_the_store_refuses_is_undone_in_memory(
    service: TableService, store: Store
) -> None:
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    failing = FailingStore(store, "save_seats")
    service.store = failing  # type: ignore[assignment]
    before = service.public_snapshot(table_id).seats
    for attempt in (
        service.seating.join(table_id, CAT),
        service.seating.add_bot(table_id, ANN.user_id),
        service.seating.leave(table_id, BOB.user_id),
    ):
        with pytest.raises(TableError) as refused:
            await attempt
        assert refused.value.key == "store_failed"
        assert service.public_snapshot(table_id).seats == before
    assert service.tables.table_of_user(GUILD, CAT.user_id) is None  # Cat may still sit elsewhere
    assert service.tables.table_of_user(GUILD, BOB.user_id) == table_id

    failing.failing.clear()
    await service.seating.join(table_id, CAT)
    await service.seating.start(table_id, ANN.user_id)
    failing.failing.add("save_seats")
    with pytest.raises(TableError):
        await service.seating.leave(table_id, CAT.user_id)
    assert not service.public_snapshot(table_id).seats[2].left
    assert [s.left_at for s in await store.get_seats(table_id)] == [None, None, None]


@pytest.mark.parametrize("game", ["euchre", "dame"])
async def test_fill_with_bots_seats_a_bot_at_every_free_place_in_one_click(
    service: TableService, store: Store, game: str
) -> None:
    """A solo table of a game of four: the host's one click takes the three empty places,
    numbered after any bot already seated, and the match can start."""
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, game)
    await service.seating.add_bot(table.table_id, ANN.user_id)
    snapshot = await service.seating.fill_with_bots(
        table.table_id, ANN.user_id, lambda number: f"Robot {number}"
    )
    assert [s.name for s in snapshot.seats] == ["Ann", "Bot 1", "Robot 2", "Robot 3"]
    assert [s.display_name for s in await store.get_seats(table.table_id)] == [
        "Ann",
        "Bot 1",
        "Robot 2",
        "Robot 3",
    ]
    with pytest.raises(TableError) as refused:
        await service.seating.fill_with_bots(table.table_id, ANN.user_id)
    assert refused.value.key == "table_full"
    assert (await service.seating.start(table.table_id, ANN.user_id)).status == PLAYING


async def test_only_the_host_fills_the_lobby_with_bots(service: TableService) -> None:
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre")
    await service.seating.join(table.table_id, BOB)
    with pytest.raises(TableError) as refused:
        await service.seating.fill_with_bots(table.table_id, BOB.user_id)
    assert refused.value.key == "not_host"
    assert len(service.public_snapshot(table.table_id).seats) == 2


async def test_a_store_failure_while_filling_with_bots_seats_none(
    service: TableService, store: Store
) -> None:
    table = await service.seating.open_table(GUILD, CHANNEL, ANN, "dame")
    service.store = FailingStore(store, "save_seats")  # type: ignore[assignment]
    with pytest.raises(TableError) as refused:
        await service.seating.fill_with_bots(table.table_id, ANN.user_id)
    assert refused.value.key == "store_failed"
    assert [s.name for s in service.public_snapshot(table.table_id).seats] == ["Ann"]
