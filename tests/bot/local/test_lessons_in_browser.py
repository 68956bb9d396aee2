"""A guided hand on the local page, as a person takes it: `/dutch learn`, the answer names the
lesson's thread, the thread shows the lesson's lines and the table; a move that is not the
lesson's is answered with why and the lesson's move brings the next line (`make screenshots`:
lesson-dutch.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.i18n import text
from tests.bot.local.browser import HAND, MINE, TABLE, Player, local_table

PATIENCE_MS = 60_000  # a step may wait long on a loaded machine; a passing run never waits


def _shown(key: str) -> str:
    """The start of a line as the page shows it (markdown rendered), quoted for a selector."""
    words = text("en", key).replace("*", "")[:36]
    assert "'" not in words
    return f"'{words}'"


def _play(player: Player, notation: str) -> None:
    """Play `notation` from the player's newest message: its button, or its select option."""
    player.click(player.wait_table_button("hand"))
    player.page.locator(HAND).last.wait_for()
    offered = player.offered()
    found = next(
        ((c, v) for c, v in offered if v == notation or (not v and c.endswith(f":p={notation}"))),
        None,
    )
    assert found is not None, f"{notation!r} is not offered: {offered}"
    player.use(*found)


def test_the_dutch_guided_hand_on_the_page(browser: Any, tmp_path: Path) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.page.set_default_timeout(PATIENCE_MS)
        alice.command("dutch learn")
        opened = alice.page.locator(f"{MINE} [data-channel-link]").last
        opened.wait_for()
        opened.click()  # the answer names the lesson's thread: open it
        alice.page.wait_for_selector(f"{TABLE}:has-text({_shown('dutch.lesson.peek')})")
        _play(alice, "peek 1 2")  # not the lesson's peek: answered, nothing played
        alice.page.locator(f"{MINE}:has-text({_shown('dutch.lesson.peek.wrong')})").last.wait_for()
        _play(alice, "peek 3 4")
        alice.page.wait_for_selector(f"{TABLE}:has-text({_shown('dutch.lesson.draw')})")
        alice.screenshot("lesson-dutch", height=1100)
