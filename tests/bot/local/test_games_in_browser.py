"""One person against bot players, in a real browser: the local table dealt from known seeds
(`seeded_table`, so each test replays the same game), a page opened by Chromium, bot players
added with the lobby's button, and every move made by clicking what the page shows ("My cards",
its buttons and select menus) until the table shows the round's end."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.pictures.layout import CARD, card_width
from tests.bot.local.browser import (
    ENDED,
    HAND,
    IN_PLAY,
    MINE,
    ROUND_OVER,
    TABLE,
    Player,
    action_of,
    assert_nothing_leaked,
    local_table,
    pick,
    play_against_bots,
)


def open_table_with_bots(player: Player, game: str, bot_players: int, **options: str) -> None:
    """`/<game> start`, bot players added with the lobby's button, Start, then My cards."""
    player.command(f"{game} start", **options)
    for _ in range(bot_players):
        player.click(player.wait_table_button("addbot"))
    player.click(player.wait_table_button("start"))
    player.click(player.wait_table_button("hand"))


Moves = list[tuple[str, str]]
# A card written as text (`K♥`, `10♦`): with pictures on, a hand or a trick never shows one.
CARD_AS_TEXT = re.compile(r"(?<![\w])(10|[2-9JQKA])[♠♥♦♣]")
# A card written in words ("Queen of Spades", "Valet de Trèfle", "Joker"): the hand's sections
# name their moves beside the cards' pictures, never the cards. ("Dame de" is the game's name.)
CARD_IN_WORDS = re.compile(
    r"\b(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of\b"
    r"|\bof (Spades|Hearts|Diamonds|Clubs)\b|\bJoker\b"
    r"|\b(Deux|Trois|Quatre|Cinq|Six|Sept|Huit|Neuf|Dix|Valet|Roi|As) de "
    r"(Pique|C(œ|oe)ur|Carreau|Trèfle)\b"
)


@dataclass
class MidHand:
    """What the player sees after the first of their moves that `when` accepts (given the
    moves so far), once they may move again and the table message says so (`now`, a
    pattern: its edits are paced, so it may show an earlier turn for a moment): My cards and
    the table message each show their card picture, loaded, and write no card as text; the
    newest message is whole on screen. Under `make screenshots` it takes the README's picture
    of `game` (`readme`). `check()`: it was seen."""

    player: Player
    game: str
    when: Callable[[Moves], bool]
    now: str
    readme: bool = True  # the README shows this game's hand
    height: int | None = None  # of the README's picture, when taller than the page
    seen: bool = False

    def __call__(self, used: Moves) -> None:
        if self.seen or not self.when(used):
            return
        player = self.player
        player.wait_for_turn_or_round_over()
        assert not player.round_over(), f"the round ended before the middle of the hand: {used}"
        player.page.locator(IN_PLAY).last.filter(has_text=re.compile(self.now)).wait_for()
        for message in (HAND, IN_PLAY):  # the hand's picture follows its answer when drawn
            shown = player.card_picture(message, emojis=True)
            assert shown["width"] >= 150 and shown["height"] >= 90, (message, shown)
            written = player.embed_text(message)
            assert not CARD_AS_TEXT.search(written), (message, written)
        player.pictures_shown()
        player.newest_in_view()
        for message in (HAND, IN_PLAY):  # a 90-second turn: its time of day, not "2 minutes"
            written = player.embed_text(message)
            assert re.search(r"time runs out at \d", written), (message, written)
            assert "minute" not in written, (message, written)
        if self.game == "dame":  # the hand once, as its picture: no rows of text by rank
            assert "×" not in player.embed_text(HAND)
        if self.readme:
            player.screenshot(f"{self.game}-mid-hand", height=self.height)
        self.seen = True

    def check(self) -> None:
        assert self.seen, f"the middle of the hand of {self.game} was never seen"


def cards_shown_as_pictures(player: Player) -> None:
    """My cards and the table message each carry a picture of their cards, loaded, and write
    the cards as emojis: big enough to read, in every game. (The emojis are uploaded while the
    table starts: an answer given before is text, and Refresh shows them.)"""
    if player.card_picture(HAND)["emojis"] == 0:
        player.page.locator(f"{IN_PLAY} .v2-container img.emoji").last.wait_for()  # uploaded now
        player.refresh_private()
    for message in (HAND, IN_PLAY):
        shown = player.card_picture(message, emojis=True)
        assert shown["width"] >= 150 and shown["height"] >= 90, (message, shown)


def buttons_showed_their_cards(player: Player) -> None:
    """Every button the player clicked that names a card showed that card's emoji, and some
    button showed one ("Swap into card 1" shows the card it swaps in)."""
    used = player.buttons_used
    assert all(emoji for label, emoji in used if CARD_AS_TEXT.search(label)), used
    assert any(emoji for _, emoji in used), used


def round_end_shown(player: Player, *names: str) -> str:
    """The table message's text, once it shows the round's end naming every player."""
    shown = str(player.page.locator(TABLE).last.inner_text())
    assert "Round over" in shown, shown
    assert all(name in shown for name in names), shown
    return shown


def test_one_person_plays_a_round_of_dutch_against_two_bot_players(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        open_table_with_bots(alice, "dutch", 2)
        cards_shown_as_pictures(alice)
        # Draw and swap into the grid, turn after turn: the round ends on a bot's Dutch call
        # (Alice never calls it herself, whatever her message offers first).
        # her page once she has played a turn and it is hers again (the README's Dutch
        # pictures are those of three people, in test_page_in_browser)
        turned = MidHand(alice, "dutch", lambda used: len(used) == 3, "Alice to play", readme=False)
        used = play_against_bots(
            alice,
            ("draw", "swap", "discard", "end"),
            after_move=turned,
            keep=lambda item: action_of(*item) != "p=dutch",
        )
        turned.check()
        buttons_showed_their_cards(alice)
        actions = [action_of(*move) for move in used]
        assert actions[0].startswith("peek"), actions
        assert actions.count("p=draw") >= 2, actions
        shown = round_end_shown(alice, "Alice", "Bot 1", "Bot 2")
        assert "Dutch call" in shown
        # the round-end picture of every hand, loaded from the message's file (it was 0x0)
        assert alice.card_picture(ENDED)["width"] > 300
        assert_nothing_leaked([alice])


def test_one_person_plays_a_hand_of_euchre_against_three_bot_players(
    browser: Any, tmp_path: Path
) -> None:
    """Alice deals the first hand: a bot orders the turned card up, she picks it up and
    discards, then she plays her five cards; at target 1 the hand ends the match."""
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.command("deck", auto_play="false")  # she clicks every card, the last one too
        # The simple bots: the strong ones search for a time, so their play varies with load.
        open_table_with_bots(alice, "euchre", 3, target="1", bots="simple")
        cards_shown_as_pictures(alice)
        # her page (and the README's picture) once she has played two cards, her turn again
        plays = MidHand(alice, "euchre", lambda used: len(used) == 3, "Alice to (lead|play)")
        used = play_against_bots(alice, ("order", "discard"), after_move=plays)
        plays.check()
        buttons_showed_their_cards(alice)
        actions = [action_of(*move) for move in used]
        assert actions[0].startswith("p=discard "), actions
        assert sum(a.startswith("p=play ") for a in actions) == 5, actions
        shown = round_end_shown(alice, "Alice", "Bot 1", "Bot 2", "Bot 3")
        assert "Match over" in shown and "Rematch" in shown
        assert re.search(r"Tricks: N–S \d, E–W \d", shown), shown
        # the round-end picture of every hand as played, loaded from the message's file
        assert alice.card_picture(ENDED)["width"] > 300
        alice.screenshot("euchre-round-end")
        assert_nothing_leaked([alice])


BY_ITSELF = "plays by itself"


def card_buttons_and_hand(player: Player) -> tuple[list[str], list[str]]:
    """The emojis of the cards beside (or on) the card buttons of the newest "My cards", in
    order, and those its first text shows, in order (the hand's line first)."""
    return tuple(  # type: ignore[return-value]
        player.private().evaluate(
            """(node) => [
                [...node.querySelectorAll("button[data-custom-id*=':p=play '],"
                    + " button[data-custom-id*=':p=discard ']")]
                    .map(b => (b.closest('.v2-section') || b).querySelector('img.emoji'))
                    .filter(i => i !== null).map(i => i.alt),
                [...(node.querySelector('.embed-description, .v2-container > .v2-text')
                    ?.querySelectorAll('img.emoji') ?? [])].map(i => i.alt),
            ]"""
        )
    )


def test_a_euchre_players_cards_follow_the_hand_and_an_only_card_plays_by_itself(
    browser: Any, tmp_path: Path
) -> None:
    """Alice orders up and plays her hand against three bot players: her card buttons come in
    the order her hand shows, and a card that is her only legal play is announced on "My
    cards" ("plays by itself") and played without a click."""
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        open_table_with_bots(alice, "euchre", 3, target="1", bots="simple")
        cards_shown_as_pictures(alice)
        ordered = by_itself = 0
        for _ in range(60):
            if alice.round_over():
                break
            choice = pick(alice.offered(), ("order", "discard"))
            if choice is None:
                alice.wait_for_turn_or_round_over()
                continue
            buttons, shown = card_buttons_and_hand(alice)
            if len(buttons) > 1:  # a choice of cards: in the order the hand shows them
                assert all(alt in shown for alt in buttons), (buttons, shown)
                places = [shown.index(alt) for alt in buttons]
                assert places == sorted(places), (buttons, shown)
                ordered += 1
            elif len(buttons) == 1 and action_of(*choice).startswith("p=play "):
                # her only legal card: said on My cards, then played for her, no click
                alice.private().filter(has_text=BY_ITSELF).wait_for()
                if by_itself == 0:
                    alice.screenshot("euchre-only-card-plays-by-itself")
                by_itself += 1
                alice.page.wait_for_function(
                    """([hand, over, words]) => {
                        if (document.querySelector(over)) return true;
                        const hands = document.querySelectorAll(hand);
                        const mine = hands[hands.length - 1];
                        return !mine.innerText.includes(words);
                    }""",
                    arg=[HAND, ROUND_OVER, BY_ITSELF],
                )
                alice.settled()
                continue
            alice.use(*choice)
        assert alice.round_over()
        assert ordered >= 1 and by_itself >= 1, (ordered, by_itself)  # her last card, at least
        shown = round_end_shown(alice, "Alice", "Bot 1", "Bot 2", "Bot 3")
        assert "Match over" in shown
        assert_nothing_leaked([alice])


def after_a_pack_and_a_discard(used: Moves) -> bool:
    actions = [action_of(*move) for move in used]
    return actions[-1].startswith("p=discard ") and any(a.startswith("p=meld ") for a in actions)


def test_one_person_plays_a_hand_of_dame_de_pique_against_three_bot_players(
    browser: Any, tmp_path: Path
) -> None:
    """Alice draws, lays what she can and discards until a player goes out. A new pack of
    the hand's cards is laid in one action, by its own button ("Lay 9♠ 9♥ 9♦")."""
    with local_table(tmp_path, seed=83) as table:
        alice = Player(browser, table, 1)
        open_table_with_bots(alice, "dame", 3, target="50")
        cards_shown_as_pictures(alice)
        preference = ("meld", "add", "draw", "discard")
        # her page (and the README's picture) at her next draw once she has laid a pack (her
        # turn ended on a discard): both teams' packs and the pile on the table, her hand below
        packs_laid = MidHand(
            alice, "dame", after_a_pack_and_a_discard, "Alice to draw", height=1300
        )
        used = play_against_bots(
            alice,
            preference,
            after_move=packs_laid,
            keep=lambda item: not item[1].endswith("."),  # a pack's button, not its rank's step
        )
        packs_laid.check()
        buttons_showed_their_cards(alice)
        actions = [action_of(*move) for move in used]
        assert actions.count("p=draw") >= 2 and any(a.startswith("p=discard ") for a in actions)
        packs = [custom_id for custom_id, _ in used if ":p=meld " in custom_id]
        assert packs, f"no pack was laid in one click: {used}"
        shown = round_end_shown(alice, "Alice", "Bot 1", "Bot 2", "Bot 3")
        assert "went out" in shown and "×" not in shown  # packs in words: "9 pack: 3 cards"
        assert "cards left in hand" in shown
        # the round-end picture of every hand left and every pack, loaded from its file
        assert alice.card_picture(ENDED)["width"] > 300
        alice.screenshot("dame-round-end")
        assert_nothing_leaked([alice])


def newest_drawn(player: Player, selector: str) -> tuple[float, float]:
    """The drawn width (CSS pixels) and natural width of the newest `selector`, once it is
    there and, for a picture, loaded: a message can be replaced between two looks, and a
    picture still loading has no width yet."""
    drawn, natural = player.page.wait_for_function(
        """(selector) => {
            const found = document.querySelectorAll(selector);
            const newest = found[found.length - 1];
            if (newest === undefined) return false;
            if (newest.tagName === 'IMG' && !(newest.complete && newest.naturalWidth > 0))
                return false;
            const drawn = newest.getBoundingClientRect().width;
            return drawn > 0 && [drawn, newest.naturalWidth ?? 0];
        }""",
        arg=selector,
    ).json_value()
    return float(drawn), float(natural)


def drawn_width(player: Player, selector: str) -> float:
    """How wide the newest `selector` is drawn on the page, in CSS pixels."""
    return newest_drawn(player, selector)[0]


PHONE = 420
SMALLEST_CARD = 40  # px: a card of the hand picture on a phone


def shown_card_width(player: Player, selector: str) -> float:
    """How wide a card of the newest `selector` picture (a hand's: its cards full size,
    `CARD` tall) is drawn on the page: the picture's drawn width times a card's share of it."""
    drawn, natural = newest_drawn(player, selector)
    return card_width(CARD) * drawn / natural


def test_at_phone_width_the_chat_takes_the_screen_and_the_switchers_open_from_the_menu(
    browser: Any, tmp_path: Path
) -> None:
    """At 420 pixels the chat is the page's whole width and "My cards" draws its picture
    across it (not a thumbnail in a squeezed column); the channels, the user and the
    language switchers open from the button by the channel's name, over the chat, and are
    reachable there."""
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1, width=PHONE)
        open_table_with_bots(alice, "dutch", 2)
        cards_shown_as_pictures(alice)
        alice.pictures_shown()
        assert drawn_width(alice, "#messages") >= PHONE - 20
        assert drawn_width(alice, f"{HAND} img.v2-media") >= 300
        assert shown_card_width(alice, f"{HAND} img.v2-media") >= SMALLEST_CARD
        assert drawn_width(alice, f"{IN_PLAY} img.v2-media") >= 300
        nothing_wider = "n => n.scrollWidth <= n.clientWidth"
        assert alice.page.locator("#messages").evaluate(nothing_wider)
        assert alice.reachable(f"{HAND} button[data-custom-id$=':n=']")  # its Refresh
        assert alice.reachable("#command-input")
        assert not alice.reachable("#locale-switch")  # the drawer is closed: the chat shows
        alice.newest_in_view()  # the README's phone-hand: test_my_cards_dutch_in_browser's

        alice.click(alice.page.locator("#channels-toggle"))
        for switcher in ("#user-switch", "#locale-switch", ".channel.active"):
            assert alice.reachable(switcher), switcher
        alice.screenshot("phone-channels")
        alice.page.select_option("#locale-switch", "fr")
        alice.settled()
        alice.page.wait_for_selector("text=Vous seul·e pouvez voir ceci")
        alice.click(alice.page.locator(".channel.active"))  # back to the table's channel
        assert not alice.reachable("#locale-switch")
        assert alice.reachable("#command-input")
        assert_nothing_leaked([alice])


def fits_the_phone(player: Player) -> dict[str, float]:
    """At phone width: the chat is the page's width and scrolls no way but down, and every
    control of the newest My cards lies on screen (a wide menu wraps, never runs off the
    side); the drawn widths of the hand's and the table's pictures."""
    assert drawn_width(player, "#messages") >= PHONE - 20
    assert player.page.locator("#messages").evaluate("n => n.scrollWidth <= n.clientWidth")
    mine = f"{MINE}:has(img.v2-media)"  # My cards (Refresh may not fit a wide menu)
    off_screen = player.page.locator(mine).last.evaluate(
        """(node) => [...node.querySelectorAll('button, select, .select-menu')]
            .map((control) => control.getBoundingClientRect())
            .filter((box) => box.width > 0 && (box.left < 0 || box.right > innerWidth))
            .length"""
    )
    assert off_screen == 0
    return {
        "hand": drawn_width(player, f"{mine} img.v2-media"),
        "table": drawn_width(player, f"{IN_PLAY} img.v2-media"),
    }


@pytest.mark.parametrize(
    ("game", "seed", "preference", "options"),
    [
        ("euchre", 1, ("order", "discard", "play"), {"target": "1", "bots": "simple"}),
        ("dame", 83, ("meld", "add", "draw", "discard"), {"target": "50", "bots": "simple"}),
    ],
)
def test_at_phone_width_a_euchre_or_dame_table_fits_the_screen_turn_after_turn(
    browser: Any,
    tmp_path: Path,
    game: str,
    seed: int,
    preference: tuple[str, ...],
    options: dict[str, str],
) -> None:
    """The 420-pixel page of a Euchre and of a Dame de Pique table (the Dame menus are the
    widest): at each of the player's first turns, the chat takes the screen, My cards and the
    table draw their pictures across it, and every control of My cards is on screen."""
    with local_table(tmp_path, seed=seed) as table:
        alice = Player(browser, table, 1, width=PHONE)
        open_table_with_bots(alice, game, 3, **options)
        cards_shown_as_pictures(alice)
        alice.pictures_shown()
        turns = 0
        while turns < 4 and not alice.round_over():
            if pick(alice.offered(), preference) is None:
                alice.wait_for_turn_or_round_over()
                continue
            alice.pictures_shown()
            widths = fits_the_phone(alice)
            assert widths["hand"] >= 300 and widths["table"] >= 150, widths
            if turns == 1 and game == "dame":  # the README's table message on a phone
                alice.screenshot("phone-table", height=1700, at_top=f"{TABLE}:has(.v2-container)")
            mine = f"{MINE}:has(img.v2-media) img.v2-media"
            assert shown_card_width(alice, mine) >= SMALLEST_CARD
            # the move read again just before it is made: My cards may have been drawn anew
            # while it was measured (CI once picked a card its newer message no longer offered)
            choice = pick(alice.offered(), preference)
            if choice is None:
                continue
            alice.use(*choice)
            turns += 1
        assert turns == 4
        alice.newest_in_view()
        assert_nothing_leaked([alice])
