"""Calling Dutch is one visible click that asks once, in both rule sets, end to end through
the fake Discord: a failed call costs a round's points twice over (classic) or 20 more
(house), so no single click calls it, and the call is never the first move offered."""

from __future__ import annotations

from bot.local.records import LocalUser
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import BUTTON, Choice


async def peek_all(harness: BotUnderTest, table_id: int) -> LocalUser:
    """Everyone peeks; the player whose turn starts."""
    for seat in range(3):
        await harness.play(harness.user_of_seat(table_id, seat), table_id, "peek 3 4")
    (first,) = harness.live.service.public_snapshot(table_id).to_act
    return harness.user_of_seat(table_id, first)


def offered(harness: BotUnderTest, user: LocalUser, table_id: int) -> list[Choice]:
    round_no = harness.live.service.public_snapshot(table_id).round_no
    assert round_no is not None
    return harness.private_choices(user, round_no)


async def click(harness: BotUnderTest, user: LocalUser, table_id: int, action: str) -> None:
    """`user` clicks the button of their own message that does `action` (`n=dutch`)."""
    choices = offered(harness, user, table_id)
    (button,) = [c for c in choices if c.action == action and c.component_type == BUTTON]

    def choose(_: object) -> Choice:
        return button

    harness.choose = choose  # type: ignore[assignment]
    await harness.act(user, table_id)
    await harness.settle()


async def test_a_classic_dutch_call_asks_once_and_is_not_the_first_button(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol], preset="classic")
        user = await peek_all(harness, table_id)
        await harness.my_cards(user, table_id)
        buttons = [c for c in offered(harness, user, table_id) if c.component_type == BUTTON]
        assert buttons[0].notation == "draw", buttons
        assert not any(c.notation == "dutch" for c in buttons), "no click calls it at once"
        (opener,) = [c for c in buttons if c.action == "n=dutch"]
        assert opener.label == "📣 Call Dutch…"
        played = harness.actions_played(table_id)

        await click(harness, user, table_id, "n=dutch")  # asks: nothing is played yet
        assert harness.actions_played(table_id) == played
        labels = {c.action: c.label for c in offered(harness, user, table_id)}
        assert labels["p=dutch"] == "Yes, call Dutch (if I am beaten, my points double)"
        await click(harness, user, table_id, "n=")  # Back: the turn's moves again
        assert harness.actions_played(table_id) == played
        assert "p=draw" in {c.action for c in offered(harness, user, table_id)}

        await click(harness, user, table_id, "n=dutch")
        await click(harness, user, table_id, "p=dutch")
        assert harness.actions_played(table_id) == played + 1
        assert harness.live.service.public_snapshot(table_id).view.dutch_caller is not None


async def test_a_house_dutch_call_is_a_visible_button_that_asks_once(
    harness: BotUnderTest,
) -> None:
    """Under house rules the call ends a turn: while the drawn card is held, "Call Dutch…"
    offers each way of placing it followed by the call, one click that names Dutch."""
    alice, bob, carol = players(harness.fake)
    async with harness.running():
        table_id = await harness.seat_players(alice, [bob, carol], preset="house")
        user = await peek_all(harness, table_id)
        await harness.play(user, table_id, "draw")
        played = harness.actions_played(table_id)
        await click(harness, user, table_id, "n=dutch")
        assert harness.actions_played(table_id) == played
        labels = {c.action: c.label for c in offered(harness, user, table_id)}
        assert labels["p=swap 1;dutch"] == "Swap into card 1, then call Dutch"
        # the card is the button's picture, not words
        assert labels["p=discard;dutch"] == "Discard, then call Dutch"
        await click(harness, user, table_id, "p=swap 1;dutch")
        assert harness.actions_played(table_id) == played + 2
        assert harness.live.service.public_snapshot(table_id).view.dutch_caller is not None
