"""Tournaments through the real bot and the fake Discord: `/tournament create`, Sign up and
Check in clicked, sign-up and check-in closed on the fake clock, each round's tables opened
in threads with their players mentioned, a no-show's seat played by a bot, the matches
played through the real clicks, results read from the matches, standings after each round
and the podium; a restart in the middle resumes the event where it was."""

from __future__ import annotations

from typing import Any

from bot.local.records import LocalUser
from games.tournament.event import FINISHED, RUNNING
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
