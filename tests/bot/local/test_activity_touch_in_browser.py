"""A card of the Activity's page dragged with a finger on a phone's touch screen: the card
follows the finger, the places it may go glow, and lifting the finger over one plays the move;
a tap still picks (here: draws from the stock)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.local.browser import Player, local_table
from tests.bot.local.test_activity_games_in_browser import WIDTHS, Activity
from tests.bot.local.test_games_in_browser import open_table_with_bots

STEPS = 8  # the finger's moves from the card to the pile


def centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_card_dragged_with_a_finger_onto_the_pile_is_discarded(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=3) as table:
        alice = Player(browser, table, 1, width=WIDTHS["phone"], touch=True)
        open_table_with_bots(alice, "dame", 3)
        activity = Activity(alice, table.activity_port)
        assert activity.wait_for_turn_or_end() == "turn"
        before = activity.value("document.body.dataset.version")
        activity.locator("#middle [data-piece='stock']").tap()  # a tap picks: she draws
        activity.page.wait_for_function(f"document.body.dataset.version !== '{before}'")
        activity.locator("#hand-cards button.card.playable").first.wait_for()
        activity.settled()
        source = activity.locator("#hand-cards button.card").last
        pile = activity.locator("#middle [data-piece='pile']")
        dragged = source.get_attribute("data-card")
        source.scroll_into_view_if_needed()  # the hand is under the table: the phone scrolls
        (x0, y0), (x1, y1) = centre(source), centre(pile)
        touch = alice.context.new_cdp_session(alice.page)

        def finger(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
            touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        before = activity.value("document.body.dataset.version")
        scrolled = activity.value("scrollY")
        finger("touchStart", x0, y0)
        for step in range(1, STEPS + 1):
            finger("touchMove", x0 + (x1 - x0) * step / STEPS, y0 + (y1 - y0) * step / STEPS)
            if step == STEPS // 2:  # on the way: the card follows the finger, the pile glows
                activity.locator(".ghost").wait_for()
                activity.locator("#middle [data-piece='pile'].target").wait_for()
                assert activity.locator("#hand-cards .lifted").count() == 1
        assert activity.value("scrollY") == scrolled  # the page stays still under the finger
        finger("touchEnd", x1, y1)
        activity.page.wait_for_function(
            f"document.body.dataset.version !== '{before}'"
            " || document.querySelector('#refusal').textContent !== ''"
        )
        assert activity.locator("#refusal").inner_text() == ""
        # her move in the log, the card as its picture (the bots' turns may cover the pile)
        logged = activity.locator(f"#log-lines img[src='/cards/{dragged}.png']")
        logged.first.wait_for(state="attached")
        assert activity.locator(".ghost").count() == 0
        assert not alice.page_errors
        assert not table.errors()
