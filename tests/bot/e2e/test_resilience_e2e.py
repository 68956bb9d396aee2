"""The bot against a Discord that restarts it, rate limits it, refuses old messages, or
waits on a slow store: tables converge and no click is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.i18n import error_text
from bot.local.server import EPHEMERAL, LocalDiscord
from bot.snapshots import FINISHED, PLAYING, ROUND_OVER
from games.registry import get_game
from storage import SeatRecord, Store
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.leak_checker import card_faces
from tests.bot.e2e.players import choices, message_text, pick, use, verb_choice


async def test_a_restarted_bot_resumes_the_round_and_old_buttons_still_work(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        for user in (alice, bob, carol):
            await harness.act(user, table_id)  # everyone peeks
        turn = bot.service.public_snapshot(table_id).to_act[0]
        mover = harness.user_of_seat(table_id, turn)
        await harness.my_cards(mover, table_id)
        played_before = harness.actions_played(table_id)
        old_table_message = harness.table_message(table_id)
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        old_private = harness.private_choices(mover, round_no)

    async with harness.running() as bot:
        checker = harness.leak_checker()
        assert bot.service.public_snapshot(table_id).status == PLAYING
        assert harness.actions_played(table_id) == played_before
        # A button of the player's ephemeral message, made by the previous process.
        choice = pick(old_private, ("draw",))
        assert choice is not None and choice.notation == "draw"
        await use(harness.fake, mover, choice)
        await harness.settle()
        assert harness.actions_played(table_id) == played_before + 1
        # The old table message's "My cards" still answers.
        hand = verb_choice(old_table_message, "hand")
        assert hand is not None
        answer = await use(harness.fake, bob, hand)
        assert answer.requests[0].ephemeral
        await harness.play_to_the_end(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_the_table_message_converges_when_discord_rate_limits_its_edits(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        # More refusals than discord.py's own five tries: the bot's coalescer must retry later.
        # Counted, not timed, so a slow machine meets the same refusals.
        harness.fake.rate_limit_table_edits(count=8, retry_after=0.05)
        await harness.play_to_the_end(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        refused = [r for r in harness.fake.requests if r.status == 429]
        assert len(refused) >= 5, "discord.py gives up after five tries: then the bot retries"
        checker.assert_clean()


async def test_a_table_message_too_old_to_edit_is_posted_anew_and_play_goes_on(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        old = await harness.stored_table_message(table_id)
        harness.fake.too_old_to_edit.add(int(old["id"]))
        await harness.act(alice, table_id)  # a change: the bot must edit the table message
        await harness.settle()
        new = await harness.stored_table_message(table_id)
        assert new["id"] != old["id"]
        refused = [r for r in harness.fake.requests if r.status == 400]
        assert refused and {r.path.rsplit("/", 1)[-1] for r in refused} == {old["id"]}
        await harness.play_to_the_end(table_id)
        assert bot.service.public_snapshot(table_id).status == FINISHED
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_a_slow_store_makes_the_bot_defer_within_three_seconds_then_answer(
    harness: BotUnderTest,
) -> None:
    """Discord drops an interaction not answered within 3 s (the fake enforces it)."""
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        record_action = bot.store.record_action

        async def slow_record_action(*args: object, **kwargs: object) -> None:
            await asyncio.sleep(2.3)  # past the bot's 2 s deferral point, within Discord's 3 s
            await record_action(*args, **kwargs)  # type: ignore[arg-type]

        bot.store.record_action = slow_record_action  # type: ignore[method-assign]
        peek = await harness.act(alice, table_id)
        await harness.fake.wait_for(lambda: len(peek.requests) > 1, what="the deferred answer")
        await harness.settle()
        deferral, *answers = peek.requests
        assert deferral.payload["type"] == 6 and deferral.ok
        assert answers and all(r.ok and r.ephemeral for r in answers)
        assert len(card_faces([r.payload for r in answers])) == 2
        assert harness.actions_played(table_id) == 1
        checker.assert_clean()


async def test_a_restart_in_the_lobby_and_between_rounds_loses_nothing(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.open_table(alice, target=1000)
        await harness.press(bob, table_id, "join")
    async with harness.running() as bot:
        await harness.press(carol, table_id, "join")  # the lobby message's button, made before
        harness.stack_decks(table_id, range(301, 311))
        await harness.press(alice, table_id, "start")
        await harness.play_round(table_id)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER
        totals = snapshot.totals
    async with harness.running() as bot:
        checker = harness.leak_checker()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER and snapshot.totals == totals
        await harness.next_round(table_id)
        await harness.play_round(table_id)
        assert bot.service.public_snapshot(table_id).totals != totals
        await harness.assert_table_message_converged(table_id)
        checker.assert_clean()


async def test_a_burst_of_clicks_makes_no_more_table_edits_than_moves(
    fake_discord: LocalDiscord, tmp_path: Path, no_errors_logged: None
) -> None:
    """Edits are coalesced (1 s in production, as here), but a table being played shows each
    move at once: three peeks at once make no more edits than peeks, and the message ends
    showing them all."""
    harness = BotUnderTest(fake_discord, tmp_path / "cardtable.sqlite3", edit_delay=1.0)
    alice, bob, carol = players(fake_discord)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        round_no = bot.service.public_snapshot(table_id).round_no
        for user in (alice, bob, carol):
            await harness.my_cards(user, table_id)
        await harness.settle()
        edits_before = _table_edits(fake_discord)
        peeks = [
            next(
                c
                for c in harness.private_choices(user, round_no or 0)
                if c.action.startswith("peek")
            )
            for user in (alice, bob, carol)
        ]
        clicks = await asyncio.gather(
            *(
                use(fake_discord, user, c)
                for user, c in zip((alice, bob, carol), peeks, strict=True)
            )
        )
        for click in clicks:
            await click.wait_answered()
        await harness.settle()
        assert harness.actions_played(table_id) == 3
        assert edits_before < _table_edits(fake_discord) <= edits_before + 3
        await harness.assert_table_message_converged(table_id)


def _table_edits(fake: LocalDiscord) -> int:
    return sum(1 for r in fake.requests if r.route.startswith("PATCH /channels/") and r.ok)


async def test_a_start_refused_after_the_deferral_is_told_to_the_host_alone(
    harness: BotUnderTest,
) -> None:
    """Past 2 s the bot defers `/dutch start` with a public "thinking…" message. A refusal then
    must not take that public message's place: only the host reads it."""
    alice, _bob, _carol = players(harness.fake)
    refusal = error_text("en", "store_failed", error_id="").partition(" (")[0]
    async with harness.running() as bot:

        async def slow_failing_create_table(*args: object, **kwargs: object) -> None:
            await asyncio.sleep(2.3)  # past the bot's 2 s deferral point, within Discord's 3 s
            raise OSError("disk full")

        bot.store.create_table = slow_failing_create_table  # type: ignore[method-assign]
        answer = await harness.fake.slash(alice, "dutch start")
        await harness.fake.wait_for(
            lambda: any(refusal in str(r.payload) for r in answer.requests), what="the refusal"
        )
        await harness.settle()
        told = [m for m in harness.fake.messages.values() if refusal in (m.get("content") or "")]
        assert len(told) == 1 and int(told[0]["flags"]) & EPHEMERAL
        assert harness.table_ids() == []


RESTORED_IN_ONE_CHANNEL = 40


async def test_after_a_restart_the_table_in_play_keeps_up_within_the_channels_edit_limit(
    harness: BotUnderTest,
) -> None:
    """Discord allows about 5 edits per 5 s in a channel (the fake enforces it on the test's
    clock). After a restart with many tables in one channel, the table being played is shown
    at once after each move; the restored tables are refreshed meanwhile; nothing gets 429."""
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
    fake = harness.fake
    store = await Store.open(harness.database, synchronous="NORMAL")
    options = get_game("dutch").options().model_dump(mode="json")
    seeded = []
    try:
        for i in range(RESTORED_IN_ONE_CHANNEL):
            host = 9_000 + i
            record = await store.create_table(
                fake.guild_id, fake.channel_id, "dutch", options, host
            )
            await store.save_seats(record.id, [SeatRecord(seat=0, user_id=host, display_name="P")])
            message = fake.seed_message(fake.channel_id, {"content": "an old table message"})
            await store.update_table(record.id, message_id=int(message["id"]))
            seeded.append(int(message["id"]))
    finally:
        await store.close()
    harness.channel_edits, harness.pacing_clock = (5, 5.0), harness.clock
    fake.limit_channel_edits(edits=5, per=5.0, now=harness.clock.now)

    async with harness.running() as bot:
        await bot.service.restoring.wait()
        restarted_at = harness.clock.now()
        await fake.settle(quiet=0.05)
        for _ in range(6):  # moves; the table message follows each within seconds
            turn = bot.service.public_snapshot(table_id).to_act[0]
            await harness.act(harness.user_of_seat(table_id, turn), table_id)
            converged = False
            for _ in range(6):
                await fake.settle(quiet=0.05)
                shown = await harness.stored_table_message(table_id)
                rendered = await bot.notifier.render(table_id)
                assert rendered is not None
                converged = harness.shows(shown, rendered)
                if converged:
                    break
                await harness.clock.advance(1.0)
            assert converged, "the table in play fell behind the refreshes"
            await harness.clock.advance(2.0)  # the next player thinks a little
        stale = seeded
        for _ in range(200):  # the restored tables' refreshes: 2, then 4, per 5 s
            stale = [m for m in seeded if not fake.message(m)["components"]]
            if not stale:
                break
            await harness.clock.advance(1.0)
            await fake.settle(quiet=0.02)
        assert stale == [], "restored tables were never refreshed"
        assert harness.clock.now() - restarted_at < 2 * RESTORED_IN_ONE_CHANNEL
        assert fake.refused_channel_edits == 0


async def test_after_a_restart_the_table_message_shows_what_it_showed(
    harness: BotUnderTest,
) -> None:
    """Mid-round and between rounds: the message rendered after the restart (its last
    actions, the round's end) is the one shown before it."""
    alice, bob, carol = players(harness.fake)
    harness.choose = lambda offered: pick(offered, ("peek", "draw", "discard", "skip", "end"))
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        for _ in range(14):  # the peeks and a few turns: more lines than the log keeps
            snapshot = bot.service.public_snapshot(table_id)
            await harness.act(harness.user_of_seat(table_id, snapshot.to_act[0]), table_id)
        await harness.settle()
        assert bot.service.public_snapshot(table_id).log
        mid_round = await bot.notifier.render(table_id)
    async with harness.running() as bot:
        restored = await bot.notifier.render(table_id)
        assert mid_round is not None and restored is not None
        assert restored.embed.to_dict() == mid_round.embed.to_dict()
        harness.choose = lambda offered: pick(offered, ("dutch", "draw", "discard", "skip"))
        await harness.play_round(table_id)
        assert bot.service.public_snapshot(table_id).status == ROUND_OVER
        round_end = await bot.notifier.render(table_id)
    async with harness.running() as bot:
        restored = await bot.notifier.render(table_id)
        assert round_end is not None and restored is not None
        assert restored.embed.to_dict() == round_end.embed.to_dict()


async def test_the_next_round_shows_in_the_same_message_without_the_countdown(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.seat_players(alice, [bob, carol], target=1000)
        await harness.play_round(table_id)
        round_end = await harness.stored_table_message(table_id)
        assert "next round starts" in message_text(round_end)
        await harness.next_round(table_id)
        await harness.settle()
        shown = harness.fake.message(int(round_end["id"]))  # one live message per table
        assert "next round starts" not in message_text(shown)
        assert "Round 2 starts." in message_text(shown) and choices(shown)
        assert bot.service.public_snapshot(table_id).status == PLAYING
