"""The scripted player's way to one given action through the menu's steps."""

from __future__ import annotations

from bot.ui.custom_ids import navigate_id, play_id, select_id
from tests.bot.e2e.players import BUTTON, SELECT, Choice, toward


def button(custom_id: str) -> Choice:
    return Choice(1, custom_id, BUTTON, "")


def option(prefix: str, value: str) -> Choice:
    return Choice(1, select_id(1, 0, prefix), SELECT, "", value)


def test_toward_clicks_the_action_itself_when_it_is_offered() -> None:
    offered = [button(play_id(1, 0, "draw")), option("meld", "meld 7S 7H 2C")]
    assert toward("meld 7S 7H 2C")(offered) is offered[1]
    assert toward("draw")(offered) is offered[0]


def test_toward_takes_the_longest_menu_step_leading_to_the_action() -> None:
    offered = [
        button(navigate_id(1, 0, "")),  # Refresh leads nowhere in particular
        button(navigate_id(1, 0, "discard")),
        option("discard", "discard 1."),  # the group of the 10s
        option("discard", "discard J."),
    ]
    assert toward("discard 10H")(offered) is offered[2]
    assert toward("discard JS")(offered) is offered[3]
    assert toward("discard QS")(offered) is offered[1]


def test_toward_offers_nothing_when_no_step_leads_to_the_action() -> None:
    offered = [button(play_id(1, 0, "draw")), option("discard", "discard 10H")]
    assert toward("discard 10S")([*offered, button(navigate_id(1, 0, ""))]) is None
