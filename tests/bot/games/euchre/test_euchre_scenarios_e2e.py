"""Euchre end to end on stacked decks: four players click their way through the hands a random
match rarely forces (a lone hand, a euchre, the dealer stuck, a farmer's hand thrown in, four
passes twice), and the table message and "My cards" say each in words. Seat 0 deals the first
hand, so seat 1 bids first; every payload goes through the leak checker."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import text
from bot.local.records import LocalUser
from bot.render import card_text as cards
from bot.snapshots import ROUND_OVER
from bot.ui.custom_ids import play_id
from games.cards import Card
from games.euchre.deal import deal_without_farmers_hand, stack_deck
from tests.bot.e2e.harness import EIGHT, BotUnderTest, assert_one_short_private_sentence
from tests.bot.e2e.players import answer_text, field_value, message_text, pick


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    user: dict[int, LocalUser]  # by seat
    name: dict[int, str]  # by seat

    def text(self, harness: BotUnderTest) -> str:
        return message_text(harness.table_message(self.id))

    def field(self, harness: BotUnderTest, language: str, key: str) -> str:
        value = field_value(harness.table_message(self.id), text(language, key))
        assert value is not None, f"the table message has no field {key!r}"
        return value

    def round_no(self, harness: BotUnderTest) -> int:
        round_no = harness.live.service.public_snapshot(self.id).round_no
        assert round_no is not None
        return round_no

    def seat_line(self, harness: BotUnderTest, seat: int) -> str:
        (line,) = [
            line
            for line in self.text(harness).splitlines()
            if f"**{self.name[seat]}**" in line and "`" in line.split("**")[0]
        ]
        return line


async def seat_four(
    harness: BotUnderTest, preset: str, deck: list[Card], *, language: str | None = None
) -> Table:
    """Four players at a `preset` table whose first hand is dealt from `deck`."""
    users = [harness.fake.user(name) for name in EIGHT[:4]]
    if language is not None:
        setting = await harness.fake.slash(harness.fake.admin, "settings", language=language)
        await setting.wait_answered()
    table_id = await harness.seat_players(
        users[0], users[1:], game="euchre", decks=[deck], preset=preset
    )
    snapshot = harness.live.service.public_snapshot(table_id)
    assert snapshot.view.dealer == 0
    return Table(
        table_id,
        {s: harness.user_of_seat(table_id, s) for s in range(4)},
        {info.seat: info.name for info in snapshot.seats},
    )


async def bid(harness: BotUnderTest, table: Table, script: str) -> None:
    """`"1 pass; 2 order alone"`: each seat clicks that move on its own "My cards"."""
    for step in script.split(";"):
        seat, notation = step.strip().split(" ", 1)
        await harness.play(table.user[int(seat)], table.id, notation)


async def play_out(harness: BotUnderTest, table: Table) -> None:
    """Whoever is to play plays their first playable card, until the hand is over."""
    harness.choose = lambda offered: pick(offered, ("play",))
    await harness.play_round(table.id)
    assert harness.live.service.public_snapshot(table.id).status == ROUND_OVER


async def test_a_lone_hand_shows_who_sits_out_tricks_of_three_and_the_lone_march(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    deck = stack_deck(
        0,
        {1: "JH JD AH KH QH", 2: "9S 10S QS KS AS", 3: "9C 10C QC KC AC", 0: "9D 10D QD KD AD"},
        "9H",
    )
    async with harness.running():
        checker = harness.leak_checker()
        table = await seat_four(harness, "standard", deck)
        bob, dave = table.name[1], table.name[3]
        await bid(harness, table, "1 order alone; 0 discard 9D")

        shown = table.text(harness)
        assert f"**{bob}** ordered up the {cards.shown('9H')} alone." in shown
        assert text("en", "euchre.log.alone", name=bob, partner=dave) in shown
        trump = table.field(harness, "en", "euchre.field.trump")
        assert trump == f"♥ by {bob}, alone ({dave} sits out)"
        assert "💤 sits out" in table.seat_line(harness, 3)
        assert "⭐ maker, alone" in table.seat_line(harness, 1)
        sitting_out = await harness.my_cards(table.user[3], table.id)
        assert f"{bob} goes alone: you sit out this hand." in answer_text(harness.fake, sitting_out)
        offered = harness.private_choices(table.user[3], table.round_no(harness))
        assert not [c for c in offered if c.notation is not None]  # nothing to play, ever

        # Bob leads, Carol plays, Dave is skipped and Alice closes a trick of three cards.
        for seat, card in ((1, "JH"), (2, "9S"), (0, "9H")):
            await harness.play(table.user[seat], table.id, f"play {card}")
        last = table.field(harness, "en", "euchre.field.last_trick")
        assert last.split(" → ")[0].split(" · ") == [
            f"{table.name[1]} {cards.shown('JH')}",
            f"{table.name[2]} {cards.shown('9S')}",
            f"{table.name[0]} {cards.shown('9H')}",
        ]
        assert table.field(harness, "en", "euchre.field.tricks") == "N–S: 0 · E–W: 1"

        await play_out(harness, table)
        end = table.field(harness, "en", "table.round_over")
        assert f"**{bob}** made ♥ trump for E–W and played alone." in end
        assert "E–W took all five alone: a lone march, 4 points." in end
        assert "N–S 0 · E–W 4 (to 10)" in end
        checker.assert_clean()


async def test_a_euchre_gives_the_defenders_two_points_in_french(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    # Carol (N–S, a defender) holds the five best trumps: she takes every trick.
    deck = stack_deck(
        0,
        {1: "10S AD KD QD 9C", 2: "JS JC AS KS QS", 3: "AH KH QH JH 10H", 0: "AC KC QC 10C 9H"},
        "9S",
    )
    async with harness.running():
        checker = harness.leak_checker()
        table = await seat_four(harness, "standard", deck, language="fr")
        bob = table.name[1]
        await bid(harness, table, "1 order; 0 discard 9H")
        shown = table.text(harness)
        assert f"**{bob}** a commandé le {cards.shown('9S')}." in shown
        assert table.field(harness, "fr", "euchre.field.trump") == f"♠ par {bob}"
        await play_out(harness, table)
        end = table.field(harness, "fr", "table.round_over")
        assert f"**{bob}** a pris ♠ atout pour E–O." in end
        assert "Plis : N–S 5, E–O 0" in end
        assert "Euchrés ! N–S marque 2 points." in end
        assert "N–S 2 · E–O 0" in end
        checker.assert_clean()


async def test_stick_the_dealer_the_stuck_dealer_is_offered_no_pass(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running():
        checker = harness.leak_checker()
        table = await seat_four(harness, "standard", stack_deck(0, {}, "9S"))
        alice = table.name[0]
        await bid(harness, table, "1 pass; 2 pass; 3 pass; 0 pass; 1 pass; 2 pass; 3 pass")

        status = table.field(harness, "en", "table.now")
        assert status.startswith(f"**{alice}** deals and is stuck: they must name trump (not ♠).")
        await harness.my_cards(table.user[0], table.id)
        offered = {
            c.notation for c in harness.private_choices(table.user[0], table.round_no(harness))
        } - {None}
        assert offered == {f"call {s}{a}" for s in "HDC" for a in ("", " alone")}
        # A forged pass is refused in one sentence, and nothing is played.
        message_id = harness.last_private[table.user[0].id]
        forged = await harness.fake.click(
            table.user[0],
            message_id,
            play_id(table.id, table.round_no(harness), "pass"),
            forged=True,
        )
        await forged.wait_answered()
        assert assert_one_short_private_sentence(forged) == text(
            "en", "euchre.error.illegal.stick_the_dealer"
        )

        await bid(harness, table, "0 call H")
        assert table.field(harness, "en", "euchre.field.trump") == f"♥ by {alice}"
        assert f"**{alice}** called ♥ trump." in table.text(harness)
        checker.assert_clean()


async def test_a_farmers_hand_is_thrown_in_and_play_goes_on_from_the_new_deal(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    deck = stack_deck(0, {2: "9S 9H 10D 10C 9D"}, "JS")
    hands, turned, _, _, redeals = deal_without_farmers_hand(deck, 0)
    assert redeals >= 1
    async with harness.running():
        checker = harness.leak_checker()
        table = await seat_four(harness, "farmers", deck)
        thrown_in = text("en", "euchre.farmers", count=redeals)
        assert thrown_in.startswith("A farmer's hand (four 9s and 10s) was thrown in")
        assert table.field(harness, "en", "euchre.field.redeal") == thrown_in
        assert table.field(harness, "en", "euchre.field.turned") == cards.shown(turned.name)

        carol = await harness.my_cards(table.user[2], table.id)
        shown = answer_text(harness.fake, carol)
        assert all(cards.face(c.name) in shown for c in hands[2])  # the new hand

        discard = next(c.name for c in hands[0])
        await bid(harness, table, f"1 order; 0 discard {discard}")
        lead = next(c.name for c in hands[1])
        await harness.play(table.user[1], table.id, f"play {lead}")
        trick = table.field(harness, "en", "euchre.field.trick")
        assert trick == f"{table.name[1]} {cards.shown(lead)}"
        checker.assert_clean()


async def test_four_passes_twice_without_stick_the_dealer_redeal_with_the_next_dealer(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running():
        checker = harness.leak_checker()
        table = await seat_four(harness, "no_stick", stack_deck(0, {}, "9S"))
        await bid(harness, table, "1 pass; 2 pass; 3 pass; 0 pass; 1 pass; 2 pass; 3 pass")
        await harness.my_cards(table.user[0], table.id)
        offered = {
            c.notation for c in harness.private_choices(table.user[0], table.round_no(harness))
        }
        assert "pass" in offered  # not stuck: the dealer may pass too
        await bid(harness, table, "0 pass")

        assert harness.live.service.public_snapshot(table.id).status == ROUND_OVER
        end = table.field(harness, "en", "table.round_over")
        assert "Everyone passed twice: no trump and no points. The deal passes on." in end
        assert "N–S 0 · E–W 0 (to 10)" in end
        log = table.field(harness, "en", "table.log")
        assert "Everyone passed twice: no trump, the next dealer deals again." in log

        await harness.next_round(table.id)
        assert "🎴 dealer" in table.seat_line(harness, 1)
        status = table.field(harness, "en", "table.now")
        assert status.startswith(f"**{table.name[2]}** to pass or order up the")
        checker.assert_clean()
