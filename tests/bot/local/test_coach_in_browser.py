"""A practice table with a coach on the local page, as a person uses it: `/euchre start` with
the coach option, three bot players, then My cards and its Hint button: the coach's answer
names the move, says why and shows the hand with the card set apart (`make screenshots`:
coach-hint.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.local.browser import MINE, PICTURE, Player, local_table
from tests.bot.local.test_games_in_browser import open_table_with_bots

HINT = f'{MINE}:has-text("Coach\'s hint")'
PATIENCE_MS = 60_000  # a step may wait long on a loaded machine; a passing run never waits


def test_a_hint_at_a_coached_table_on_the_page(browser: Any, tmp_path: Path) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.page.set_default_timeout(PATIENCE_MS)
        open_table_with_bots(alice, "euchre", 3, coach="true")
        assert "(unrated)" in alice.page.locator(".v2-text .md-h3").first.inner_text()
        hint = alice.page.locator(f"{MINE} button[data-custom-id$=':hint']").last
        hint.wait_for()
        assert hint.inner_text().strip() == "Hint"
        alice.click(hint)
        answer = alice.page.locator(HINT).last
        answer.wait_for()
        words = answer.inner_text()
        assert "The strong bot would play" in words
        # The hand's picture with the card set apart: the V2 message's gallery image, not a
        # card's emoji, and loaded before the screenshot is taken.
        picture = answer.locator(PICTURE).first
        picture.wait_for()
        alice.page.wait_for_function(
            "(image) => image.complete && image.naturalWidth > 0", arg=picture.element_handle()
        )
        alice.screenshot("coach-hint")
