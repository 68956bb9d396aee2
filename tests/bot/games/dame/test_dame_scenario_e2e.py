"""Dame de Pique end to end on a stacked deck: four players click their way through the events
a random game rarely forces (a take of the pile, a meld with a wild card, an add to the
partner's pack, a knock that lapses, a player going out), and the table message says each."""

from __future__ import annotations

from bot.games.dame.render import show, show_all
from bot.i18n import text
from bot.snapshots import ROUND_OVER
from games.dame import GAME
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence
from tests.bot.e2e.players import message_text
from tests.bot.games.dame.tables import four_at_a_stacked_table
from tests.games.dame.stacking import stacked_deck

# Turn order A, B, C, D from the dealer's left (seat 0 deals the first hand): A and C are
# partners, B and D. A holds four packs and nothing else; the stock gives known cards.
A, B, C, D = 1, 2, 3, 0
HANDS = {
    A: "9S 9H 9D 9C 10S 10H 10D JS JH JD KS KH KD",
    B: "7C",
    C: "7S",
    D: "7H 7D 8S 8H 2C 3S",
}
STOCK = "3C 4C 5C 6C 3D 4D 5D 6D 3H 4H 5H 6H"  # the draws, in turn order


def knocked(harness: BotUnderTest, table_id: int, name: str) -> bool:
    """Does the table message's seat line of `name` show a knock?"""
    lines = message_text(harness.table_message(table_id)).splitlines()
    (line,) = [line for line in lines if f"**{name}**" in line and "·" in line]
    return text("en", "dame.knocked") in line


def canonical(notation: str) -> str:
    return str(GAME.parse_action(notation))


async def test_a_stacked_hand_takes_the_pile_melds_a_wild_adds_knocks_and_goes_out(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id, seat = await four_at_a_stacked_table(harness, [stacked_deck(HANDS, STOCK, D)])
        assert bot.service.public_snapshot(table_id).to_act == (A,)
        name = {info.seat: info.name for info in bot.service.public_snapshot(table_id).seats}
        draws = iter(STOCK.split())

        async def play(s: int, *notations: str) -> None:
            for notation in notations:
                await harness.play(seat[s], table_id, canonical(notation))

        async def draw_and_discard(s: int, *between: str) -> None:
            drawn = next(draws)
            await play(s, "draw", *between, f"discard {drawn}")

        await draw_and_discard(A)
        await draw_and_discard(B)
        await play(C, "draw", "discard 7S")
        next(draws)
        # D takes the pile of three (two drawn cards under 7♠) with two natural 7s.
        await play(D, "take 7H 7D")
        table = message_text(harness.table_message(table_id))
        took = text("en", "dame.log.take", cards=show_all(["7H", "7D"]), top=show("7S"), count=3)
        assert took in table
        await play(D, "meld 8S 8H 2C")
        table = message_text(harness.table_message(table_id))
        assert (
            f"**8** pack (3 cards, 30 points): {show_all(['8S', '8H'])} + *{show_all(['2C'])}*"
            in table
        )
        await play(D, "discard 3S")

        await draw_and_discard(A)
        # B adds a natural 7 to the 7s that D, the partner, laid; then knocks.
        await draw_and_discard(B, "add 7 7C", "announce")
        table = message_text(harness.table_message(table_id))
        assert f"**7** pack (4 cards, 20 points): {show_all(['7H', '7D', '7S', '7C'])}" in table
        assert knocked(harness, table_id, name[B])
        await draw_and_discard(C)
        await draw_and_discard(D)
        await draw_and_discard(A, "announce")
        assert knocked(harness, table_id, name[B])
        # B does not go out on the turn after the knock: the knock lapses.
        await draw_and_discard(B)
        assert not knocked(harness, table_id, name[B])
        assert knocked(harness, table_id, name[A])
        await draw_and_discard(C)
        await draw_and_discard(D)

        # A's knock holds: A lays all four packs and goes out on the last card.
        drawn = next(draws)
        await play(
            A,
            "draw",
            "meld 9S 9H 9D",
            "add 9 9C",
            "meld 10S 10H 10D",
            "meld JS JH JD",
            "meld KS KH KD",
            f"discard {drawn}",
        )
        await harness.settle()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER
        table = message_text(harness.table_message(table_id))
        went_out = text("en", "dame.went_out", name=name[A], team="").split(":")[0]
        assert went_out in table
        checker.assert_clean()
        assert checker.checked > 20


# A lays five cards (two wild) in one action; C, the partner, adds three to that pack in one.
LAYER, PARTNER = A, C
LAYS = {
    LAYER: "9S 9H 9D 2C JK 2D 3S 4D#1 5C#1 7D#1 8S 10D QD",
    B: "4S 4H#1 5S 5H#1 6S 6D#1 8D 10S JS JH QH KH AH",
    PARTNER: "9C 9S#1 2H 3D#1 4S#1 5D#1 6C#1 8C 10H JC QC KC AC",
}


async def test_a_pack_of_five_with_wild_cards_and_an_add_of_three_are_one_action_each(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id, seat = await four_at_a_stacked_table(harness, [stacked_deck(LAYS, STOCK, D)])
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        await harness.play(seat[LAYER], table_id, "draw")

        # Three wild cards and no natural: the engine refuses; one sentence, nothing changes.
        played = harness.actions_played(table_id)
        await harness.act_toward(seat[LAYER], table_id, "meld 9S 9H 9D 2C JK")  # the 9 step
        offered = harness.private_choices(seat[LAYER], round_no)
        pick = next(c for c in offered if c.action == "m=meld")
        assert set(pick.offered) == {"9S", "9H", "9D", "2C", "JK", "2D"}
        refused = await harness.fake.choose(
            seat[LAYER], pick.message_id, pick.custom_id, ["2C", "JK", "2D"]
        )
        await refused.wait_answered()
        await harness.settle()
        sentence = assert_one_short_private_sentence(refused)
        assert sentence == text("en", "dame.error.illegal.pack_needs_natural")
        assert harness.actions_played(table_id) == played

        await harness.play(seat[LAYER], table_id, "meld 9S 9H 9D 2C JK")
        assert harness.actions_played(table_id) == played + 1  # one action, five cards
        table = message_text(harness.table_message(table_id))
        wilds = show_all(["2C", "JK"])
        assert (
            f"**9** pack (5 cards, 85 points): {show_all(['9S', '9H', '9D'])} + *{wilds}*" in table
        )
        laid = text("en", "dame.log.meld", cards=show_all(["9S", "9H", "9D", "2C", "JK"]))
        assert laid in table
        await harness.play(seat[LAYER], table_id, "discard 3C")
        await harness.play(seat[B], table_id, "draw")
        await harness.play(seat[B], table_id, "discard 4C")

        await harness.play(seat[PARTNER], table_id, "draw")
        played = harness.actions_played(table_id)
        await harness.play(seat[PARTNER], table_id, "add 9 9C 9S#1 2H")
        assert harness.actions_played(table_id) == played + 1  # one action, three cards
        table = message_text(harness.table_message(table_id))
        pack = show_all(["9S", "9H", "9D", "9S", "9C"])
        assert (
            f"**9** pack (8 cards, 115 points): {pack} + *{show_all(['2C', 'JK', '2H'])}*" in table
        )
        added = text("en", "dame.log.add", cards=show_all(["9S", "9C", "2H"]), rank="9")
        assert added in table
        assert bot.service.public_snapshot(table_id).view.hand_sizes[PARTNER] == 11
        checker.assert_clean()
