"""A practice table with a coach through the real bot (issue #40 §1): `/euchre start
coach:True`, its table message says it is unrated, "My cards" has a Hint button on the
player's turn, and the hint's private answer names the move, says why and shows the hand with
the card set apart; someone not seated who presses it gets one short sentence."""

from __future__ import annotations

from bot.custom_ids import Verb
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players
from tests.bot.e2e.players import answer_message, choices, message_text, text_displays, use


async def test_a_hint_at_a_coached_table_through_the_real_bot(harness: BotUnderTest) -> None:
    alice, bob, _ = players(harness.fake)
    harness.hand_pictures = True
    async with harness.running() as bot:
        table_id = await harness.start_with_bots(alice, "euchre", 3, coach=True)
        await harness.settle()
        assert "(unrated)" in message_text(harness.table_message(table_id))
        public = bot.service.public_snapshot(table_id)
        assert public.turn == public.seat_of(alice.id)  # the bots wait for her
        checker = harness.leak_checker()
        await harness.my_cards(alice, table_id)
        mine = harness.fake.message(harness.last_private[alice.id])
        (hint,) = [c for c in choices(mine) if c.custom_id.endswith(f":{Verb.HINT.value}")]
        assert hint.label == "Hint"
        answered = await use(harness.fake, alice, hint)
        await harness.settle()
        shown = answer_message(harness.fake, answered)
        assert shown is not None
        assert shown["embeds"] == []  # a Components V2 message, as "My cards"
        heading, move, why = text_displays(shown)[0].splitlines()
        assert heading == "### Coach's hint"
        assert move.startswith("The strong bot would play **") and why.endswith(".")
        await harness.fake.wait_for(
            lambda: bool(harness.fake.message(shown["id"])["attachments"]),
            what="the hand's picture with the hinted card set apart",
        )
        checker.assert_clean()

        refused = await use(harness.fake, bob, hint)  # not seated here
        await harness.settle()
        assert assert_one_short_private_sentence(refused) == "You are not seated at this table."
