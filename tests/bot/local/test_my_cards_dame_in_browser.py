"""Dame de Pique's "My cards" as a player sees it in a real browser, at a desktop's and a
phone's width: the hand's picture loaded and legible, each pack the hand can lay beside its
button on one line, every card a picture (none written as text), nothing cut off."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.bot.local.browser import (
    HAND,
    Player,
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
    shown_card_width,
)

DESKTOP = 1180
PREFERENCE = ("take", "meld", "add", "draw", "discard")
ENOUGH = 2  # looks at My cards showing packs beside their buttons
MOST_MOVES = 120


def what_my_cards_shows(player: Player) -> dict[str, Any]:
    """The newest My cards as drawn: its sections (text, emojis, the boxes of its text and of
    its button, the button's custom id), its text displays' words, its elements wider than
    the window, and whether the chat scrolls sideways."""
    shown = player.page.locator(HAND).last.evaluate(
        """(node) => {
            const box = (n) => { const b = n.getBoundingClientRect();
                return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
            const sections = [...node.querySelectorAll('.v2-section')].map((section) => {
                const texts = section.querySelector('.v2-section-texts');
                const button = section.querySelector('.v2-accessory button');
                return {
                    text: texts.innerText,
                    emojis: texts.querySelectorAll('img.emoji').length,
                    texts: box(texts),
                    button: button === null ? null : box(button),
                    id: button === null ? '' : button.dataset.customId,
                };
            });
            const words = [...node.querySelectorAll('.v2-text')].map((t) => t.innerText);
            const wide = [...node.querySelectorAll('*')]
                .filter((n) => { const b = n.getBoundingClientRect();
                    return b.width > 0 && (b.left < -0.5 || b.right > innerWidth + 0.5); })
                .map((n) => n.className || n.tagName);
            const clipped = [...node.querySelectorAll('.v2-container, .v2-section, .v2-text')]
                .filter((n) => n.scrollWidth > n.clientWidth + 1)
                .map((n) => n.className);
            const list = document.getElementById('messages');
            return {sections, words, wide, clipped,
                    sideways: list.scrollWidth > list.clientWidth};
        }"""
    )
    return dict(shown)


def check_my_cards(player: Player, width: int) -> list[dict[str, Any]]:
    """What the player sees in My cards holds at this width; its sections."""
    player.pictures_shown()
    picture = f"{HAND} img.v2-media"
    loaded = player.page.locator(picture).last.evaluate("n => n.complete && n.naturalWidth")
    assert loaded, "the hand's picture did not load"
    if width == PHONE:
        assert shown_card_width(player, picture) >= SMALLEST_CARD
    shown = what_my_cards_shows(player)
    for words in shown["words"]:  # emojis are pictures: no card in the text
        assert not CARD_AS_TEXT.search(words), words
        assert not CARD_IN_WORDS.search(words), words
    assert shown["wide"] == [] and shown["clipped"] == [], shown
    assert not shown["sideways"]
    for section in shown["sections"]:
        assert section["emojis"] >= 1, section  # its pack's cards, as pictures
        assert re.search(r":p=(meld|add|take) ", section["id"]), section
        texts, button = section["texts"], section["button"]
        assert button is not None, section
        # on one line: the button's box and its text's overlap from top to bottom
        assert button["top"] < texts["bottom"] and button["bottom"] > texts["top"], section
    return list(shown["sections"])


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_dame_my_cards_shows_each_pack_on_the_line_of_its_button(
    browser: Any, tmp_path: Path, width: int
) -> None:
    """Alice plays her turns, taking the pile and laying packs when she can, until My cards
    has shown packs beside their buttons twice, new packs or adds among them; whenever she may
    move, what she sees holds."""
    with local_table(tmp_path, seed=83) as table:
        alice = Player(browser, table, 1, width=width)
        open_table_with_bots(alice, "dame", 3, target="50", bots="simple")
        cards_shown_as_pictures(alice)
        seen = lays = 0
        for _ in range(MOST_MOVES):
            if alice.round_over() or (seen >= ENOUGH and lays):
                break
            offered = [item for item in alice.offered() if not item[0].endswith(".")]
            choice = pick(offered, PREFERENCE)
            if choice is None:
                alice.wait_for_turn_or_round_over()
                continue
            sections = check_my_cards(alice, width)
            seen += bool(sections)
            if any(re.search(r":p=(meld|add) ", s["id"]) for s in sections):
                if lays == 0:  # the README's picture: packs to lay beside their buttons
                    alice.screenshot("dame-my-cards" if width == DESKTOP else "dame-my-cards-phone")
                lays += 1
            alice.use(*choice)
        assert seen >= ENOUGH and lays, f"packs beside their buttons {seen} times, {lays} to lay"
        assert_nothing_leaked([alice])
