"""Tournaments in the store (storage/tournaments.py, migration V16), on both backends: every
transition written is read back as the same event, so a restart resumes it where it was."""

from __future__ import annotations

from games.tournament.event import CHECKIN, FINISHED, RUNNING, SWISS
from storage import Store
from storage.tournaments import TournamentSettings

GUILD, CHANNEL, ADMIN = 1, 9, 500


async def new_event(store: Store, *, seats: int = 2, partners: str | None = None) -> int:
    return await store.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ADMIN,
        game="dutch",
        preset="classic",
        target=None,
        settings=TournamentSettings(format=SWISS, seats=seats, rounds=2, partners=partners),
        signup_closes_at=1000.0,
        starts_at=1600.0,
    )


async def test_an_event_stored_at_each_step_reads_back_as_it_was(store: Store) -> None:
    tournament_id = await new_event(store)
    stored = await store.tournaments.load(tournament_id)
    event = stored.event
    for user in (11, 12, 13):
        await store.tournaments.add_entrant(tournament_id, event.sign_up(user, f"u{user}", 64))
    event.open_checkin()
    await store.tournaments.save_status(tournament_id, event)
    for user in (11, 13):
        event.check_in(user)
        await store.tournaments.check_in(tournament_id, user)
    event.start(seed=7)
    await store.tournaments.save_status(tournament_id, event)
    first = event.next_round()
    await store.tournaments.save_round(tournament_id, event, first)
    await store.tournaments.set_table(tournament_id, 1, 1, 4242)
    first.tables[0].table_id = 4242
    assert await store.tournaments.of_table(4242) == (tournament_id, 1, 1)

    again = (await store.tournaments.load(tournament_id)).event
    assert again == event
    assert again.status == RUNNING and again.absent() == {12}

    event.record(1, 1, [0])
    await store.tournaments.record_result(tournament_id, event, 1, 1, [0])
    second = event.next_round()
    await store.tournaments.save_round(tournament_id, event, second)
    for table in second.tables:
        event.record(2, table.number, [1])
        await store.tournaments.record_result(tournament_id, event, 2, table.number, [1])
    assert event.status == FINISHED
    assert (await store.tournaments.load(tournament_id)).event == event
    # finished, its end not announced yet: still listed, so a restart posts it
    assert [t.id for t in await store.tournaments.open_ones()] == [tournament_id]
    await store.tournaments.set_announced(tournament_id, 2)  # both rounds' standings
    assert [t.announced for t in await store.tournaments.open_ones()] == [2]
    await store.tournaments.set_announced(tournament_id, 3)  # and the podium
    assert await store.tournaments.open_ones() == []


async def test_open_events_are_listed_and_a_withdrawal_is_kept(store: Store) -> None:
    first = await new_event(store)
    second = await new_event(store, seats=4, partners="rotating")
    stored = await store.tournaments.load(second)
    entrant = stored.event.sign_up(21, "Zoé", 64)
    await store.tournaments.add_entrant(second, entrant)
    await store.tournaments.add_entrant(second, stored.event.sign_up(22, "Yan", 64))
    stored.event.withdraw(21)
    await store.tournaments.remove_entrant(second, 21)
    stored.event.open_checkin()
    await store.tournaments.save_status(second, stored.event)
    await store.tournaments.set_message(second, 777)
    listed = await store.tournaments.open_ones()
    assert [t.id for t in listed] == [first, second]
    back = listed[1]
    assert back.message_id == 777 and back.event.status == CHECKIN
    assert [e.name for e in back.event.entrants] == ["Yan"]
    assert back.settings.partners == "rotating" and back.starts_at == 1600.0
    assert await store.tournaments.of_guild(GUILD) == [second, first]


async def test_forgetting_a_guild_deletes_its_tournaments(store: Store) -> None:
    tournament_id = await new_event(store)
    stored = await store.tournaments.load(tournament_id)
    await store.tournaments.add_entrant(tournament_id, stored.event.sign_up(11, "u", 64))
    await store.forget_guild(GUILD)
    assert await store.tournaments.of_guild(GUILD) == []
    assert await store.tournaments.of_table(4242) is None
