"""A Jack's swap in two clicks end to end through the fake Discord: after the discard, "Swap
your card 2…" opens the other players' cards as buttons and one of them plays the swap."""

from __future__ import annotations

from games.dutch import GAME
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import BUTTON
from tests.bot.games.dutch.test_dutch_clicks_e2e import click


async def test_a_jacks_swap_is_two_buttons_your_card_then_the_other_card(
    harness: BotUnderTest,
) -> None:
    deck = list(GAME.deck(GAME.options("classic")))
    jack = next(i for i, card in enumerate(deck) if str(card) == "JS")
    deck[13], deck[jack] = deck[jack], deck[13]  # three grids and the discard, then the stock
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(
            alice, [bob, carol], decks=[deck], preset="classic", target=100
        )
        for seat in range(3):
            await harness.play(harness.user_of_seat(table_id, seat), table_id, "peek 3 4")
        service = bot.service
        (first,) = service.public_snapshot(table_id).to_act
        user = harness.user_of_seat(table_id, first)
        await click(harness, user, table_id, "draw")
        await click(harness, user, table_id, "discard")
        other = (first + 1) % 3
        swap = f"jack 2 {other}:1"
        played = harness.actions_played(table_id)
        await harness.act_toward(user, table_id, swap)  # "Swap your card 2…", a button
        (step,) = [
            c
            for c in harness.private_choices(user, service.public_snapshot(table_id).round_no or 0)
            if c.notation == swap
        ]
        assert step.component_type == BUTTON
        choice = await click(harness, user, table_id, swap)
        assert choice.label.startswith("Swap your card 2 with ")
        assert harness.actions_played(table_id) == played + 1
        assert service.public_snapshot(table_id).to_act == (other,)
        checker.assert_clean()
