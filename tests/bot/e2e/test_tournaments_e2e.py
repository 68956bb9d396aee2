"""Tournaments through the real bot and the fake Discord: `/tournament create`, Sign up and
Check in clicked, sign-up and check-in closed on the fake clock, each round's tables opened
in threads with their players mentioned, a no-show's seat played by a bot, the matches
played through the real clicks, results read from the matches, standings after each round
and the podium; a restart in the middle resumes the event where it was."""

from __future__ import annotations

from typing import Any

import pytest

from bot.local.records import LocalUser
from bot.tournaments import MOST_EVENTS_PER_SERVER
from games.tournament.event import FINISHED, RUNNING
from storage.errors import StoreError
from tests.bot.e2e.harness import EIGHT, BotUnderTest, assert_one_short_private_sentence

MINUTE = 60.0


def tournament_message(harness: BotUnderTest, tournament_id: int) -> dict[str, Any]:
    stored = harness.live.tournaments.events.get(tournament_id)
    assert stored is not None and stored.message_id is not None
    return harness.fake.message(stored.message_id)


async def click(
    harness: BotUnderTest,
    user: LocalUser,
    message_id: int,
    custom_id: str,
    locale: str = "en-US",
    *,
    stale: bool = False,
) -> str:
    """A click on a tournament button (`stale`: one the message no longer or not yet shows,
    from a client showing another version of it): its one private sentence."""
    clicked = await harness.fake.click(user, message_id, custom_id, locale=locale, absent=stale)
    await clicked.wait_answered()
    await harness.settle()
    return assert_one_short_private_sentence(clicked)


async def create(harness: BotUnderTest, **options: Any) -> int:
    """`/tournament create` by the admin: the new event's id (ids grow)."""
    _, shown = await harness.ask(harness.fake.admin, "tournament create", **options)
    assert shown["embeds"], shown
    return max(harness.live.tournaments.events)


async def until_round_tables(harness: BotUnderTest, tournament_id: int) -> list[int]:
    """The bot tables of the event's current round, once its background steps are done."""
    await harness.live.tournaments.idle()
    await harness.settle()
    stored = harness.live.tournaments.events.get(tournament_id)
    if stored is None:
        return []
    current = stored.event.current()
    assert current is not None
    return [t.table_id for t in current.tables if t.table_id is not None and not t.done]


def texts(harness: BotUnderTest) -> list[str]:
    found = []
    for message in harness.fake.channel_messages():
        found.append(str(message.get("content") or ""))
        for embed in message.get("embeds") or []:
            found.append(f"{embed.get('title', '')}\n{embed.get('description', '')}")
    return found


async def test_a_swiss_tournament_of_dutch_runs_to_its_podium_across_a_restart(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    fake = harness.fake
    alice, bob, carol, dave, erin = (fake.user(n) for n in EIGHT[:5])
    async with harness.running() as bot:
        refused = await harness.fake.slash(alice, "tournament create", game="dutch")
        await refused.wait_answered()
        assert "Manage Server" in assert_one_short_private_sentence(refused)

        tournament_id = await create(
            harness, game="dutch", format="swiss", rounds=2, start_in=3, checkin=1, target=10
        )
        message_id = int(tournament_message(harness, tournament_id)["id"])
        signup = f"tn:{tournament_id}:signup"
        for user in (alice, bob, carol, dave):
            said = await click(harness, user, message_id, signup)
            assert f"signed up for tournament #{tournament_id}" in said
        assert "already signed up" in await click(harness, alice, message_id, signup)
        early = await click(harness, erin, message_id, f"tn:{tournament_id}:checkin", stale=True)
        assert "out of date" in early  # not on the message yet: a button of another version
        shown = tournament_message(harness, tournament_id)["embeds"][0]
        assert "Players (4/256)" in shown["fields"][0]["name"]

        await harness.clock.advance(2 * MINUTE)  # sign-up closes, check-in opens
        await harness.settle()
        assert "check-in is open" in "\n".join(texts(harness))
        checkin = f"tn:{tournament_id}:checkin"
        for user in (alice, bob, carol):  # dave does not: a bot plays his seat
            assert "checked in" in await click(harness, user, message_id, checkin)
        withdraw = f"tn:{tournament_id}:withdraw"
        french = await click(harness, erin, message_id, withdraw, locale="fr")
        assert french == "Vous n'avez pas d'inscription à ce tournoi."
        assert "already checked in" in await click(harness, alice, message_id, checkin)

    # a restart before the start: the event's timer is armed again from the store
    async with harness.running() as bot:
        await bot.tournaments.resumed.wait()
        await harness.clock.advance(MINUTE)  # the start: round 1
        tables = await until_round_tables(harness, tournament_id)
        assert len(tables) == 2
        event = bot.tournaments.events[tournament_id].event
        assert event.status == RUNNING and event.absent() == {dave.id}
        seated_bots = [
            s.name for t in tables for s in bot.service.public_snapshot(t).seats if s.is_bot
        ]
        assert seated_bots == ["Bot for Dave"]
        for table_id in tables:
            where = bot.service.public_snapshot(table_id).channel_id
            assert where != fake.channel_id  # a thread of its own
            mentions = [m for m in fake.channel_messages(where) if "<@" in (m["content"] or "")]
            assert mentions, "the table's players are mentioned in its thread"
        await harness.play_to_the_end(tables[0])

    # a restart with one table of the round over and one in play
    async with harness.running() as bot:
        await bot.tournaments.resumed.wait()
        for table_id in await until_round_tables(harness, tournament_id):
            await harness.play_to_the_end(table_id)
        second = await until_round_tables(harness, tournament_id)
        assert len(second) == 2, "round 2 opened once round 1 was over"
        assert any("standings after round 1" in t for t in texts(harness))
        for table_id in second:
            await harness.play_to_the_end(table_id)
        await bot.tournaments.idle()
        await harness.settle()
        stored = await bot.store.tournaments.load(tournament_id)
        assert stored.event.status == FINISHED
        every = "\n".join(texts(harness))
        assert "standings after round 2" in every
        assert f"Dutch tournament #{tournament_id} is over! 🥇" in every
        # no rematch in a Swiss of four over two rounds
        met = [
            frozenset(u for side in t.sides for u in side)
            for r in stored.event.rounds
            for t in r.tables
        ]
        assert len(met) == len(set(met)) == 4


async def sign_up_and_check_in(
    harness: BotUnderTest, tournament_id: int, users: list[LocalUser], *, start_in: int
) -> None:
    """Everyone signs up, then checks in; the clock is moved to the start."""
    message_id = int(tournament_message(harness, tournament_id)["id"])
    for user in users:
        await click(harness, user, message_id, f"tn:{tournament_id}:signup")
    await harness.clock.advance((start_in - 1) * MINUTE)
    await harness.settle()
    for user in users:
        await click(harness, user, message_id, f"tn:{tournament_id}:checkin")
    await harness.clock.advance(MINUTE)


async def play_rounds(harness: BotUnderTest, tournament_id: int, rounds: int) -> None:
    """Play every table of `rounds` rounds (each person plays what the simple bot would)."""
    for _ in range(rounds):
        tables = await until_round_tables(harness, tournament_id)
        assert tables, "a round opened"
        for table_id in tables:
            await harness.play_to_the_end(table_id, as_the_bot=True)
    await harness.live.tournaments.idle()
    await harness.settle()


async def test_a_round_robin_meets_everyone_once_and_a_restart_keeps_the_table_timer(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT[:3]]
    async with harness.running():
        tournament_id = await create(
            harness, game="dutch", format="round_robin", start_in=2, checkin=1, target=10, timer=45
        )
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        await play_rounds(harness, tournament_id, 1)
        (table_id,) = await until_round_tables(harness, tournament_id)
    async with harness.running() as bot:  # a restart with round 2 in play
        await bot.tournaments.resumed.wait()
        assert bot.service._table(table_id).turn_seconds == 45  # the event's, not the server's
        await play_rounds(harness, tournament_id, 2)
        stored = await bot.store.tournaments.load(tournament_id)
        assert stored.event.status == FINISHED and len(stored.event.rounds) == 3
        met = [
            frozenset(u for s in t.sides for u in s) for r in stored.event.rounds for t in r.tables
        ]
        assert sorted(map(sorted, met)) == [[0, 1], [0, 2], [1, 2]]
        assert sorted(b for r in stored.event.rounds for b in r.byes) == [0, 1, 2]
        assert "is over! 🥇" in "\n".join(texts(harness))


async def test_an_elimination_of_euchre_by_fixed_teams_ends_with_its_final(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT]
    async with harness.running():
        tournament_id = await create(
            harness, game="euchre", format="elimination", start_in=2, checkin=1, target=3
        )
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        semis = await until_round_tables(harness, tournament_id)
        assert len(semis) == 2
        for table_id in semis:  # partners sit opposite: a team at places 0 and 2
            seats = harness.live.service.public_snapshot(table_id).seats
            stored = harness.live.tournaments.events[tournament_id]
            table = next(t for t in stored.event.current().tables if t.table_id == table_id)
            team = set(stored.event.units[table.sides[0][0]])
            assert {seats[0].user_id, seats[2].user_id} == team
        await harness.play_to_the_end(semis[0], as_the_bot=True)
    async with harness.running() as bot:
        await bot.tournaments.resumed.wait()
        await harness.play_to_the_end(semis[1], as_the_bot=True)
        await play_rounds(harness, tournament_id, 1)  # the final
        stored = await bot.store.tournaments.load(tournament_id)
        assert stored.event.status == FINISHED and len(stored.event.rounds) == 2
        champion, runner_up, _ = stored.event.podium()
        final = stored.event.rounds[-1].tables[0]
        assert {champion, runner_up} == {u for side in final.sides for u in side}
        podium_line = next(t for t in texts(harness) if "is over!" in t)
        assert " & ".join(stored.event.names(champion)) in podium_line


async def test_rotating_partners_change_partner_each_round_in_french(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT[:5]]
    async with harness.running():
        await harness.ask(harness.fake.admin, "settings", language="fr")
        tournament_id = await create(
            harness,
            game="euchre",
            partners="rotating",
            rounds=2,
            start_in=2,
            checkin=1,
            target=3,
        )
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        await play_rounds(harness, tournament_id, 2)
        stored = await harness.live.store.tournaments.load(tournament_id)
        assert stored.event.status == FINISHED
        partners = [frozenset(s) for r in stored.event.rounds for t in r.tables for s in t.sides]
        assert len(partners) == len(set(partners)) == 4  # nobody has the same partner twice
        assert len({b for r in stored.event.rounds for b in r.byes}) == 2  # byes at most once
        every = "\n".join(texts(harness))
        assert "classement après la manche 2" in every and "est terminé ! 🥇" in every


def test_the_mentions_of_a_full_event_fit_discords_messages() -> None:
    from bot.tournaments import MESSAGE_CHARACTERS, MOST_PLAYERS, mention_lines

    ids = [10**18 + n for n in range(MOST_PLAYERS)]
    lines = mention_lines(ids)
    assert all(len(line) <= MESSAGE_CHARACTERS for line in lines) and len(lines) > 1
    assert " ".join(lines).split() == [f"<@{i}>" for i in ids]  # each once, in order


async def test_caps_a_cancel_and_too_few_players_each_say_one_sentence(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    alice, bob = (harness.fake.user(n) for n in EIGHT[:2])
    async with harness.running() as bot:
        first = await create(harness, game="dutch", start_in=5, checkin=1)
        for _ in range(MOST_EVENTS_PER_SERVER - 1):
            await create(harness, game="dame", start_in=5, checkin=1)
        refused = await harness.fake.slash(harness.fake.admin, "tournament create", game="dutch")
        await refused.wait_answered()
        assert f"already runs {MOST_EVENTS_PER_SERVER} tournaments" in (
            assert_one_short_private_sentence(refused)
        )
        late = await harness.fake.slash(
            harness.fake.admin, "tournament create", game="euchre", start_in=5, checkin=5
        )
        await late.wait_answered()
        assert "Check-in must end" in assert_one_short_private_sentence(late)
        unknown = await harness.fake.slash(
            harness.fake.admin, "tournament create", game="dutch", preset="nope", locale="fr"
        )
        await unknown.wait_answered()
        assert assert_one_short_private_sentence(unknown) == (
            "Le jeu Dutch n'a pas de règles nommées nope."
        )

        message_id = int(tournament_message(harness, first)["id"])
        await click(harness, alice, message_id, f"tn:{first}:signup")
        not_yours = await harness.fake.slash(bob, "tournament cancel", tournament=first)
        await not_yours.wait_answered()
        assert "Manage Server" in assert_one_short_private_sentence(not_yours)
        cancelled = await harness.fake.slash(
            harness.fake.admin, "tournament cancel", tournament=first
        )
        await cancelled.wait_answered()
        await harness.settle()
        assert f"#{first} is cancelled" in assert_one_short_private_sentence(cancelled)
        assert first not in bot.tournaments.events  # no longer open
        message = harness.fake.message(message_id)
        assert "Cancelled." in message["embeds"][0]["description"]
        assert not message.get("components")  # its buttons are gone
        gone = await click(harness, bob, message_id, f"tn:{first}:signup", stale=True)
        assert "out of date" in gone or "no such tournament" in gone

        # the second event: one player only checks in, so it cannot start
        second = sorted(bot.tournaments.events)[0]
        second_message = int(tournament_message(harness, second)["id"])
        await click(harness, alice, second_message, f"tn:{second}:signup")
        await harness.clock.advance(4 * MINUTE)
        await harness.settle()
        await click(harness, alice, second_message, f"tn:{second}:checkin")
        await harness.clock.advance(MINUTE)
        await bot.tournaments.idle()
        await harness.settle()
        assert second not in bot.tournaments.events
        assert any("cancelled: fewer than 4 players" in t for t in texts(harness))
        _, asked = await harness.ask(bob, "tournament show", tournament=second)
        assert "Cancelled." in asked["embeds"][0]["description"]


async def test_a_stop_while_a_table_is_being_seated_resumes_seating_it(
    eight_players: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops between opening a table (stored, its host seated) and seating the
    others: the restart seats them and starts it, and the event goes on to its end."""
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT[:2]]
    async with harness.running() as bot:
        tournament_id = await create(
            harness, game="dutch", rounds=1, start_in=2, checkin=1, target=10
        )

        async def stopped(*_: object, **__: object) -> None:
            raise StoreError("the process stops here")

        monkeypatch.setattr(bot.service.seating, "join", stopped)
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        await bot.tournaments.idle()
        await harness.settle()
        (table,) = bot.tournaments.events[tournament_id].event.rounds[0].tables
        assert table.table_id is not None
        lobby = bot.service.public_snapshot(table.table_id)
        assert lobby.status == "lobby" and len(lobby.seats) == 1
    monkeypatch.undo()
    async with harness.running() as bot:
        await bot.tournaments.resumed.wait()
        snapshot = bot.service.public_snapshot(table.table_id)
        assert snapshot.status == "playing"
        assert {s.user_id for s in snapshot.seats} == {u.id for u in users}
        await harness.play_to_the_end(table.table_id, as_the_bot=True)
        await bot.tournaments.idle()
        await harness.settle()
        stored = await bot.store.tournaments.load(tournament_id)
        assert stored.event.status == FINISHED


async def test_a_stop_between_opening_a_table_and_noting_it_finds_that_table_again(
    eight_players: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops right after the table service opened a table (its host seated in the
    lobby, in the table's thread) and before the event noted which table it was: the restart
    finds that lobby in the thread, seats the other player and starts it; no second table."""
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT[:2]]
    async with harness.running() as bot:
        tournament_id = await create(
            harness, game="dutch", rounds=1, start_in=2, checkin=1, target=10
        )

        async def stopped(*_: object, **__: object) -> None:
            raise StoreError("the process stops here")

        monkeypatch.setattr(bot.store.tournaments.__class__, "set_table", stopped)
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        await bot.tournaments.idle()
        await harness.settle()
        (table,) = bot.tournaments.events[tournament_id].event.rounds[0].tables
        assert table.place is not None and table.place != harness.fake.channel_id
        (lobby,) = bot.service.tables_in_channel(table.place)
        assert bot.service.public_snapshot(lobby).status == "lobby"
    monkeypatch.undo()
    async with harness.running() as bot:
        await bot.tournaments.resumed.wait()
        await harness.settle()
        assert bot.service.tables_in_channel(table.place) == [lobby]  # the same one
        snapshot = bot.service.public_snapshot(lobby)
        assert snapshot.status == "playing" and not any(s.is_bot for s in snapshot.seats)
        await harness.play_to_the_end(lobby, as_the_bot=True)
        await bot.tournaments.idle()
        await harness.settle()
        assert (await bot.store.tournaments.load(tournament_id)).event.status == FINISHED


async def test_a_stop_before_a_started_table_is_posted_posts_it_at_the_restart(
    eight_players: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops after starting a table's match and before posting its message: the
    restart posts it in the table's thread and mentions its players, and it is played."""
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT[:2]]
    async with harness.running() as bot:
        tournament_id = await create(
            harness, game="dutch", rounds=1, start_in=2, checkin=1, target=10
        )

        async def stopped(*_: object, **__: object) -> None:
            raise StoreError("the process stops here")

        monkeypatch.setattr(bot.notifier, "post", stopped)
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        await bot.tournaments.idle()
        await harness.settle()
        (table,) = bot.tournaments.events[tournament_id].event.rounds[0].tables
        assert table.table_id is not None and table.place is not None
        assert bot.service.public_snapshot(table.table_id).status == "playing"
        assert (await bot.locations.get(table.table_id)).message_id is None
    monkeypatch.undo()
    async with harness.running() as bot:
        await bot.tournaments.resumed.wait()
        await harness.settle()
        assert (await bot.locations.get(table.table_id)).message_id is not None
        said = [m["content"] for m in harness.fake.channel_messages(table.place)]
        assert any(f"<@{users[0].id}>" in (c or "") for c in said)
        await harness.play_to_the_end(table.table_id, as_the_bot=True)
        await bot.tournaments.idle()
        await harness.settle()
        assert (await bot.store.tournaments.load(tournament_id)).event.status == FINISHED


async def test_a_podium_a_stop_cut_off_is_posted_at_the_restart(
    eight_players: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last result is stored and the bot stops before the end is announced: the restart
    posts the last standings and the podium, once."""
    harness = eight_players
    users = [harness.fake.user(n) for n in EIGHT[:2]]
    async with harness.running() as bot:
        tournament_id = await create(
            harness, game="dutch", rounds=1, start_in=2, checkin=1, target=10
        )
        await sign_up_and_check_in(harness, tournament_id, users, start_in=2)
        (table_id,) = await until_round_tables(harness, tournament_id)

        async def stopped(*_: object, **__: object) -> None:
            raise StoreError("the process stops here")

        runner = bot.tournaments
        monkeypatch.setattr(runner, "_round_over", stopped)
        await harness.play_to_the_end(table_id, as_the_bot=True)
        await runner.idle()
        await harness.settle()
        assert (await bot.store.tournaments.load(tournament_id)).event.status == FINISHED
        assert not any("is over!" in t for t in texts(harness))
    monkeypatch.undo()
    for _ in range(2):  # started, then restarted: announced by the first start only
        async with harness.running() as bot:
            await bot.tournaments.resumed.wait()
            await harness.settle()
            every = texts(harness)
            assert sum("is over! 🥇" in t for t in every) == 1
            assert sum("standings after round 1" in t for t in every) == 1


async def test_a_no_show_forfeits_when_the_event_says_so_and_no_bot_takes_their_seat(
    eight_players: BotUnderTest,
) -> None:
    """`no_show: forfeit`: an entrant who did not check in is out of the event (no unit, no
    seat, no bot for them); the others play it to its end."""
    harness = eight_players
    alice, bob, carol, dave = (harness.fake.user(n) for n in EIGHT[:4])
    async with harness.running() as bot:
        tournament_id = await create(
            harness, game="dutch", rounds=1, start_in=2, checkin=1, target=10, no_show="forfeit"
        )
        message_id = int(tournament_message(harness, tournament_id)["id"])
        for user in (alice, bob, carol, dave):
            await click(harness, user, message_id, f"tn:{tournament_id}:signup")
        await harness.clock.advance(MINUTE)
        await harness.settle()
        for user in (alice, bob, carol):  # dave does not
            await click(harness, user, message_id, f"tn:{tournament_id}:checkin")
        await harness.clock.advance(MINUTE)
        (table_id,) = await until_round_tables(harness, tournament_id)
        event = bot.tournaments.events[tournament_id].event
        assert dave.id not in {u for unit in event.units for u in unit}
        assert event.absent() == set() and len(event.rounds[0].byes) == 1
        seats = bot.service.public_snapshot(table_id).seats
        assert not any(s.is_bot for s in seats) and dave.id not in {s.user_id for s in seats}
        await play_rounds(harness, tournament_id, 1)
        stored = await bot.store.tournaments.load(tournament_id)
        assert stored.event.status == FINISHED
        shown = standings_text(harness)
        assert all(u.name.title() in shown for u in (alice, bob, carol))
        assert dave.name.title() not in shown


def standings_text(harness: BotUnderTest) -> str:
    return "\n".join(t for t in texts(harness) if "standings after round" in t)
