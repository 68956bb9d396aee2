"""A season's board on the local page: three people play a match with monthly seasons on,
then read the board of the season under way (its heading names it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.local.browser import TABLE, Player, local_table
from tests.bot.local.test_page_in_browser import play_until_round_over


def test_a_season_board_read_on_the_page_names_its_season(browser: Any, tmp_path: Path) -> None:
    with local_table(tmp_path) as table:
        alice, bob, carol = players = [Player(browser, table, n) for n in (1, 2, 3)]
        alice.command("settings", season="monthly", season_channel="here")
        alice.page.locator("article.message").filter(
            has_text="monthly, from the 1st"
        ).last.wait_for()
        alice.command("dutch start", target="10")
        for guest in (bob, carol):
            guest.click(guest.wait_table_button("join"))
        alice.click(alice.wait_table_button("start"))
        for player in players:
            player.click(player.wait_table_button("hand"))
        play_until_round_over(players, max_steps=120, after_move=lambda _: None)
        alice.command("leaderboard", game="dutch")
        board = alice.page.locator(TABLE).filter(has_text="Season: ").last
        board.wait_for()
        shown = board.inner_text()
        assert "Dutch leaderboard" in shown
        ranked = all(name in shown for name in ("Alice", "Bob", "Carol"))
        assert ranked or "Nobody is ranked yet" in shown, shown
        alice.screenshot("season-board")
