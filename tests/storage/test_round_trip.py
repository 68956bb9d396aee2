"""Every record type comes back as it was stored."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from games.contract import RoundResult
from storage import GuildSettings, SeatRecord, Store, StoreError
from tests.games.toygame import GAME as TOY
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy

DAMAGED_GUILDS = itertools.count(7000)  # a guild of its own per run (see the test)


async def test_guild_settings_default_when_absent(store: Store) -> None:
    assert await store.get_guild_settings(7) == GuildSettings(guild_id=7)


async def test_guild_settings_round_trip_and_overwrite(store: Store) -> None:
    settings = GuildSettings(
        guild_id=7,
        language="fr",
        default_presets={"dutch": "house", "euchre": "standard"},
        turn_seconds=45,
        reveal_seconds=5,
        use_threads=True,
        turn_pings=False,
    )
    await store.save_guild_settings(settings)
    assert await store.get_guild_settings(7) == settings
    changed = settings.model_copy(
        update={"language": None, "use_threads": False, "turn_pings": True}
    )
    await store.save_guild_settings(changed)
    assert await store.get_guild_settings(7) == changed
    assert await store.get_guild_settings(8) == GuildSettings(guild_id=8)


async def test_a_stored_setting_this_version_refuses_falls_back_to_its_default(
    store: Store, location: Location
) -> None:
    """Written by an older version (or by hand): an unknown preset or game and values out of
    range read as their defaults; the other settings are kept."""
    await raw_sql(
        location,
        "INSERT INTO guild_settings (guild_id, language, default_presets, turn_seconds, "
        "reveal_seconds, use_threads, updated_at) VALUES (7, 'fr', ?, 2, 9999, 1, '0')",
        ('{"dutch": "nonsense", "poker": "texas", "euchre": "standard"}',),
    )
    settings = await store.get_guild_settings(7)
    defaults = GuildSettings(guild_id=7)
    assert settings.default_presets == {"euchre": "standard"}
    assert (settings.turn_seconds, settings.reveal_seconds) == (
        defaults.turn_seconds,
        defaults.reveal_seconds,
    )
    assert (settings.language, settings.use_threads) == ("fr", True)


@pytest.mark.parametrize("presets", ["{bad", "[1, 2]", "null"])
async def test_damaged_stored_settings_are_their_defaults_logged_once_and_repaired_on_save(
    store: Store, location: Location, presets: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged row (presets that are no JSON object) affects only its guild: its damaged
    values read as their defaults, logged once; saving the settings (/settings) repairs it.
    (A guild of its own per run: the store keeps the settings it has read or saved, and the
    report is once per process.)"""
    guild_id = next(DAMAGED_GUILDS)
    await raw_sql(
        location,
        "INSERT INTO guild_settings (guild_id, language, default_presets, turn_seconds, "
        "reveal_seconds, use_threads, bots, updated_at) "
        "VALUES (?, 'fr', ?, 30, 0, 1, 'simple', '0')",
        (guild_id, presets),
    )
    for _ in range(3):
        settings = await store.get_guild_settings(guild_id)
    defaults = GuildSettings(guild_id=guild_id)
    assert (settings.default_presets, settings.reveal_seconds) == (
        defaults.default_presets,
        defaults.reveal_seconds,
    )
    assert (settings.language, settings.turn_seconds, settings.bots) == ("fr", 30, "simple")
    damaged = [r for r in caplog.records if f"guild {guild_id}" in r.getMessage()]
    assert sorted(r.getMessage().split()[4] for r in damaged) == [
        "default_presets",
        "reveal_seconds",
    ]
    others = guild_id + 1000
    assert await store.get_guild_settings(others) == GuildSettings(guild_id=others)
    await store.save_guild_settings(settings.model_copy(update={"turn_seconds": 40}))
    (stored,) = await raw_sql(
        location,
        "SELECT default_presets, reveal_seconds FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    assert stored == ("{}", defaults.reveal_seconds)
    assert (await store.get_guild_settings(guild_id)).turn_seconds == 40


async def test_guild_settings_are_read_once_and_kept_until_saved_or_forgotten(
    store: Store, location: Location
) -> None:
    """Every round start asks for its guild's turn time: the store, the only writer of its
    guilds' settings, reads them once."""
    guild_id = next(DAMAGED_GUILDS)
    await raw_sql(
        location,
        "INSERT INTO guild_settings (guild_id, language, default_presets, turn_seconds, "
        "reveal_seconds, use_threads, bots, updated_at) "
        "VALUES (?, 'fr', '{}', 30, 5, 1, 'simple', '0')",
        (guild_id,),
    )
    assert (await store.get_guild_settings(guild_id)).turn_seconds == 30
    await raw_sql(
        location, "UPDATE guild_settings SET turn_seconds = 45 WHERE guild_id = ?", (guild_id,)
    )
    assert (await store.get_guild_settings(guild_id)).turn_seconds == 30  # not read again
    saved = (await store.get_guild_settings(guild_id)).model_copy(update={"turn_seconds": 60})
    await store.save_guild_settings(saved)
    assert await store.get_guild_settings(guild_id) == saved
    await store.forget_guild(guild_id)
    assert await store.get_guild_settings(guild_id) == GuildSettings(guild_id=guild_id)


def test_a_setting_with_an_unknown_preset_is_refused() -> None:
    with pytest.raises(ValidationError):
        GuildSettings(guild_id=7, default_presets={"dutch": "nonsense"})
    with pytest.raises(ValidationError):
        GuildSettings(guild_id=7, default_presets={"poker": "classic"})


async def test_table_round_trip_and_partial_updates(store: Store) -> None:
    created = await store.create_table(1, 2, "toy", {"target": 50}, host_id=3)
    assert (created.guild_id, created.channel_id, created.game, created.host_id) == (1, 2, "toy", 3)
    assert created.options == {"target": 50}
    assert created.status == "lobby" and created.thread_id is None and created.message_id is None
    assert await store.get_table(created.id) == created

    await store.update_table(created.id, message_id=900, thread_id=901)
    await store.update_table(created.id, status="playing", options={"target": 10})
    table = await store.get_table(created.id)
    assert (table.message_id, table.thread_id, table.status) == (900, 901, "playing")
    assert table.options == {"target": 10}
    assert table.updated_at >= created.updated_at and table.created_at == created.created_at

    await store.update_table(created.id, thread_id=None, status="broken", broken_reason="why")
    table = await store.get_table(created.id)
    assert (table.thread_id, table.message_id, table.status) == (None, 900, "broken")
    assert table.broken_reason == "why"


async def test_unknown_table_and_bad_status_are_clear_errors(store: Store) -> None:
    with pytest.raises(StoreError, match="no table 99"):
        await store.get_table(99)
    with pytest.raises(StoreError, match="no table 99"):
        await store.update_table(99, status="finished")
    created = await store.create_table(1, 2, "toy", {}, host_id=3)
    with pytest.raises(StoreError, match="not a table status"):
        await store.update_table(created.id, status="paused")  # type: ignore[arg-type]


async def test_seats_round_trip_keep_order_bots_and_left_players(store: Store) -> None:
    table = await store.create_table(1, 2, "toy", {}, host_id=3)
    joined = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    seats = [
        SeatRecord(seat=0, user_id=3, display_name="Ann", joined_at=joined),
        SeatRecord(
            seat=1,
            user_id=4,
            display_name="Bob",
            joined_at=joined,
            left_at=joined + timedelta(minutes=5),
        ),
        SeatRecord(seat=1, user_id=None, display_name="Bot", is_bot=True, joined_at=joined),
    ]
    await store.save_seats(table.id, seats)
    assert await store.get_seats(table.id) == seats
    await store.save_seats(table.id, seats[:1])
    assert await store.get_seats(table.id) == seats[:1]
    with pytest.raises(StoreError, match="no table"):
        await store.save_seats(12345, seats)


async def test_seats_saved_with_a_status_store_both_or_neither(store: Store) -> None:
    table = await store.create_table(1, 2, "toy", {}, host_id=3)
    await store.update_table(table.id, status="finished")
    ann = SeatRecord(seat=0, user_id=3, display_name="Ann")
    await store.save_seats(table.id, [ann])
    # a seat the database refuses (no name) must leave the status as it was
    nameless = SeatRecord.model_construct(**{**ann.model_dump(), "display_name": None})
    with pytest.raises(Exception):  # noqa: B017 - each backend names its own error
        await store.save_seats(table.id, [ann, nameless], status="lobby")
    assert (await store.get_table(table.id)).status == "finished"
    assert await store.get_seats(table.id) == [ann]
    await store.save_seats(table.id, [ann], status="lobby")
    assert (await store.get_table(table.id)).status == "lobby"
    with pytest.raises(StoreError, match="not a table status"):
        await store.save_seats(table.id, [ann], status="paused")  # type: ignore[arg-type]


async def test_round_record_match_and_result_round_trip(store: Store) -> None:
    toy = await ToyTable.open(store, target=1000)
    await toy.play_round(seed=1, moves="dpdd")
    await toy.new_round(seed=2)
    await toy.play("draw")

    first = await store.load_round(toy.id, 0)
    assert first.actions == [(1, "draw"), (0, "pass"), (1, "draw"), (0, "draw")]
    assert first.deck == TOY.new_round(TOY.options(), toy.round.setup, seed=1).record().deck
    assert TOY.replay(first).result() == toy.match.results[0]
    result = await store.round_result(toy.id, 0)
    assert result == (toy.match.results[0], list(toy.match.results[0].points))

    second = await store.load_round(toy.id, 1)
    assert second == toy.round.record()  # dealer, totals, deck, rules version, options, actions
    assert await store.round_result(toy.id, 1) is None

    assert await store.load_match(toy.id) == toy.match.state()


async def test_round_detail_is_stored(store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.new_round(seed=3)
    while not toy.round.finished:
        await toy.play("draw")
    result = RoundResult(points=(4, 5), detail={"caller": 1, "cards": ["QS", "10H"]})
    await store.finish_round(toy.id, 0, result, [4, 5])
    assert await store.round_result(toy.id, 0) == (result, [4, 5])


async def test_start_round_rules(store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    with pytest.raises(StoreError, match="not finished"):
        await store.start_round(toy.id, toy.round.record())
    await toy.play("draw")
    with pytest.raises(StoreError, match="no action yet"):
        await store.start_round(toy.id, toy.round.record())
    fresh = toy.round.record().model_copy(update={"actions": []})
    with pytest.raises(StoreError, match="no table"):
        await store.start_round(4242, fresh)


async def test_finish_round_twice_is_refused(store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.play_round(seed=1)
    with pytest.raises(StoreError, match="unknown or finished"):
        await store.finish_round(toy.id, 0, toy.match.results[0], toy.match.totals)


async def test_rematch_numbers_matches_and_rounds_per_table(store: Store) -> None:
    toy = await ToyTable.open(store, target=1)  # any round ends the match
    await toy.play_round(seed=1)
    assert toy.match.finished
    await store.finish_match(toy.id, list(toy.match.winner_seats()), toy.match.totals)
    assert await store.start_match(toy.id, toy.match.__class__(TOY, toy.match.options, 2).state())
    toy.match = toy.match.__class__(TOY, toy.match.options, 2)
    await toy.new_round(seed=2)
    assert toy.round_no == 1  # the store's number keeps counting across matches
    assert (await store.load_round(toy.id, 1)).round_no == 0  # the match's own round index
    state = await store.load_match(toy.id)
    assert state is not None and state.round_points == []


async def test_times_come_from_the_given_clock(location: Location) -> None:
    moment = datetime(2030, 5, 6, 7, 8, 9, tzinfo=UTC)
    async with await Store.open(location, games_resolver=resolve_toy, now=lambda: moment) as store:
        table = await store.create_table(1, 2, "toy", {}, host_id=3)
        assert table.created_at == table.updated_at == moment


async def test_reopening_keeps_everything(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)
        await toy.new_round(seed=9)
        await toy.play("draw")
        await toy.play("pass")
        await store.save_guild_settings(GuildSettings(guild_id=1, language="en"))
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert (await store.get_guild_settings(1)).language == "en"
        assert await store.load_round(toy.id, 0) == toy.round.record()
