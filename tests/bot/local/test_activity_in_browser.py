"""The table as an Activity from the local table, in a real browser: Alice opens a Dutch table
against a bot player, clicks "Open the table" and plays from the Activity's page, framed as
Discord frames it; the page signs in through the local table's handshake."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.local.browser import Player, local_table
from tests.bot.local.test_games_in_browser import open_table_with_bots


def test_a_player_opens_the_table_as_an_activity_and_plays_from_it(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        open_table_with_bots(alice, "dutch", 1)
        alice.click(alice.wait_table_button("activity"))
        frame = alice.page.frame_locator("#activity iframe")
        frame.locator("#who:has-text('Your turn')").wait_for()
        assert frame.locator("#seats .seat").count() == 2
        assert frame.locator("#seats .seat img").count() >= 8  # two grids of four, face down
        moves = frame.locator("#moves button")
        first = moves.first.inner_text()
        assert first.startswith("peek")
        moves.first.click()
        # the move is played: the peeked cards show face up for a while, no refusal
        frame.locator(
            "#seats img[alt$='S'], #seats img[alt$='H'], #seats img[alt$='D'], #seats img[alt$='C']"
        ).first.wait_for()
        assert frame.locator("#refusal").inner_text() == ""
        # her turn: she draws by clicking the stock, then discards what she drew
        frame.locator("#moves button:text-is('draw')").wait_for()
        frame.locator("#middle button.card").first.click()
        frame.locator("#moves button:text-is('discard')").wait_for()
        frame.locator("#moves button:text-is('discard')").click()
        frame.locator("#middle img[alt]").nth(1).wait_for()  # the discard pile shows a card
        assert frame.locator("#refusal").inner_text() == ""
        assert not table.errors()
