"""A card a Dutch rule shows a player stays in view for the reveal delay, at a table of bots.

Bot players move at once after a click, and every move redraws the player's followed "My
cards" message: the card must still be there after them, after a new "My cards" and a
Refresh, and be hidden again once the delay is over (the fake clock moves it, no sleep).
Every reveal of both presets is played through the real click path: the start peek, a
Queen's look at an own card and at another player's, the house 7's look, and a house 9's
exchange that carries a peeked card into another grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.local.records import LocalUser
from bot.ui.custom_ids import navigate_id
from games.cards import card, shuffled, standard_deck
from tests.bot.e2e.harness import BotUnderTest
from tests.bot.e2e.leak_checker import card_faces
from tests.bot.e2e.players import BUTTON, Choice, message_text, use

SEEN = "Just seen"  # the message's field of the cards a rule showed the player


def _deck(jokers: int, top_of_stock: Sequence[str], dealt: int) -> list[object]:
    """A deck whose stock starts (after `dealt` cards and the first discard) with these."""
    top = [card(name) for name in top_of_stock]
    deck = [c for c in shuffled(standard_deck(jokers=jokers), 21) if c not in top]
    return deck[: dealt + 1] + top + deck[dealt + 1 :]


async def _table_of_bots(
    harness: BotUnderTest, alice: LocalUser, preset: str, stock: Sequence[str] = ()
) -> int:
    """Alice and two bot players, the deck stacked; Alice's own message open."""

    def stack(table_id: int) -> None:
        jokers = 2 if preset == "classic" else 0
        harness.live.service.stack_deck(table_id, _deck(jokers, stock, dealt=12))

    table_id = await harness.start_with_bots(
        alice, "dutch", 2, before_start=stack, preset=preset, target=1000
    )
    await harness.my_cards(alice, table_id)
    return table_id


def _shown(harness: BotUnderTest, user: LocalUser) -> tuple[set[str], str]:
    """The card faces and the words of the user's newest "My cards" message."""
    newest = harness.newest_private(user)  # the hand moves down when the turn comes
    assert newest is not None
    message = harness.fake.message(newest)
    # a Components V2 message: its words are in text displays and sections
    return card_faces(message_text(message)), message_text(message)


async def _click(harness: BotUnderTest, table_id: int, user: LocalUser, move: str) -> set[str]:
    """The user plays `move` through their message (the bots' moves follow): the cards a rule
    showed them by it, read from the round's events."""
    seat = harness.live.service.public_snapshot(table_id).seat_of(user.id)
    round_ = harness.live.service._table(table_id).round
    start = len(round_.events)
    await harness.play(user, table_id, move)
    return {
        str(e.data["card"])
        for e in round_.events[start:]
        if e.kind == "see" and e.to is not None and seat in e.to
    }


async def _still_in_view_then_hidden(
    harness: BotUnderTest, table_id: int, alice: LocalUser, seen: set[str]
) -> None:
    """After the bots' moves, a new "My cards" and a Refresh, the cards are in Alice's
    message; once the reveal delay is over, they are gone from it."""
    await harness.settle()
    faces, words = _shown(harness, alice)
    assert seen <= faces and SEEN in words, "lost after the bots' moves"
    await harness.my_cards(alice, table_id)
    await harness.settle()
    faces, words = _shown(harness, alice)
    assert seen <= faces and SEEN in words, "lost in a new My cards"
    snapshot = harness.live.service.public_snapshot(table_id)
    refresh = navigate_id(table_id, snapshot.round_no or 0, "")
    message_id = harness.newest_private(alice)
    assert message_id is not None
    await use(harness.fake, alice, Choice(message_id, refresh, BUTTON, "Refresh"))
    await harness.settle()
    faces, words = _shown(harness, alice)
    assert seen <= faces and SEEN in words, "lost in a Refresh"
    settings = await harness.live.guild_settings.get(harness.fake.guild_id)
    await harness.clock.advance(settings.reveal_seconds - 0.5)
    await harness.settle()
    faces, words = _shown(harness, alice)
    assert seen <= faces, "hidden before the reveal delay was over"
    await harness.clock.advance(0.5)
    await harness.settle()
    faces, words = _shown(harness, alice)
    public = card_faces(harness.live.service.public_snapshot(table_id).view)
    assert not (seen - public) & faces and SEEN not in words, "still shown after the delay"


async def _past_the_peeks(harness: BotUnderTest, table_id: int, alice: LocalUser) -> None:
    """Alice peeks (the bots have peeked at once), and the peek's delay runs out."""
    await _click(harness, table_id, alice, _peek(harness, table_id))
    settings = await harness.live.guild_settings.get(harness.fake.guild_id)
    await harness.clock.advance(settings.reveal_seconds)
    await harness.settle()


def _peek(harness: BotUnderTest, table_id: int) -> str:
    options = harness.live.service._table(table_id).options
    return "peek 1 2" if options.peek_choice else "peek 3 4"


@pytest.mark.parametrize("preset", ["classic", "house"])
async def test_the_start_peek_stays_in_view_through_the_bots_moves(
    harness: BotUnderTest, preset: str
) -> None:
    alice = harness.fake.user("alice")
    async with harness.running():
        checker = harness.leak_checker()
        table_id = await _table_of_bots(harness, alice, preset)
        seen = await _click(harness, table_id, alice, _peek(harness, table_id))
        assert len(seen) == 2
        await _still_in_view_then_hidden(harness, table_id, alice, seen)
        checker.assert_clean()


@pytest.mark.parametrize("whose", ["own", "other"])
async def test_a_queens_look_stays_in_view_through_the_bots_moves(
    harness: BotUnderTest, whose: str
) -> None:
    alice = harness.fake.user("alice")
    async with harness.running():
        checker = harness.leak_checker()
        table_id = await _table_of_bots(harness, alice, "classic", ("QS", "QH", "QD", "QC"))
        await _past_the_peeks(harness, table_id, alice)
        seat = harness.live.service.public_snapshot(table_id).seat_of(alice.id)
        assert seat is not None
        target = seat if whose == "own" else (seat + 1) % 3
        for move in ("draw", "discard"):
            await harness.play(alice, table_id, move)
        seen = await _click(harness, table_id, alice, f"look {target}:1")
        assert len(seen) == 1
        await _still_in_view_then_hidden(harness, table_id, alice, seen)
        checker.assert_clean()


async def test_a_sevens_look_stays_in_view_through_the_bots_moves(harness: BotUnderTest) -> None:
    alice = harness.fake.user("alice")
    async with harness.running():
        checker = harness.leak_checker()
        table_id = await _table_of_bots(harness, alice, "house", ("7S", "7H", "7D", "7C"))
        await _past_the_peeks(harness, table_id, alice)
        await harness.play(alice, table_id, "draw")
        seen = await _click(harness, table_id, alice, "seven 1")
        assert len(seen) == 1
        await harness.play(alice, table_id, "swap 2")  # the 7 into slot 2: slot 1 is kept
        await _still_in_view_then_hidden(harness, table_id, alice, seen)
        checker.assert_clean()


async def test_a_peeked_card_a_nine_gives_away_stays_in_view_in_its_new_grid(
    harness: BotUnderTest,
) -> None:
    alice = harness.fake.user("alice")
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await _table_of_bots(harness, alice, "house", ("9S", "9H", "9D", "9C"))
        seen = await _click(harness, table_id, alice, "peek 3 4")
        seat = bot.service.public_snapshot(table_id).seat_of(alice.id)
        assert seat is not None
        other = (seat + 1) % 3
        await harness.settle()
        await harness.play(alice, table_id, "draw")
        await harness.play(alice, table_id, f"nine 3 {other}:1")  # her peeked slot 3 goes
        given = bot.service._table(table_id).round.grids[other][0].name
        assert given in seen
        faces, words = _shown(harness, alice)
        name = bot.service.public_snapshot(table_id).seats[other].name
        assert f"{name}" in words and given in faces
        await _still_in_view_then_hidden(harness, table_id, alice, seen)
        checker.assert_clean()


async def test_a_menu_step_the_player_opened_stays_open_when_the_peeked_cards_hide(
    harness: BotUnderTest,
) -> None:
    """Hiding the peeked cards redraws the followed "My cards": it keeps the step the player
    opened there (Call Dutch…, its call and Back), not the top of the menu."""
    alice = harness.fake.user("alice")
    async with harness.running():
        table_id = await _table_of_bots(harness, alice, "classic")
        seen = await _click(harness, table_id, alice, _peek(harness, table_id))
        await harness.settle()
        snapshot = harness.live.service.public_snapshot(table_id)
        assert snapshot.seat_of(alice.id) in snapshot.to_act  # her turn, the peek in view
        await harness.act_toward(alice, table_id, "dutch")
        await harness.settle()
        round_no = snapshot.round_no or 0

        def offered() -> set[str]:
            return {c.action for c in harness.private_choices(alice, round_no)}

        assert "p=dutch" in offered() and "p=draw" not in offered()
        faces, words = _shown(harness, alice)
        assert seen <= faces and SEEN in words
        settings = await harness.live.guild_settings.get(harness.fake.guild_id)
        await harness.clock.advance(settings.reveal_seconds)
        await harness.settle()
        faces, words = _shown(harness, alice)
        assert SEEN not in words  # the cards hid: the message was redrawn
        assert "p=dutch" in offered() and "p=draw" not in offered()
