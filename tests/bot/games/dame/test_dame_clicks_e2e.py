"""Dame de Pique turns in a few clicks, end to end through the fake Discord: the moves a player
most often wants are single buttons on "My cards" (draw, the take of the pile with every natural
of its rank, each pack the hand can lay, each discard), and a choice the rules refuse gets its
reason in one sentence instead of nothing."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.dame.render import show_all
from bot.i18n import text
from bot.local.records import LocalUser
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence
from tests.bot.e2e.players import BUTTON, Choice, message_text
from tests.bot.games.dame.tables import four_at_a_stacked_table
from tests.games.dame.stacking import stacked_deck

# Turn order A, B, C, D from the dealer's left (seat 0 deals): A and C are partners, B and D.
A, B, C, D = 1, 2, 3, 0
HANDS = {
    A: "9S 9H 9D 9C 10S 10H 10D JS JH JD KS KH 3C",
    B: "4S",
    C: "7S",
    D: "7H 7D 7C 8S 8H 8D QD QC 2C 3S",
}
STOCK = "5C 6C 5D 6D 5H 6H"  # the draws, in turn order


async def click(harness: BotUnderTest, user: LocalUser, table_id: int, notation: str) -> Choice:
    """`user` plays `notation` with one click on their "My cards" message: it must be offered
    there as a button."""
    used: list[Choice] = []

    def choose(offered: Sequence[Choice]) -> Choice | None:
        found = next((c for c in offered if c.notation == notation), None)
        if found is not None:
            used.append(found)
        return found

    played = harness.actions_played(table_id)
    harness.choose = choose
    await harness.act(user, table_id)
    (choice,) = used[-1:]
    assert choice.component_type == BUTTON, choice
    await harness.settle()
    assert harness.actions_played(table_id) == played + 1, notation
    return choice


async def test_a_turn_that_lays_a_new_pack_is_three_clicks_on_three_buttons(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id, seat = await four_at_a_stacked_table(harness, [stacked_deck(HANDS, STOCK, D)])
        assert bot.service.public_snapshot(table_id).to_act == (A,)
        await harness.my_cards(seat[A], table_id)
        draw = await click(harness, seat[A], table_id, "draw")
        lay = await click(harness, seat[A], table_id, "meld 9S 9H 9D 9C")  # a pack of four
        assert lay.label == text("en", "dame.section.button.meld")  # its cards beside it
        discard = await click(harness, seat[A], table_id, "discard 3C")
        assert [c.label for c in (draw, discard)] == [
            text("en", "dame.action.draw"),
            text("en", "dame.action.discard", card="3♣"),
        ]
        table = message_text(harness.table_message(table_id))
        assert f"**9** pack (4 cards, 20 points): {show_all(['9S', '9H', '9D', '9C'])}" in table
        assert bot.service.public_snapshot(table_id).to_act == (B,)
        checker.assert_clean()


async def test_the_pile_is_taken_with_every_natural_of_its_rank_in_one_click(
    eight_players: BotUnderTest,
) -> None:
    """D holds three natural 7s when 7♠ tops the pile: one button takes the pile and lays the
    four 7s; the takes with two of them stay in a select below."""
    harness = eight_players
    async with harness.running() as bot:
        table_id, seat = await four_at_a_stacked_table(harness, [stacked_deck(HANDS, STOCK, D)])
        for s, discard in ((A, "5C"), (B, "6C"), (C, "7S")):
            await harness.play(seat[s], table_id, "draw")
            await harness.play(seat[s], table_id, f"discard {discard}")
        await harness.my_cards(seat[D], table_id)
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        offered = harness.private_choices(seat[D], round_no)
        others = {c.notation for c in offered if c.component_type != BUTTON}
        assert {"take 7H 7D", "take 7H 7C", "take 7D 7C"} <= others
        take = await click(harness, seat[D], table_id, "take 7H 7D 7C")
        assert take.label == text("en", "dame.section.button.take")  # its cards beside it
        (pack,) = bot.service.public_snapshot(table_id).view.packs[0]
        assert (pack.rank, len(pack.cards)) == ("7", 4)
        # then a pack of the hand's naturals, and a pair with a wild card, are one button each
        await click(harness, seat[D], table_id, "meld 8S 8H 8D")
        await click(harness, seat[D], table_id, "meld QD QC 2C")


async def test_a_pick_of_too_few_cards_for_a_new_pack_is_answered_with_the_reason(
    eight_players: BotUnderTest,
) -> None:
    """Ticking two cards where a new pack needs three used to be dropped without a word (the
    select's minimum); now any count is sent, and the rules' refusal is said."""
    harness = eight_players
    async with harness.running() as bot:
        table_id, seat = await four_at_a_stacked_table(harness, [stacked_deck(HANDS, STOCK, D)])
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        await harness.play(seat[A], table_id, "draw")
        await harness.act_toward(seat[A], table_id, "meld 9S 9H")  # the 9 pack's cards
        pick = next(c for c in harness.private_choices(seat[A], round_no) if c.action == "m=meld")
        played = harness.actions_played(table_id)
        refused = await harness.fake.choose(seat[A], pick.message_id, pick.custom_id, ["9S", "9H"])
        await refused.wait_answered()
        await harness.settle()
        sentence = assert_one_short_private_sentence(refused)
        assert sentence == text("en", "dame.error.illegal.pack_too_small")
        assert harness.actions_played(table_id) == played
