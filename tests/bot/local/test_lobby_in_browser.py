"""The lobby as a newcomer meets it, in a real browser: a solo table of a game of four is
filled with bot players in one click, a start with too few players is refused in a sentence
naming the game, and a full table offers no seat to take."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.local.browser import HAND, MINE, TABLE, Player, local_table, pick

LOBBY_BUTTONS = f"{TABLE} button[data-custom-id]"


def lobby_buttons(player: Player) -> list[str]:
    """The labels of the newest table message's buttons, in order."""
    buttons = player.page.locator(TABLE).last.locator("button[data-custom-id]")
    return [str(label).strip() for label in buttons.all_inner_texts()]


def test_a_solo_dame_table_is_refused_in_a_sentence_then_filled_in_one_click(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.command("dame start")
        alice.click(alice.wait_table_button("start"))
        refusal = str(alice.page.locator(MINE).last.inner_text())
        assert "Dame de Pique is played by exactly 4 players" in refusal, refusal
        assert "needs 4 to 4" not in refusal
        alice.screenshot("lobby-solo-dame")
        alice.click(alice.wait_table_button("fillbots"))
        seated = alice.page.locator(TABLE).last.inner_text()
        assert all(name in seated for name in ("Alice", "Bot 1", "Bot 2", "Bot 3")), seated
        # full: nothing left to take or fill, so no Join, Add bot player nor Fill
        assert lobby_buttons(alice) == ["Leave", "Start (host)", "Cancel (host)"]
        alice.screenshot("lobby-filled-dame")
        alice.click(alice.wait_table_button("start"))
        alice.wait_table_button("hand")


def test_a_full_euchre_table_offers_no_join_to_a_newcomer(browser: Any, tmp_path: Path) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.command("euchre start")
        assert lobby_buttons(alice) == [
            "Join",
            "Leave",
            "Add bot player",
            "Fill with bot players",
            "Start (host)",
            "Cancel (host)",
        ]
        alice.click(alice.wait_table_button("fillbots"))
        bob = Player(browser, table, 2)
        bob.page.locator(TABLE).last.filter(has_text="Bot 3").wait_for()
        assert bob.table_button("join").count() == 0
        assert bob.table_button("addbot").count() == 0


def test_calling_dutch_is_a_visible_button_that_asks_once(browser: Any, tmp_path: Path) -> None:
    """Classic Dutch against a bot: the turn's first button is the draw; "Call Dutch…" asks
    with the call's own button and Back, and Back leaves the turn as it was."""
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.command("dutch start", preset="classic")
        alice.click(alice.wait_table_button("addbot"))
        alice.click(alice.wait_table_button("start"))
        alice.click(alice.wait_table_button("hand"))
        alice.wait_for_turn_or_round_over()
        peek = pick(alice.offered(), ("peek",))
        assert peek is not None
        alice.use(*peek)
        # her turn's start, the call's moment (the bot may play first)
        calling = f"{HAND}:has(button[data-custom-id$=':n=dutch'])"
        alice.page.locator(calling).last.wait_for()
        alice.settled()
        mine = alice.page.locator(calling).last
        first = mine.locator("button[data-custom-id]").first
        assert "Draw" in first.inner_text()
        alice.screenshot("dutch-call-offered")
        alice.click(mine.locator("button[data-custom-id$=':n=dutch']"))
        asking = alice.private()
        sure = asking.locator("button[data-custom-id$=':p=dutch']")
        assert "Yes, call Dutch" in sure.inner_text()
        alice.screenshot("dutch-call-asks")
        alice.click(asking.locator("button[data-custom-id$=':n=']").first)
        assert alice.private().locator("button[data-custom-id$=':p=draw']").count() == 1
