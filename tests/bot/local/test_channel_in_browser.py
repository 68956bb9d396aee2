"""What a channel shows of a table, in a real browser: one live message per table (the
lobby's becomes the match's, every round is shown in it), and "Last actions" telling each
player's turn whole, however many clicks it took."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.bot.local.browser import (
    ENDED,
    IN_PLAY,
    TABLE,
    Player,
    action_of,
    assert_nothing_leaked,
    local_table,
    play_against_bots,
)

# A table message (a Components V2 container), not a turn's mention or a reminder (plain text).
TABLE_MESSAGE = f"{TABLE}:has(.v2-container)"
# A Dame de Pique turn begins with a draw, from the stock or the pile.
TURN_OPENERS = ("drew", "took the pile")


def last_actions(player: Player) -> list[str]:
    """The lines of the table message's "Last actions", as the page shows them."""
    field = player.page.locator(f"{TABLE_MESSAGE} .v2-text", has_text="Last actions").last
    if field.count() == 0:
        return []
    lines = str(field.inner_text()).splitlines()  # the fields, each its name over its value
    start = lines.index("Last actions") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return [line for line in lines[start:end] if line.strip()]


# Each message of the channel: Alice's hand, a mention of a turn, or another message.
MESSAGE_KINDS = """() => [...document.querySelectorAll('article.message')].map(node =>
    node.classList.contains('ephemeral') ? 'hand'
    : node.innerText.includes('your turn at table') ? 'mention' : 'other')"""


def turns_shown_whole(player: Player, seen: list[str], ordered: list[list[str]]) -> None:
    """Every line of a seat's moves starts where its turn starts (never its tail alone), and
    a mention of the player's turn ends up above their hand: the hand moves to the bottom
    once the mention is out, so the page is waited on for that, not read at one moment (each
    channel where both show is kept in `ordered`: the caller makes sure it was looked at)."""
    for line in last_actions(player):
        found = re.match(r"(Alice|Bot \d): (.*)", line)
        if found:
            assert found.group(2).startswith(TURN_OPENERS), line
            seen.append(line)
    player.page.wait_for_function(
        f"""() => {{
            const kinds = ({MESSAGE_KINDS})();
            return !kinds.includes('mention') || !kinds.includes('hand')
                || kinds.lastIndexOf('mention') < kinds.lastIndexOf('hand');
        }}"""
    )
    order: list[str] = player.page.evaluate(MESSAGE_KINDS)
    if "mention" in order and "hand" in order:
        ordered.append(order)


def test_a_table_keeps_one_message_and_tells_each_turn_whole(browser: Any, tmp_path: Path) -> None:
    """Alice against three bot players in Dame de Pique: her turns of several clicks (draw,
    lay, discard) and theirs each read as one whole line, the lobby's message becomes the
    table's, and the next round is shown in the same message."""
    with local_table(tmp_path, seed=83) as table:
        alice = Player(browser, table, 1)
        alice.command("dame start", target="5000")
        lobby = alice.page.locator(TABLE_MESSAGE).last.get_attribute("data-message-id")
        for _ in range(3):
            alice.click(alice.wait_table_button("addbot"))
        alice.click(alice.wait_table_button("start"))
        alice.page.locator(IN_PLAY).last.wait_for()
        assert alice.page.locator(TABLE_MESSAGE).count() == 1  # the lobby's, now the round's
        assert alice.page.locator(IN_PLAY).last.get_attribute("data-message-id") == lobby
        alice.click(alice.wait_table_button("hand"))
        whole: list[str] = []
        ordered: list[list[str]] = []
        used = play_against_bots(
            alice,
            ("meld", "add", "draw", "discard"),
            after_move=lambda _: turns_shown_whole(alice, whole, ordered),
            keep=lambda item: not item[1].endswith("."),
        )
        assert any(action_of(*move).startswith("p=meld ") for move in used), used
        assert any(line.startswith("Alice: drew") and "; " in line for line in whole), whole
        assert ordered  # a mention and the hand were in the channel together: their order seen
        alice.page.locator(ENDED).last.wait_for()
        assert alice.page.locator(TABLE_MESSAGE).count() == 1  # the round's end, in it
        alice.screenshot("one-message-round-end")
        alice.click(alice.wait_table_button("next"))
        alice.page.locator(IN_PLAY).last.filter(has_text="Round 2 starts.").wait_for()
        assert alice.page.locator(TABLE_MESSAGE).count() == 1
        assert alice.page.locator(IN_PLAY).last.get_attribute("data-message-id") == lobby
        alice.screenshot("one-message-round-two")
        assert_nothing_leaked([alice])
