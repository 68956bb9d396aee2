"""Dame de Pique end to end: the real bot against the fake Discord. One player and three bot
players play a whole match to a low target through `/dame start` and clicks; every payload
is checked for a card of another hand or of the stock."""

from __future__ import annotations

import random

from bot.service.snapshots import FINISHED, PLAYING, ROUND_OVER
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import answer_text, pick_at_random, verb_choice

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
        started = await harness.fake.slash(alice, "dame start", target=TARGET)
        await started.wait_answered()
        await harness.settle()
        (table_id,) = harness.table_ids()
        for _ in range(3):
            await harness.press(alice, table_id, "addbot")
        await harness.press(alice, table_id, "start")
        service = bot.service
        kinds: set[str] = set()
        for _ in range(3_000):
            snapshot = service.public_snapshot(table_id)
            if snapshot.status == FINISHED:
                break
            if snapshot.status == ROUND_OVER:
                await harness.next_round(table_id)
                continue
            assert snapshot.status == PLAYING and snapshot.to_act == (0,)
            await harness.act(alice, table_id)
            table = service._table(table_id)
            if table.round is not None:
                kinds |= {action.kind for _, action in table.round.history}
        else:
            raise AssertionError("the match did not end")
        await harness.settle()
        assert service.public_snapshot(table_id).status == FINISHED
        assert {"draw", "meld", "discard"} <= kinds
        message = harness.table_message(table_id)
        assert verb_choice(message, "rematch") is not None
        checker.assert_clean()
        assert checker.checked > 20
        assert all(r.status != 400 for r in harness.fake.requests)
