"""Dutch's "My cards" in a real browser, at a desktop's and a phone's width: the held card
beside its discard and each slot of the grid beside its swap, as the player sees them.

One person plays a round against two bot players (both rule sets), by clicking what the page
shows. Each time they hold a drawn card, the page is looked at: the hand's picture loaded (on a
phone, its cards at least 40 pixels wide), each section's button on the line of its cards, no
card written as text, nothing wider than the screen. Under `make screenshots` it takes the
README's pictures of a player's cards (`private-hand`, `phone-hand`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.pictures.layout import CARD, card_width
from tests.bot.local.browser import (
    HAND,
    Player,
    action_of,
    assert_nothing_leaked,
    local_table,
    play_against_bots,
)
from tests.bot.local.test_games_in_browser import (
    CARD_AS_TEXT,
    CARD_IN_WORDS,
    PHONE,
    SMALLEST_CARD,
    cards_shown_as_pictures,
    open_table_with_bots,
)

DESKTOP = 1180
SECTION = f"{HAND} .v2-section"
HAND_PICTURE = f"{HAND} img.v2-media"
HELD_AND_SLOTS = 5  # the held card beside its discard, four slots beside their swaps
LOOKS = 2  # the turns looked at closely; the round is then played to its end


def sections_seen(player: Player) -> list[dict[str, Any]]:
    """Each section of the newest My cards: its words, whether its line shows a card (an
    emoji), the boxes of its line and of its button, its button's custom id."""
    return list(
        player.page.locator(HAND)
        .last.locator(".v2-section")
        .evaluate_all(
            """(sections) => sections.map((section) => {
                const box = (node) => {
                    const r = node.getBoundingClientRect();
                    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
                };
                const texts = section.querySelector('.v2-section-texts');
                const button = section.querySelector('.v2-accessory button');
                const emoji = texts.querySelector('img.emoji');
                return {
                    words: texts.innerText.trim(),
                    card: emoji === null ? null : box(emoji),
                    line: box(texts),
                    button: button === null ? null : box(button),
                    id: button === null ? '' : button.dataset.customId,
                };
            })"""
        )
    )


def same_line(first: dict[str, float], second: dict[str, float]) -> bool:
    """Do two boxes overlap vertically (side by side on one line)?"""
    return first["top"] < second["bottom"] and second["top"] < first["bottom"]


def wider_than_the_screen(player: Player) -> list[str]:
    """The elements of the newest My cards that run past the window's sides."""
    return list(
        player.page.locator(HAND).last.evaluate(
            """(node) => [...node.querySelectorAll('*')]
                .filter((n) => {
                    const r = n.getBoundingClientRect();
                    return r.width > 0 && (r.left < -1 || r.right > innerWidth + 1);
                })
                .map((n) => n.className || n.tagName)"""
        )
    )


def hand_card_width(player: Player) -> float:
    """How wide a card of the hand's picture is drawn: the picture's drawn width times a
    card's share of its natural width."""
    drawn, natural = player.page.locator(HAND_PICTURE).last.evaluate(
        "n => [n.getBoundingClientRect().width, n.naturalWidth]"
    )
    return float(card_width(CARD) * drawn / natural) if natural else 0.0


class HeldCardLooks:
    """After each of the player's draws (the first `LOOKS`): what My cards shows while they
    hold the card, checked; under `make screenshots` the first is the README's picture."""

    def __init__(self, player: Player, width: int, preset: str, screenshot: str | None) -> None:
        self.player = player
        self.width = width
        self.preset = preset
        self.screenshot = screenshot
        self.looked = 0

    def __call__(self, used: list[tuple[str, str]]) -> None:
        if self.looked >= LOOKS or action_of(*used[-1]) != "p=draw":
            return
        player = self.player
        page = player.page
        # the answer to the draw: the held card beside its discard, each slot beside its swap
        page.wait_for_function(
            """([hand, count]) => {
                const all = document.querySelectorAll(hand);
                const mine = all[all.length - 1];
                return mine !== undefined
                    && mine.querySelectorAll('.v2-section .v2-accessory button').length >= count;
            }""",
            arg=[HAND, HELD_AND_SLOTS],
        )
        player.pictures_shown()
        shown = player.card_picture(HAND, emojis=True)
        assert shown["width"] > 0, shown  # the hand's picture, loaded
        if self.width <= PHONE:
            assert hand_card_width(player) >= SMALLEST_CARD
        sections = sections_seen(player)
        held, *slots = sections
        assert ":p=discard" in held["id"], sections  # the held card first, beside its discard
        assert [re.sub(r"\s+", " ", s["words"]) for s in slots[:4]] == ["1", "2", "3", "4"]
        assert all(":p=swap " in s["id"] for s in slots), sections
        for section in sections:
            assert section["card"] is not None, section  # the line shows its card, a picture
            assert section["button"] is not None, section
            assert same_line(section["card"], section["button"]), section
            assert same_line(section["line"], section["button"]), section
        written = player.embed_text(HAND)
        assert not CARD_AS_TEXT.search(written), written
        assert not CARD_IN_WORDS.search(written), written
        if self.preset == "house":  # still a button of its own, in a row (it asks first)
            assert "Call Dutch…" in written, written
        assert page.locator("#messages").evaluate("n => n.scrollWidth <= n.clientWidth")
        assert wider_than_the_screen(player) == []
        if self.looked == 0 and self.screenshot:
            player.screenshot(self.screenshot)
        self.looked += 1

    def check(self) -> None:
        assert self.looked == LOOKS, f"the held card was looked at {self.looked} times"


@pytest.mark.parametrize(
    ("width", "preset", "screenshot"),
    [
        (DESKTOP, "classic", None),
        (DESKTOP, "house", "private-hand"),
        (PHONE, "classic", None),
        (PHONE, "house", "phone-hand"),
    ],
)
def test_a_dutch_player_sees_the_held_card_and_each_slot_beside_its_button(
    browser: Any, tmp_path: Path, width: int, preset: str, screenshot: str | None
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1, width=width)
        open_table_with_bots(alice, "dutch", 2, preset=preset)
        cards_shown_as_pictures(alice)
        looks = HeldCardLooks(alice, width, preset, screenshot)
        # draw and swap turn after turn; never a Dutch call (the bots' ends the round)
        used = play_against_bots(
            alice,
            ("draw", "swap", "discard", "end"),
            after_move=looks,
            keep=lambda item: "dutch" not in action_of(*item),
        )
        looks.check()
        swaps = [action_of(*move) for move in used if ":p=swap" in move[0]]
        assert swaps, used  # played from the buttons beside the slots
        assert_nothing_leaked([alice])
