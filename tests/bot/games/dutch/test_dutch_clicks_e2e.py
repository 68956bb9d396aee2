"""A Dutch turn in two clicks under house rules, end to end through the fake Discord: draw,
then one button that swaps the drawn card in and ends the turn (the turn used to wait for a
third click, "End the turn", after every swap); a player who means to match after the swap
still can, through the select of the same moves without the end."""

from __future__ import annotations

from collections.abc import Sequence

from bot.local.records import LocalUser
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import BUTTON, Choice


async def click(harness: BotUnderTest, user: LocalUser, table_id: int, notation: str) -> Choice:
    """`user` clicks the button that plays `notation` on their "My cards" message."""
    used: list[Choice] = []

    def choose(offered: Sequence[Choice]) -> Choice | None:
        found = next((c for c in offered if c.notation == notation), None)
        if found is not None:
            used.append(found)
        return found

    harness.choose = choose
    await harness.act(user, table_id)
    (choice,) = used[-1:]
    assert choice.component_type == BUTTON, choice
    await harness.settle()
    return choice


async def test_a_house_rules_turn_is_a_draw_and_a_swap_that_ends_the_turn(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.seat_players(alice, [bob, carol], preset="house", target=100)
        for seat in range(3):
            await harness.play(harness.user_of_seat(table_id, seat), table_id, "peek 3 4")
        service = bot.service
        (first,) = service.public_snapshot(table_id).to_act
        user = harness.user_of_seat(table_id, first)
        played = harness.actions_played(table_id)
        await click(harness, user, table_id, "draw")
        swap = await click(harness, user, table_id, "swap 1;end")
        assert swap.label == "Swap, end turn"  # beside card 1, which it replaces
        assert harness.actions_played(table_id) == played + 3  # draw, swap 1, end
        assert service.public_snapshot(table_id).to_act == ((first + 1) % 3,)

        # the next player swaps and keeps the turn open, through the select: a match follows
        user = harness.user_of_seat(table_id, (first + 1) % 3)
        await click(harness, user, table_id, "draw")
        await harness.play(user, table_id, "swap 2")
        snapshot = service.public_snapshot(table_id)
        assert snapshot.to_act == ((first + 1) % 3,)
        assert snapshot.view is not None and snapshot.view.phase == "end"
        await click(harness, user, table_id, "end")
        checker.assert_clean()
