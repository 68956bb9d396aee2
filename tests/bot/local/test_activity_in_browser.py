"""The table as an Activity from the local table, in a real browser: Alice opens a Dutch table
against a bot player, clicks "Open the table" and plays from the Activity's page, framed as
Discord frames it; the page signs in through the local table's handshake; with the keyboard
too, and at phone width. Closing the frame leaves the Activity's instance; a user removed from
it sees the page closed with one sentence. Under `make screenshots` it takes pictures of the
Activity at desktop and phone widths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.activity.identity import INSTANCE_SECONDS
from bot.i18n import error_text
from tests.bot.local.browser import SCREENSHOTS, Player, local_table
from tests.bot.local.test_games_in_browser import open_table_with_bots


def shoot(player: Player, name: str) -> None:
    """The page with the Activity over it as `name`.png, under `make screenshots`."""
    if SCREENSHOTS:
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(folder / f"{name}.png"))


YOUR_TURN = "#who:has-text('Your turn')"


def her_activity_at_a_dutch_table(alice: Player) -> Any:
    """Alice opens a table of Dutch against a bot player, then its Activity from "Open the
    table": the box the local page holds it in, once the page shows her turn."""
    open_table_with_bots(alice, "dutch", 1)
    alice.click(alice.wait_table_button("activity"))
    box = alice.page.locator("#activity")
    box.frame_locator("iframe").locator(YOUR_TURN).wait_for()
    return box


def test_a_player_opens_the_table_as_an_activity_and_plays_from_it(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        frame = her_activity_at_a_dutch_table(alice).frame_locator("iframe")
        assert frame.locator(".seat").count() == 2
        assert frame.locator(".seat img[src='/cards/back.png']").count() == 8  # two grids
        # her peek: two of her own cards, clicked; they show face up for a while
        frame.locator("#seats-bottom button.card.playable").first.click()
        frame.locator("#seats-bottom button.card.target").first.click()
        face_up = frame.locator("#seats-bottom .card.revealed")
        face_up.first.wait_for()
        assert frame.locator("#refusal").inner_text() == ""
        # her turn: she draws by clicking the stock, then discards what she drew
        frame.locator("#middle [data-piece='stock'].playable").wait_for()
        frame.locator("#middle [data-piece='stock']").click()
        held = frame.locator("#middle button[data-piece='held']")
        held.focus()  # with the keyboard: Enter picks it, the pile glows, Enter there
        alice.page.keyboard.press("Enter")
        frame.locator("[data-piece='pile'].target").focus()
        alice.page.keyboard.press("Enter")
        held.wait_for(state="detached")
        assert frame.locator("#refusal").inner_text() == ""
        # the cards her peek showed turn face down once the reveal time is over
        face_up.first.wait_for(state="detached", timeout=20_000)
        shoot(alice, "activity-desktop")
        # at phone width the table fits without scrolling sideways
        alice.page.set_viewport_size({"width": 460, "height": 900})
        shoot(alice, "activity-phone")
        activity = next(f for f in alice.page.frames if f.url.endswith(f":{table.activity_port}/"))
        assert activity.evaluate("innerWidth <= 430")
        assert activity.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert not table.errors()


def test_a_second_user_seated_nowhere_launches_the_activity_and_only_watches(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=2) as table:
        alice = Player(browser, table, 1)
        her_activity_at_a_dutch_table(alice)
        bob = Player(browser, table, 2)  # in the channel, at no seat: he joins the instance
        bob.command("launch")  # the entry point: the channel's only table, opened at once
        frame = bob.page.frame_locator("#activity iframe")
        frame.locator("#who:has-text('You are watching')").wait_for()
        assert frame.locator(".seats-area .seat").count() == 2
        assert frame.locator(".seats-area .seat img").count() >= 8  # both grids, face down
        assert frame.locator("#refusal").inner_text() == ""
        assert frame.locator("#moves button").count() == 0
        assert frame.locator("button.card").count() == 0  # no card to click either
        assert not table.errors()


def test_closing_the_activity_leaves_its_instance_which_ends_with_its_last_user(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=3) as table:
        alice = Player(browser, table, 1)
        box = her_activity_at_a_dutch_table(alice)
        first = box.get_attribute("data-instance")
        with alice.page.expect_response("**/page/activity/leave") as left:
            alice.page.get_by_role("button", name="Close the Activity").click()
        assert left.value.json() == {"left": True}
        box.wait_for(state="detached")
        alice.click(alice.wait_table_button("activity"))  # she was its last user: a new one
        box.frame_locator("iframe").locator(YOUR_TURN).wait_for()
        assert box.get_attribute("data-instance") not in (None, first)
        assert not table.errors()


# the local page's own call when its frame closes: the user leaves the instance
LEAVE = """(instance) => fetch("/page/activity/leave", {
  method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({user: 1, instance}),
}).then((answer) => answer.json())"""


def test_a_user_removed_from_the_instance_has_the_open_page_closed_with_one_sentence(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=4) as table:
        alice = Player(browser, table, 1)
        box = her_activity_at_a_dutch_table(alice)
        frame = box.frame_locator("iframe")
        # removed behind the frame's back (as Discord removes a user): the frame stays open
        instance = box.get_attribute("data-instance")
        assert alice.page.evaluate(LEAVE, instance) == {"left": True}
        refusal = frame.locator("#refusal[data-key='activity_not_in']")
        refusal.wait_for(timeout=3 * INSTANCE_SECONDS * 1000)  # the server's next check
        sentence = error_text("en", "activity_not_in")
        assert refusal.inner_text() == sentence
        # her cards still drawn: a peek clicked sends nothing, and the sentence stays
        frame.locator("#seats-bottom button.card.playable").first.click()
        frame.locator("#seats-bottom button.card.target").first.click()
        assert refusal.inner_text() == sentence
        assert not table.errors()
