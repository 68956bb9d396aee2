"""Euchre's "My cards" in a real browser, at desktop and phone widths: each move the player
may make lies beside the card it concerns (a section with its button), on the same line, the
cards as pictures, and nothing runs off the screen.

Alice deals the first hand of a seeded table against three bot players: a bot orders the
turned card up, she discards and plays her five cards, clicking each on her page."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.bot.local.browser import (
    HAND,
    PICTURE,
    Player,
    action_of,
    assert_nothing_leaked,
    local_table,
    pick,
)
from tests.bot.local.test_games_in_browser import (
    CARD_AS_TEXT,
    CARD_IN_WORDS,
    PHONE,
    SMALLEST_CARD,
    cards_shown_as_pictures,
    open_table_with_bots,
    round_end_shown,
    shown_card_width,
)

DESKTOP = 1180
CARD_MOVE = re.compile(r":p=(play|discard) (\w+)$")

# Per section of the newest My cards: its button's custom id, the names of the card emojis in
# its text, whether each of them shares a line with the button (their boxes overlap
# vertically), and its text; then the move buttons outside any section.
SECTIONS_JS = """(node) => {
    const across = (a, b) => a.top < b.bottom && b.top < a.bottom;
    const sections = [...node.querySelectorAll('.v2-section')].map((section) => {
        const button = section.querySelector('.v2-accessory button');
        const box = button.getBoundingClientRect();
        const emojis = [...section.querySelectorAll('.v2-section-texts img.emoji')];
        return {
            id: button.dataset.customId,
            cards: emojis.map((img) => img.alt),
            sameLine: emojis.map((img) => across(img.getBoundingClientRect(), box)),
            text: section.innerText,
        };
    });
    const loose = [...node.querySelectorAll('button[data-custom-id]')]
        .filter((b) => b.closest('.v2-section') === null)
        .map((b) => b.dataset.customId);
    return {sections, loose};
}"""

# Elements of the newest My cards that stick out of the window, and whether the chat scrolls
# sideways.
CUT_OFF_JS = """(node) => {
    const out = [...node.querySelectorAll('*')].filter((e) => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && (box.left < -0.5 || box.right > innerWidth + 0.5);
    }).map((e) => e.className || e.tagName);
    const list = document.getElementById('messages');
    return {out, sideways: list.scrollWidth > list.clientWidth};
}"""


def what_my_cards_shows(player: Player, width: int) -> list[str]:
    """Check the newest My cards as the player sees it now and return the kinds of its
    sections (`play`, `discard`, `order`, `call`): the hand picture loaded (its cards wide
    enough on a phone), every section's button on the line of its cards, each playable card
    beside its own button, no card written as text, nothing cut off."""
    player.pictures_shown()
    mine = player.private()
    picture = f"{HAND} :is({PICTURE})"
    assert int(player.page.locator(picture).last.evaluate("n => n.naturalWidth")) > 0
    if width == PHONE:
        assert shown_card_width(player, picture) >= SMALLEST_CARD
    laid = mine.evaluate(SECTIONS_JS)
    kinds = []
    for section in laid["sections"]:
        action = action_of(section["id"], "")
        assert action.startswith("p="), section
        kinds.append(action[2:].split(" ")[0])
        assert all(section["sameLine"]), section
        move = CARD_MOVE.search(section["id"])
        if move is not None:  # the card it plays, and only it, as its picture
            assert [alt.strip(":").split("_", 1)[1] for alt in section["cards"]] == [
                move.group(2)
            ], section
    assert not [i for i in laid["loose"] if CARD_MOVE.search(i)], laid["loose"]
    written = player.embed_text(HAND)
    assert not CARD_AS_TEXT.search(written), written
    assert not CARD_IN_WORDS.search(written), written
    cut = player.page.locator(HAND).last.evaluate(CUT_OFF_JS)
    assert cut == {"out": [], "sideways": False}, cut
    return kinds


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_a_euchre_hand_shows_each_move_beside_its_card_at_desktop_and_phone_width(
    browser: Any, tmp_path: Path, width: int
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1, width=width)
        alice.command("deck", auto_play="false")  # she clicks every card, the last one too
        open_table_with_bots(alice, "euchre", 3, target="1", bots="simple")
        cards_shown_as_pictures(alice)
        seen: Counter[str] = Counter()
        for _ in range(60):
            if alice.round_over():
                break
            choice = pick(alice.offered(), ("order", "discard", "play"))
            if choice is None:
                alice.wait_for_turn_or_round_over()
                continue
            kinds = what_my_cards_shows(alice, width)
            seen.update(kinds)
            alice.use(*choice)
        assert alice.round_over()
        # her discard (five cards beside Discard), then her plays: one section a card
        assert seen["discard"] == 5 and seen["play"] >= 5, seen
        round_end_shown(alice, "Alice", "Bot 1", "Bot 2", "Bot 3")
        assert_nothing_leaked([alice])
