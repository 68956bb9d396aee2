"""The Activity's page keeps up through lost connections, in a real browser: its WebSocket cut
mid-hand while moves are made from the messages, then the bot's process restarted mid-hand;
each time the page reconnects by itself and shows the table as it is, and play goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.local.browser import LocalTable, Player, action_of, local_table, pick
from tests.bot.local.test_games_in_browser import open_table_with_bots

# Before the page loads: every WebSocket it opens is listed (`__sockets`), and while
# `__holdSockets` is set a new one goes nowhere (its connection is refused), so the page keeps
# trying until the test lets it through.
SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__holdSockets = false;
  function Listed(url, protocols) {
    const socket = new Native(window.__holdSockets ? "ws://127.0.0.1:9/" : url, protocols);
    window.__sockets.push(socket);
    return socket;
  }
  Listed.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Listed[name] = Native[name];
  window.WebSocket = Listed;
})();
"""
RECONNECTING = "reconnecting"
# what a page draws, read generically: its headline, the alt text of every card picture (a
# hidden card's says so, a known one names its face), the moves offered and the log
DRAWN = """() => ({
  who: document.getElementById("who").textContent,
  cards: [...document.querySelectorAll(".seats-area img, #middle img, #hand-cards img")]
    .map(i => i.alt),
  moves: [...document.querySelectorAll("#moves button")].map(b => b.dataset.move),
  log: document.getElementById("log-lines").textContent,
})"""
FACE_UP = "#seats-bottom .card.revealed"
STOCK = "#middle [data-piece='stock']"
HELD = "#middle button[data-piece='held']"


def open_activity(player: Player) -> Any:
    """Click the table's "Open the table"; the Activity's frame, once it shows the table."""
    player.click(player.wait_table_button("activity"))
    frame = player.page.frame_locator("#activity iframe")
    frame.locator(".seats-area .seat").first.wait_for()
    return frame


def activity_page(player: Player, table: LocalTable) -> Any:
    """The Activity's document (Playwright's Frame), to evaluate in."""
    suffix = f":{table.activity_port}/"
    return next(f for f in player.page.frames if f.url.endswith(suffix))


def drawn(player: Player, table: LocalTable) -> dict[str, Any]:
    return dict(activity_page(player, table).evaluate(DRAWN))


def peek_and_wait_for_the_draw(frame: Any) -> None:
    """Her first move from the Activity (a peek: two of her cards clicked), then her turn to
    draw, the peeked cards turned face down again."""
    frame.locator("#who:has-text('Your turn')").wait_for()
    frame.locator("#seats-bottom button.card.playable").first.click()
    frame.locator("#seats-bottom button.card.target").first.click()
    frame.locator(FACE_UP).first.wait_for()
    frame.locator(f"{STOCK}.playable").wait_for()
    frame.locator(FACE_UP).first.wait_for(state="detached", timeout=20_000)
    assert frame.locator("#refusal").inner_text() == ""


def draw_then_hold(frame: Any) -> None:
    """A move from the page: she draws by clicking the stock and holds the card drawn."""
    frame.locator(STOCK).click()
    frame.locator(HELD).wait_for()
    assert frame.locator("#refusal").inner_text() == ""


def play_from_the_messages(player: Player, moves: int) -> None:
    """`moves` moves from "My cards" (a draw, then a discard), then wait for the bot's."""
    made = 0
    for _ in range(10 * moves):
        if made == moves:
            player.wait_for_turn_or_round_over()  # the bot played its turn after hers
            return
        choice = pick(player.offered(), ("draw", "discard"))
        if choice is None:
            player.wait_for_turn_or_round_over()
            continue
        player.use(*choice)
        made += bool(choice[1]) or action_of(*choice).startswith(("p=", "m="))
    raise AssertionError(f"{made} of {moves} moves made from the messages")


def test_a_page_whose_connection_is_cut_mid_hand_reconnects_and_catches_up(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.context.add_init_script(SOCKETS)
        open_table_with_bots(alice, "dutch", 1)
        frame = open_activity(alice)
        peek_and_wait_for_the_draw(frame)
        activity = activity_page(alice, table)
        activity.evaluate("window.__holdSockets = true; window.__sockets.at(-1).close()")
        frame.locator(f"#who:has-text('{RECONNECTING}')").wait_for()
        before = drawn(alice, table)
        # meanwhile she plays from the messages in another window: a draw, a discard; then
        # the bot plays its turn
        elsewhere = Player(browser, table, 1)
        elsewhere.click(elsewhere.wait_table_button("hand"))
        play_from_the_messages(elsewhere, 2)
        assert drawn(alice, table) == before  # cut off: the page shows none of it yet
        activity.evaluate("window.__holdSockets = false")
        frame.locator("#who:has-text('Your turn')").wait_for()
        caught_up = drawn(alice, table)
        assert caught_up["log"] != before["log"]
        assert activity.evaluate("window.__sockets.at(-1).readyState") == 1  # open again
        fresh = open_activity(elsewhere)  # a page opened now draws the same table
        fresh.locator("#who:has-text('Your turn')").wait_for()
        assert drawn(elsewhere, table) == caught_up
        draw_then_hold(frame)  # and play goes on
        assert alice.page_errors == [] and elsewhere.page_errors == []


def test_after_a_bot_restart_mid_hand_the_page_shows_the_same_table_and_play_goes_on(
    browser: Any, tmp_path: Path
) -> None:
    table = LocalTable(tmp_path, seed=1)
    table.start()
    try:
        alice = Player(browser, table, 1)
        open_table_with_bots(alice, "dutch", 1)
        frame = open_activity(alice)
        peek_and_wait_for_the_draw(frame)
        before = drawn(alice, table)
        table.stop()
        frame.locator(f"#who:has-text('{RECONNECTING}')").wait_for()
        table.start()  # the same database and local Discord, a new process
        frame.locator("#who:has-text('Your turn')").wait_for()
        assert drawn(alice, table) == before  # the same table: nothing lost
        draw_then_hold(frame)  # a move after the restart
        assert frame.locator(f"#who:has-text('{RECONNECTING}')").count() == 0
    finally:
        table.stop()
    assert not table.errors(), "".join(table.output)
