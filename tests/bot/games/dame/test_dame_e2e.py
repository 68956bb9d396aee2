"""Dame de Pique end to end: the real bot against the fake Discord. One player and three bot
players play a whole match to a low target through `/dame start` and clicks; every payload
is checked for a card of another hand or of the stock."""

from __future__ import annotations

import random

from bot.snapshots import FINISHED, PLAYING, PublicSnapshot
from bot.ui.custom_ids import play_id
from tests.bot.e2e.harness import (
    EIGHT,
    BotUnderTest,
    assert_one_short_private_sentence,
    players,
)
from tests.bot.e2e.players import answer_text, pick_at_random, use, verb_choice

TARGET = 60  # one or two hands


async def test_one_player_and_three_bots_play_a_whole_match_and_no_card_leaks(
    harness: BotUnderTest,
) -> None:
    alice, _, _ = players(harness.fake)
    rng = random.Random(11)
    harness.choose = lambda offered: pick_at_random(offered, rng, rare=("announce",))
    async with harness.running() as bot:
        checker = harness.leak_checker()
        rules = await harness.fake.slash(alice, "dame rules")
        await rules.wait_answered()
        assert "Dame de Pique" in answer_text(harness.fake, rules)
        table_id = await harness.start_with_bots(alice, "dame", 3, target=TARGET)
        service = bot.service
        kinds: set[str] = set()

        def watch(snapshot: PublicSnapshot) -> None:
            """Alice alone is ever asked (the bots moved); the kinds of moves played."""
            assert snapshot.status != PLAYING or snapshot.to_act == (0,)
            table = service._table(table_id)
            if table.round is not None:
                kinds.update(action.kind for _, action in table.round.history)

        await harness.play_to_the_end(table_id, max_moves=3_000, watch=watch)
        assert service.public_snapshot(table_id).status == FINISHED
        assert {"draw", "meld", "discard"} <= kinds
        message = harness.table_message(table_id)
        assert verb_choice(message, "rematch") is not None
        checker.assert_clean()
        assert checker.checked > 20
        assert all(r.status != 400 for r in harness.fake.requests)


async def test_four_players_play_a_match_and_bad_clicks_get_one_sentence(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    users = [harness.fake.user(name) for name in EIGHT[:4]]
    rng = random.Random(5)
    harness.choose = lambda offered: pick_at_random(offered, rng, rare=("announce",))
    async with harness.running() as bot:
        checker = harness.leak_checker()
        # dealt at random (no deck stacked), as the seed source draws it
        table_id = await harness.seat_players(
            users[0], users[1:], game="dame", decks=(), target=TARGET
        )
        service = bot.service
        snapshot = service.public_snapshot(table_id)
        assert snapshot.status == PLAYING and snapshot.round_no is not None
        mover = harness.user_of_seat(table_id, snapshot.to_act[0])
        other = next(u for u in users if u is not mover)
        message_id = int(harness.table_message(table_id)["id"])
        refusals = (
            (other, play_id(table_id, snapshot.round_no, "draw")),  # out of turn
            (mover, play_id(table_id, snapshot.round_no, "meld 3S")),  # the engine refuses
            (mover, play_id(table_id, snapshot.round_no + 5, "draw")),  # stale round
            (mover, f"ct:{table_id}:{snapshot.round_no}:p=fly away"),  # no such action
        )
        for user, custom_id in refusals:
            click = await harness.fake.click(user, message_id, custom_id, forged=True)
            await click.wait_answered()
            await harness.settle()
            assert_one_short_private_sentence(click)
        assert harness.actions_played(table_id) == 0
        await harness.play_to_the_end(table_id, max_moves=4_000)
        snapshot = service.public_snapshot(table_id)
        assert snapshot.status == FINISHED and snapshot.winners
        assert snapshot.totals[0] == snapshot.totals[2] and snapshot.totals[1] == snapshot.totals[3]
        checker.assert_clean()


async def test_a_restart_mid_hand_keeps_the_hand_and_old_buttons_work(
    harness: BotUnderTest,
) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.start_with_bots(alice, "dame", 3, target=TARGET)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.to_act == (0,) and snapshot.round_no is not None
        await harness.my_cards(alice, table_id)
        old_choices = harness.private_choices(alice, snapshot.round_no)
        hand_before = bot.service._table(table_id).round.view(0).hand
        played_before = harness.actions_played(table_id)
        old_table_message = harness.table_message(table_id)

    async with harness.running() as bot:
        checker = harness.leak_checker()
        assert bot.service.public_snapshot(table_id).status == PLAYING
        assert harness.actions_played(table_id) == played_before
        assert bot.service._table(table_id).round.view(0).hand == hand_before
        draw = next(c for c in old_choices if c.notation == "draw")
        await use(harness.fake, alice, draw)  # made by the previous process
        await harness.settle()
        assert harness.actions_played(table_id) == played_before + 1
        hand = verb_choice(old_table_message, "hand")
        assert hand is not None
        answer = await use(harness.fake, alice, hand)
        await harness.settle()
        assert "Your hand" in answer_text(harness.fake, answer)  # its picture: by rank
        checker.assert_clean()
