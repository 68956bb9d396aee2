"""A restart with a thousand tables in one channel, Discord's per-channel limits enforced by the
fake (on the test's clock): the tables clicked since the restart go before the thousand
refreshes, each move shows on its table message within seconds; no turn announced before the
restart is mentioned again, the mentions posted before it are deleted once played, and
nothing meets a 429."""

from __future__ import annotations

from benchmarks.bot.restart_channel import seed_tables
from bot.local.server import LocalDiscord
from bot.ui.discord_notifier import turn_of
from tests.bot.e2e.harness import BotUnderTest

RESTORED = 1_000
EDITS, PER = 5, 5.0
SHOWN_WITHIN = 3.0  # seconds of the test's clock from a move to its table message
THINKING = 3.0  # seconds between a move shown and the next move


def mentions(fake: LocalDiscord) -> dict[int, str]:
    """The channel's messages that mention someone, with their words (reminders included)."""
    return {
        int(m["id"]): str(m["content"])
        for m in fake.channel_messages()
        if "<@" in str(m.get("content") or "")
    }


def limit_channels(harness: BotUnderTest) -> None:
    """From the next start: Discord's per-channel limits, on the test's clock."""
    harness.channel_edits, harness.pacing_clock = (EDITS, PER), harness.clock
    harness.fake.limit_channel_edits(edits=EDITS, per=PER, now=harness.clock.now)
    harness.fake.limit_channel_posts(posts=EDITS, per=PER, now=harness.clock.now)


async def test_after_a_restart_moves_at_two_tables_show_within_seconds_among_a_thousand(
    harness: BotUnderTest,
) -> None:
    fake = harness.fake
    people = [fake.user(name) for name in ("alice", "bob", "carol", "dave")]
    async with harness.running():
        played = [
            await harness.seat_players(people[0], [people[1]]),
            await harness.seat_players(people[2], [people[3]]),
        ]
    seeded = await seed_tables(fake, harness.database, RESTORED)
    limit_channels(harness)

    async with harness.running() as bot:
        await fake.settle(quiet=0.05)
        before = mentions(fake)
        # a move at one table, then at the other: both peeks, then Dutch called (Call
        # Dutch…, then the call): a turn its own player's peek started is not mentioned, the
        # one the call passes on is
        for step in range(8):
            table_id = played[step % 2]
            turn = bot.service.public_snapshot(table_id).to_act[0]
            moved_at = harness.clock.now()
            await harness.act(harness.user_of_seat(table_id, turn), table_id)
            rendered = await bot.notifier.render(table_id)
            assert rendered is not None
            message_id = (await bot.locations.get(table_id)).message_id
            assert message_id is not None
            while not harness.shows(fake.message(message_id), rendered):
                assert harness.clock.now() - moved_at < SHOWN_WITHIN, (
                    f"move {step} did not show on its table message within {SHOWN_WITHIN} s"
                )
                await harness.clock.advance(0.5)
                await fake.settle(quiet=0.02)
            await harness.clock.advance(THINKING)
            await fake.settle(quiet=0.02)
        refreshed = [m for m in seeded.messages if fake.message(m)["components"]]
        assert refreshed, "the restored tables were not refreshed meanwhile"
        # The restored turns were mentioned before the restart: no mention again, and theirs
        # stay until played; only the turns played since are mentioned.
        assert set(seeded.mentions) <= set(mentions(fake))
        posted = [words for i, words in mentions(fake).items() if i not in before]
        assert posted, "the turns played since the restart were not mentioned"
        assert all(any(f"<@{p.id}>" in words for p in people) for words in posted), posted
        assert fake.refused_channel_edits == 0
        assert fake.refused_channel_posts == 0
        await bot.notifier.coalescer.close()  # the refreshes still waiting are not waited for


async def test_a_restart_mentions_no_turn_again_and_deletes_the_mentions_posted_before(
    harness: BotUnderTest,
) -> None:
    fake = harness.fake
    people = [fake.user(name) for name in ("alice", "bob", "carol", "dave")]
    async with harness.running() as bot:
        tables = [
            await harness.seat_players(people[0], [people[1]]),
            await harness.seat_players(people[2], [people[3]]),
        ]
        # both peek, the first to play first: the other's click starts that turn, mentioned
        # (a turn its own player's click starts is shown by its answer, not mentioned)
        for table_id in tables:
            view = bot.service.public_snapshot(table_id).view
            for seat in sorted(range(view.n_seats), key=lambda s: s != view.first_player):
                await harness.act(harness.user_of_seat(table_id, seat), table_id)
        await harness.settle()
        turns = [turn_of(bot.service.public_snapshot(table_id)) for table_id in tables]
        before = mentions(fake)
        assert len(before) == len(tables)
    limit_channels(harness)

    async with harness.running() as bot:
        await harness.settle()
        assert mentions(fake) == before  # nobody mentioned again, nothing deleted yet
        for table_id, turn in zip(tables, turns, strict=True):
            while turn_of(bot.service.public_snapshot(table_id)) == turn:  # played
                assert turn is not None
                await harness.act(harness.user_of_seat(table_id, turn[0]), table_id)
        await harness.settle()
        after = mentions(fake)
        assert not set(after) & set(before), "a mention posted before the restart stayed"
        assert len(after) == len(tables)  # the turns that start now
        for table_id in tables:
            turn = turn_of(bot.service.public_snapshot(table_id))
            assert turn is not None
            user = harness.user_of_seat(table_id, turn[0])
            assert sum(f"<@{user.id}>" in words for words in after.values()) == 1
        assert fake.refused_channel_edits == 0
        assert fake.refused_channel_posts == 0
