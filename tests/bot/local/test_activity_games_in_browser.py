"""A hand of each game played in the Activity's page, in a real browser, by clicking and
dragging the cards as a player does, at desktop and phone widths: the own hand shows as
loaded pictures, hidden cards as backs, no card is written as text, nothing is cut off, a move
the rules refuse is answered in one sentence, a Dutch peek turns back face down; two players
at one table each see the other's move. Under `make screenshots` it takes the README's
pictures of each game at both widths (activity-<game>.png, activity-<game>-phone.png)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import catalog
from tests.bot.local.browser import SCREENSHOTS, Player, local_table
from tests.bot.local.test_games_in_browser import (
    CARD_AS_TEXT,
    CARD_IN_WORDS,
    open_table_with_bots,
)

WIDTHS = {"desktop": 1180, "phone": 420}
BOTS = {"dutch": 1, "euchre": 3, "dame": 3}
TABLE_PARTS = "#seats-top, #seats-left, #seats-right, #seats-bottom, #middle, #hand"
# what the page writes in words: the status, the move buttons and the log (folded away or not)
WORDED_PARTS = "#say, #moves button, #log-lines li"
MOVES_AT_MOST = 400  # one hand's own moves: far fewer


class Activity:
    """One player's Activity page, opened from the table's "Open the table" button."""

    def __init__(self, player: Player, port: int) -> None:
        self.player = player
        player.click(player.wait_table_button("activity"))
        self.frame = player.page.frame_locator("#activity iframe")
        self.frame.locator("#seats-bottom .seat, #seats-top .seat").first.wait_for()
        self.page = next(f for f in player.page.frames if f.url.endswith(f":{port}/"))

    def locator(self, selector: str) -> Any:
        return self.frame.locator(selector)

    def value(self, script: str) -> Any:
        return self.page.evaluate(script)

    def settled(self) -> None:
        """Every picture on the page loaded (a broken one fails), no animation running."""
        self.page.wait_for_function(
            "[...document.images].every(i => i.complete && i.naturalWidth > 0)"
            " && document.getAnimations().length === 0"
        )

    def my_turn(self) -> bool:
        return bool(self.value("document.querySelector('#seats-bottom .seat.turn') !== null"))

    def status(self) -> str:
        return str(self.locator("#who").inner_text())

    def wait_for_turn_or_end(self) -> str:
        """'turn' when the viewer may move, 'over' when the hand is over."""
        self.page.wait_for_function(
            "document.querySelector('#seats-bottom .seat.turn') !== null"
            " || document.querySelector('#results:not([hidden])') !== null"
        )
        return "turn" if self.my_turn() else "over"

    def version(self) -> int:
        return int(self.value("window.__version ?? -1"))

    def click(self, selector: str) -> None:
        self.locator(selector).first.click()

    def check_drawn(self) -> None:
        """Own hand pictures loaded, hidden cards drawn as backs, no card written as text
        (on the table, in the move buttons, in the log: each is its picture there too),
        nothing cut off (no sideways scrolling, every card inside the window)."""
        self.settled()
        text = " ".join(self.locator(TABLE_PARTS).all_inner_texts())
        text += " ".join(self.locator(WORDED_PARTS).all_text_contents())
        assert not CARD_AS_TEXT.search(text), text
        assert not CARD_IN_WORDS.search(text), text
        assert self.locator("#log-lines li").count() > 0
        assert self.value("document.documentElement.scrollWidth <= innerWidth")
        outside = self.value(
            "[...document.querySelectorAll('.card:not(.gone)')].filter(c => {"
            " const r = c.getBoundingClientRect();"
            " return r.left < 0 || r.right > innerWidth + 0.5 })"
            ".length"
        )
        assert outside == 0
        backs = self.locator(".seat:not(.me) img[src='/cards/back.png']").count()
        faces_in_hidden_hands = self.locator(".fan img:not([src='/cards/back.png'])").count()
        # the others' cards held, as each seat's count says (none left after a last trick)
        held = self.value(
            "[...document.querySelectorAll('.seat:not(.me) .hidden-hand .count')]"
            ".reduce((n, c) => n + (parseInt(c.textContent, 10) || 0), 0)"
        )
        assert (backs > 0 or held == 0) and faces_in_hidden_hands == 0
        if self.value("document.body.dataset.game") != "dutch":
            assert self.locator("#hand-cards img[src$='.png']").count() > 0
        narrowest = self.value(
            "Math.min(...[...document.querySelectorAll('#hand-cards .card')]"
            ".map(c => c.getBoundingClientRect().width), 999)"
        )
        assert narrowest >= 40


def shoot(activity: Activity, name: str) -> None:
    """The Activity's frame as `name`.png, under `make screenshots`, tall enough to show the
    whole table (a phone scrolls it)."""
    if SCREENSHOTS:
        page = activity.player.page
        size = page.viewport_size
        needed = int(activity.value("document.documentElement.scrollHeight"))
        shown = int(activity.value("innerHeight"))
        if needed > shown:
            # the frame takes 92% of the window's height, less its bar
            taller = size["height"] + math.ceil((needed - shown) / 0.92) + 4
            page.set_viewport_size({"width": size["width"], "height": taller})
            activity.page.wait_for_function(f"innerHeight >= {needed}")
        page.mouse.move(0, 0)  # no card raised under the pointer
        activity.settled()
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        box = page.locator("#activity iframe").bounding_box()  # whole pixels inside it
        left, top = math.ceil(box["x"]), math.ceil(box["y"])
        clip = {
            "x": left,
            "y": top,
            "width": math.floor(box["x"] + box["width"]) - left,
            "height": math.floor(box["y"] + box["height"]) - top,
        }
        page.screenshot(path=str(folder / f"{name}.png"), clip=clip)
        page.set_viewport_size(size)


def one_sentence(text: str) -> bool:
    return bool(text) and len(re.findall(r"[.!?](\s|$)", text)) == 1 and text.strip()[-1] in ".!?"


def dutch_move(activity: Activity) -> None:
    """Peek at two cards; draw from the stock, then put the drawn card on the discard pile
    with the keyboard (Enter picks it, the legal places glow, an arrow and Enter); skip a
    power."""
    keyboard = activity.player.page.keyboard
    if activity.locator("#moves [data-move='skip']").count():
        activity.click("#moves [data-move='skip']")
    elif activity.locator("#middle button[data-piece='held']").count():
        activity.locator("#middle button[data-piece='held']").focus()
        keyboard.press("Enter")
        activity.locator("[data-piece='pile'].target").wait_for()
        keyboard.press("ArrowLeft")
        keyboard.press("Enter")
    elif activity.locator("#middle [data-piece='stock'].playable").count():
        activity.click("#middle [data-piece='stock']")
    else:  # the peek: two of her own cards
        own = activity.locator("#seats-bottom button.card.playable")
        own.nth(0).click()
        activity.locator("#seats-bottom button.card.target").first.click()


Strategy = Callable[[Activity], None]


def euchre_move(activity: Activity) -> None:
    """Pass the bids, call when stuck; play (or discard) the first card that glows."""
    for move in ("pass", "order", "call"):
        button = activity.locator(f"#moves button[data-move^='{move}']")
        if button.count():
            button.first.click()
            return
    activity.click("#hand-cards button.card.playable")


def dame_move(activity: Activity) -> None:
    """Draw from the stock; then drag a card from the hand onto the discard pile."""
    if activity.locator("#middle [data-piece='stock'].playable").count():
        activity.click("#middle [data-piece='stock']")
        return
    activity.locator("#hand-cards button.card").last.drag_to(
        activity.locator("#middle [data-piece='pile']")
    )


STRATEGIES: dict[str, Strategy] = {"dutch": dutch_move, "euchre": euchre_move, "dame": dame_move}


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("game", sorted(STRATEGIES))
def test_a_hand_of_each_game_is_played_by_clicking_the_cards(
    browser: Any, tmp_path: Path, game: str, width: str
) -> None:
    with local_table(tmp_path, seed=3) as table:
        alice = Player(browser, table, 1, width=WIDTHS[width])
        open_table_with_bots(alice, game, BOTS[game])
        activity = Activity(alice, table.activity_port)
        shot = False
        for _ in range(MOVES_AT_MOST):
            if activity.wait_for_turn_or_end() == "over":
                break
            activity.check_drawn()
            before = activity.value("document.body.dataset.version")
            STRATEGIES[game](activity)
            activity.page.wait_for_function(
                f"document.body.dataset.version !== '{before}'"
                " || document.querySelector('#refusal').textContent !== ''"
            )
            refusal = activity.locator("#refusal")
            # a bot's move may land between her look and her click: she plays again
            if refusal.get_attribute("data-key") != "activity_stale":
                assert refusal.inner_text() == "", refusal.inner_text()
            if not shot and activity.locator("#middle .card").count() > 1:
                shot = True
                shoot(activity, f"activity-{game}" + ("-phone" if width == "phone" else ""))
        else:
            pytest.fail("the hand does not end")
        assert not alice.page_errors
        assert not table.errors()


def test_a_move_the_rules_refuse_is_answered_in_one_sentence_in_the_players_language(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path, seed=3) as table:
        alice = Player(browser, table, 1)
        alice.page.select_option("#locale-switch", "fr")
        alice.settled()
        open_table_with_bots(alice, "dame", 3)
        activity = Activity(alice, table.activity_port)
        assert activity.wait_for_turn_or_end() == "turn"
        assert activity.status() == catalog("fr")["activity.your_turn"]
        # before drawing, she drags a card onto the discard pile: the bot says why not
        activity.locator("#hand-cards button.card").first.drag_to(
            activity.locator("#middle [data-piece='pile']")
        )
        refusal = activity.locator("#refusal")
        activity.page.wait_for_function("document.querySelector('#refusal').textContent !== ''")
        assert one_sentence(refusal.inner_text()), refusal.inner_text()
        assert refusal.inner_text() not in catalog("en").values()
        # the next move clears it
        activity.click("#middle [data-piece='stock']")
        activity.page.wait_for_function("document.querySelector('#refusal').textContent === ''")
        assert not alice.page_errors


def test_a_move_by_one_player_shows_on_the_other_players_page(browser: Any, tmp_path: Path) -> None:
    with local_table(tmp_path, seed=3) as table:
        alice = Player(browser, table, 1)
        bob = Player(browser, table, 2)
        alice.command("dutch start")
        bob.click(bob.wait_table_button("join"))
        alice.click(alice.wait_table_button("start"))
        pages = {"alice": Activity(alice, table.activity_port)}
        pages["bob"] = Activity(bob, table.activity_port)
        for page in pages.values():  # each peeks at two of their cards
            page.locator("#seats-bottom button.card.playable").first.click()
            page.locator("#seats-bottom button.card.target").first.click()
        # the player after the dealer (Alice, the host) plays first: Bob draws
        mover, other = pages["bob"], pages["alice"]
        mover.locator("#middle [data-piece='stock'].playable").wait_for()
        assert other.locator("#middle [data-key='held']").count() == 0
        mover.click("#middle [data-piece='stock']")
        # the other page shows the drawn card face down in the mover's hand, and whose turn
        other.locator("#middle [data-key='held'] img[src='/cards/back.png']").wait_for()
        assert other.locator("#seats-top .seat.turn").count() == 1
        assert not alice.page_errors and not bob.page_errors
