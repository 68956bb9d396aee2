"""load_active_tables rebuilds lobbies and running tables; a table that cannot be rebuilt is
marked broken with its reason and does not stop the others."""

from __future__ import annotations

from typing import Any, ClassVar

from games.contract import Event, Game
from storage import SeatRecord, Store
from tests.games.toygame import GAME as TOY
from tests.games.toygame import ToyGame
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy


async def test_lobby_and_running_tables_are_rebuilt(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        lobby = await store.create_table(1, 2, "toy", {"target": 30}, host_id=7)
        await store.save_seats(lobby.id, [SeatRecord(seat=0, user_id=7, display_name="Host")])
        mid_round = await ToyTable.open(store, target=1000)
        await mid_round.play_round(seed=1)
        await mid_round.new_round(seed=2)
        await mid_round.play("draw")
        await mid_round.play("pass")
        between_rounds = await ToyTable.open(store, target=1000)
        await between_rounds.play_round(seed=3)
        finished = await ToyTable.open(store)
        await store.update_table(finished.id, status="finished")
        abandoned = await ToyTable.open(store)
        await store.update_table(abandoned.id, status="abandoned")

    async with await Store.open(location, games_resolver=resolve_toy) as store:
        loaded = await store.load_active_tables()
    assert loaded.broken == []
    by_id = {active.table.id: active for active in loaded.tables}
    assert sorted(by_id) == [lobby.id, mid_round.id, between_rounds.id]

    assert by_id[lobby.id].match is None and by_id[lobby.id].round is None
    assert [s.display_name for s in by_id[lobby.id].seats] == ["Host"]

    running = by_id[mid_round.id]
    assert running.round_no == 1
    assert running.round is not None and running.match is not None
    assert running.round.record() == mid_round.round.record()
    assert running.round.view(0) == mid_round.round.view(0)
    assert running.match.state() == mid_round.match.state()
    assert running.match.totals == mid_round.match.totals
    assert [s.user_id for s in running.seats] == [101, 102]

    shown: list[Event] = []  # the public events of the open round: the table's log
    TOY.replay(mid_round.round.record(), shown)
    assert running.log == shown

    waiting = by_id[between_rounds.id]
    assert waiting.round is None and waiting.round_no is None
    assert waiting.match is not None and waiting.match.round_no == 1
    # between two rounds, the round just finished (what the table message shows)
    assert waiting.last_round is not None and waiting.last_round.finished
    assert waiting.last_round.record() == between_rounds.round.record()
    assert waiting.last_round_no == 0


class ToyGameV2(ToyGame):
    """The toy game after a rules change that makes old logs unusable."""

    rules_version: ClassVar[int] = 2


def resolver_with(game: Game[Any, Any, Any]) -> Any:
    return lambda name: game if name == "toy" else resolve_toy(name)


async def test_broken_tables_are_marked_and_skipped_and_the_others_load(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        healthy = await ToyTable.open(store)
        await healthy.new_round(seed=1)
        await healthy.play("draw")
        bad_notation = await ToyTable.open(store)
        await bad_notation.new_round(seed=2)
        await store.record_action(bad_notation.id, 0, 0, 1, "fly away")
        illegal = await ToyTable.open(store)
        await illegal.new_round(seed=3)
        await store.record_action(illegal.id, 0, 0, 0, "draw")  # seat 1 is to act, not seat 0
        unknown = await store.create_table(1, 2, "chess", {}, host_id=1)
        second_healthy = await ToyTable.open(store)

    async with await Store.open(location, games_resolver=resolve_toy) as store:
        loaded = await store.load_active_tables()
        broken = dict(loaded.broken)
        assert sorted(a.table.id for a in loaded.tables) == [healthy.id, second_healthy.id]
        assert set(broken) == {bad_notation.id, illegal.id, unknown.id}
        assert "bad_notation" in broken[bad_notation.id]
        assert "not_your_turn" in broken[illegal.id]
        assert "unknown game 'chess'" in broken[unknown.id]
        for table_id, reason in broken.items():
            table = await store.get_table(table_id)
            assert table.status == "broken" and table.broken_reason == reason
        again = await store.load_active_tables()  # broken tables are not retried
        assert again.broken == [] and len(again.tables) == 2


async def test_a_rules_change_breaks_only_the_tables_it_affects(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        playing = await ToyTable.open(store)
        await playing.new_round(seed=1)
        await playing.play("draw")
        lobby = await store.create_table(1, 2, "toy", {}, host_id=1)
    new_rules = ToyGameV2()
    async with await Store.open(location, games_resolver=resolver_with(new_rules)) as store:
        loaded = await store.load_active_tables()
    assert [a.table.id for a in loaded.tables] == [lobby.id]
    assert loaded.broken == [
        (playing.id, "replay failed: ValueError: record made with toy rules v1, these are v2")
    ]


async def test_damaged_rows_break_only_their_table(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        bad_deck, bad_seat, bad_points, bad_options, bad_table, healthy = [
            await ToyTable.open(store, target=1000) for _ in range(6)
        ]
        for toy in (bad_deck, bad_seat, bad_options, bad_table, healthy):
            await toy.new_round(seed=toy.id)
        await bad_points.play_round(seed=1)
    for sql, table_id in [
        ("UPDATE rounds SET deck = 'AS KS' WHERE table_id = ?", bad_deck.id),  # round record
        ("UPDATE seats SET joined_at = 'yesterday' WHERE table_id = ?", bad_seat.id),
        ("UPDATE rounds SET points = '[1,' WHERE table_id = ?", bad_points.id),
        ("UPDATE tables SET options = '{' WHERE id = ?", bad_options.id),
        ("UPDATE tables SET created_at = 'long ago' WHERE id = ?", bad_table.id),
    ]:  # damaged actions: test_broken_tables_are_marked_and_skipped_and_the_others_load
        await raw_sql(location, sql, (table_id,))
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        loaded = await store.load_active_tables()
        # where a broken table lives can still be read, to tell its players on its message
        assert (await store.get_table(bad_options.id)).channel_id == bad_options.record.channel_id
        assert (await store.get_table(bad_table.id)).status == "broken"
    assert [a.table.id for a in loaded.tables] == [healthy.id]
    broken = dict(loaded.broken)
    assert set(broken) == {
        bad_deck.id,
        bad_seat.id,
        bad_points.id,
        bad_options.id,
        bad_table.id,
    }
    assert "not a full Toy deck" in broken[bad_deck.id]
    assert "yesterday" in broken[bad_seat.id]


async def test_the_resolver_can_be_given_at_load_time(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)
        await toy.new_round(seed=1)
    async with await Store.open(location) as store:  # default: games.registry, no "toy" there
        loaded = await store.load_active_tables(games_resolver=resolve_toy)
    assert [a.table.id for a in loaded.tables] == [toy.id]
    assert loaded.tables[0].round is not None
    assert loaded.tables[0].round.game is TOY
