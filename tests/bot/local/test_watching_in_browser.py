"""A member who is not playing watches a table, in a real browser: Alice plays Euchre against
three bot players at a table shown with its hands; Bob, on his own page, clicks Watch and
reads the table and every hand as it was at the start of the turn, in a message only he sees,
which follows the hand by itself. Under `make screenshots` it takes the README's picture of
a watcher's view."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.bot.local.browser import (
    IN_PLAY,
    MINE,
    TEXT_EMOJIS,
    Player,
    assert_nothing_leaked,
    local_table,
    pick,
)
from tests.bot.local.test_games_in_browser import open_table_with_bots

WATCHING = f"{MINE}:has-text('You are watching this table')"


def test_a_member_not_playing_watches_the_hands_one_turn_late_in_a_message_of_their_own(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        open_table_with_bots(alice, "euchre", 3, target="1", bots="simple", spectators="hands")
        bob = Player(browser, table, 2)  # his page speaks French
        bob.click(bob.wait_table_button("watch"))
        french = bob.page.locator(f"{MINE}:has-text('Vous regardez cette table')").last
        french.filter(has_text="Cartes d'Alice").wait_for()
        bob.page.select_option("#locale-switch", "en-US")
        bob.settled()
        bob.click(bob.wait_table_button("watch"))  # again, in English: a new message
        watching = bob.page.locator(WATCHING).last
        for name in ("Alice", "Bot 1", "Bot 2", "Bot 3"):
            watching.filter(has_text=f"Cards of {name}").wait_for()
        assert watching.locator(TEXT_EMOJIS).count() >= 20  # four hands of five cards
        assert not watching.locator("button[data-custom-id]").count()  # nothing to click
        alice.page.locator(IN_PLAY).last.filter(has_text=re.compile(r"1 watching")).wait_for()
        # Alice plays on: Bob's message follows the hand by itself (the trick's cards leave
        # the hands shown to him one turn late)
        before = watching.inner_text()
        for _ in range(2):
            alice.wait_for_turn_or_round_over()
            move = pick(alice.offered(), ("order", "discard"))
            assert move is not None, alice.offered()
            alice.use(*move)
        bob.page.wait_for_function(
            "([selector, before]) => { const all = document.querySelectorAll(selector);"
            " return all.length && all[all.length - 1].innerText !== before; }",
            arg=[MINE, before],
        )
        # the table's picture too, as on the table message (drawn, then laid in the message)
        assert bob.card_picture(MINE, emojis=True)["width"] >= 150
        bob.screenshot("watcher-view", height=1300)
        assert_nothing_leaked([alice, bob])
