"""The local table in a real browser: `python -m bot --local` on a temporary database, pages
opened by Chromium (Playwright) as different users, each in its own browser context.

These tests click what the pages show, like people: nobody calls the bot or reads its state.
With CARDTABLE_SCREENSHOTS set (`make screenshots`), they save the README's pictures.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.local.guard import NO_KEY
from tests.bot.local.browser import (
    ENDED,
    HAND,
    IN_PLAY,
    ROUND_OVER,
    TABLE,
    LocalTable,
    Player,
    action_of,
    assert_nothing_leaked,
    local_table,
    pick,
)

# Call Dutch as soon as it is allowed, else draw and discard: a round ends in a few turns.
QUICK_ROUND = ("dutch", "draw", "discard")
CALL_STEP = "n=dutch"  # "Call Dutch…": the call asks first, then is a button of its own


def quick_move(player: Player) -> tuple[str, str] | None:
    """The player's move of a quick round: the call as soon as it is offered (through the
    step that asks first), else a draw or a discard; None when they have no move."""
    offered = player.offered()
    call = [item for item in offered if action_of(*item) == CALL_STEP]
    if call:
        player.use(*call[0])
        offered = player.offered()
    return pick(offered, QUICK_ROUND)


CAROL_TO_ACT = re.compile("\u25b6\ufe0f? ?Carol")  # the table's turn marker on her line


def play_until_round_over(
    players: list[Player], *, max_steps: int = 80, after_move: Callable[[int], None] = print
) -> int:
    """Whoever is offered a move plays it; a player offered nothing refreshes their own
    message. Returns the number of moves played once the table offers the next round (or a
    rematch); `after_move(n)` runs after the n-th move."""
    host = players[0]
    moves = 0
    for _ in range(max_steps):
        if host.round_over():
            return moves
        acted = False
        for player in players:
            choice = quick_move(player)
            if choice is not None:
                player.use(*choice)
                moves += 1
                acted = True
                after_move(moves)
        if not acted:
            for player in players:
                player.refresh_private()
            if not any(pick(p.offered(), QUICK_ROUND) for p in players):
                # Nobody may move: the last move ended the round; its table edit is coming.
                host.page.locator(ROUND_OVER).first.wait_for()
    raise AssertionError(f"the round was not over after {max_steps} steps")


def test_three_people_play_a_round_of_dutch_then_read_the_leaderboard(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path) as table:
        alice, bob, carol = players = [Player(browser, table, n) for n in (1, 2, 3)]
        alice.command("dutch start", target="10")  # one round will likely end the match
        for guest in (bob, carol):
            guest.click(guest.wait_table_button("join"))
        alice.click(alice.wait_table_button("start"))
        for player in players:
            player.click(player.wait_table_button("hand"))
        for player in players:  # everyone peeks at two cards first
            choice = pick(player.offered(), QUICK_ROUND)
            assert choice is not None and "peek" in choice[0]
            player.use(*choice)
            if player is alice:  # her peeked cards, face up, while the others are to peek
                # (the README's picture of a hand: test_my_cards_dutch_in_browser's)
                alice.card_picture(HAND)

        def picture_mid_round(moves: int) -> None:
            if moves == 2:  # Bob called Dutch, Carol drew: the table (its edits are paced:
                # once it shows her turn), the turn's mention and her hand below
                carol.page.locator(IN_PLAY).last.filter(has_text=CAROL_TO_ACT).wait_for()
                carol.card_picture(IN_PLAY)
                carol.screenshot("table-mid-round", height=1800)

        moves = play_until_round_over(players, after_move=picture_mid_round)
        assert moves >= 2
        alice.card_picture(ENDED)  # the round-end picture, loaded from the message's file
        alice.screenshot("round-end")
        ended = alice.page.locator(TABLE).last.inner_text()
        assert "Alice" in ended and "Bob" in ended and "Carol" in ended
        alice.command("leaderboard")
        board = alice.page.locator(TABLE).last.inner_text()
        assert "leaderboard" in board
        ranked = all(name in board for name in ("Alice", "Bob", "Carol"))
        assert ranked or "Nobody is ranked yet" in board, board
        assert_nothing_leaked(players)


def a_long_channel(alice: Player, bob: Player) -> None:
    """Alice's page scrolled down a channel longer than it, at its newest message."""
    long_enough = (
        "() => { const l = document.getElementById('messages');"
        " return l.scrollHeight > 2 * l.clientHeight; }"
    )
    for _ in range(8):
        alice.command("dutch rules")  # a long answer
        if alice.page.evaluate(long_enough):
            break
    assert alice.page.evaluate(long_enough)
    alice.newest_in_view()
    bob.say("first")
    alice.page.locator(TABLE).filter(has_text="first").wait_for()
    alice.newest_in_view()


def still_follows_after(browser: Any, tmp_path: Path, change: str) -> None:
    """Alice's page, at the bottom of a long channel, changes by itself (`change`, JavaScript
    run with `list`, the list of messages; the list scrolls for it): Bob's next message still
    comes into her view."""
    with local_table(tmp_path) as table:
        alice, bob = Player(browser, table, 1), Player(browser, table, 2)
        a_long_channel(alice, bob)
        alice.page.evaluate(
            """() => new Promise((scrolled) => {
                const list = document.getElementById('messages');
                list.addEventListener('scroll', scrolled, { once: true });
                const grow = (message) => {
                    const picture = document.createElement('div');
                    picture.style.height = '200px';
                    message.querySelector('.message-body').append(picture);
                };
                CHANGE
            })""".replace("CHANGE", change)
        )
        bob.say("second")
        alice.page.locator(TABLE).filter(has_text="second").wait_for()
        alice.newest_in_view()


def test_the_page_keeps_following_when_messages_grow_without_the_user_scrolling(
    browser: Any, tmp_path: Path
) -> None:
    """A picture takes its size before its load event: a message above the view and the newest
    one grow at once, the browser scrolls down to keep the view in place, and the list is short
    of its bottom at that scroll. That is not the user scrolling up to read: the next message
    still comes into view (the page stopped following for good, and a player never saw the
    newest message unless they scrolled)."""
    still_follows_after(
        browser, tmp_path, "grow(list.firstElementChild); grow(list.lastElementChild);"
    )


def test_the_page_keeps_following_when_a_message_above_is_removed(
    browser: Any, tmp_path: Path
) -> None:
    """A message removed above the view (a turn's mention, deleted once the turn is played)
    makes the list shorter: the browser scrolls it up by as much, here while the newest
    message has just grown below the view. That is not the user scrolling up to read either:
    the next message still comes into view (the Dame de Pique browser test timed out waiting
    for the newest message)."""
    still_follows_after(
        browser, tmp_path, "grow(list.lastElementChild); list.firstElementChild.remove();"
    )


def test_a_user_who_scrolled_up_to_read_stays_there_when_a_message_comes(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path) as table:
        alice, bob = Player(browser, table, 1), Player(browser, table, 2)
        a_long_channel(alice, bob)
        alice.page.hover("#messages")
        alice.page.mouse.wheel(0, -600)
        alice.page.wait_for_function(
            "() => { const l = document.getElementById('messages');"
            " return l.scrollHeight - l.scrollTop - l.clientHeight > 300; }"
        )
        bob.say("second")
        newest = alice.page.locator(TABLE).filter(has_text="second")
        newest.wait_for()
        below_the_view = newest.evaluate(
            "node => node.getBoundingClientRect().top"
            " >= document.getElementById('messages').getBoundingClientRect().bottom"
        )
        assert below_the_view, "the page jumped to the newest message while Alice read above"


def test_a_user_switching_to_french_gets_the_bot_and_the_page_in_french(
    browser: Any, tmp_path: Path
) -> None:
    with local_table(tmp_path) as table:
        alice = Player(browser, table, 1)
        alice.command("dutch rules")
        assert "Only you can see this" in alice.private().inner_text()
        alice.page.select_option("#locale-switch", "fr")
        alice.settled()
        alice.page.wait_for_selector("text=Vous seul·e pouvez voir ceci")
        alice.command("dutch rules")
        answer = alice.private().inner_text()
        assert "Vous seul·e pouvez voir ceci" in answer
        assert "Dutch" in answer and "cartes" in answer  # the bot's own words, in French
        before = alice.page.locator(TABLE).count()
        alice.say("@Cardtable comment on joue ?")  # a mention of the bot asks for its help
        alice.page.locator(TABLE).nth(before + 1).wait_for()
        mention, answer_ = alice.page.locator(TABLE).all()[before : before + 2]
        assert "@Cardtable" in mention.inner_text()
        assert "/dutch" in answer_.inner_text()


def test_after_a_restart_the_page_reconnects_and_its_old_buttons_still_work(
    browser: Any, tmp_path: Path
) -> None:
    """One person against a bot player, at a table in a thread of its own (a server setting):
    the table and its thread survive the bot process stopping."""
    table = LocalTable(tmp_path)
    table.start()
    try:
        alice = Player(browser, table, 1)  # she manages the server
        alice.command("settings", threads="true")
        alice.command("dutch start")
        opened = alice.page.locator(f"{TABLE} [data-channel-link]").last
        opened.wait_for()
        thread_name = opened.inner_text().lstrip("#")
        assert alice.page.locator("#channels .channel.thread").inner_text().endswith(thread_name)
        opened.click()  # the reply names the thread: open it
        alice.page.wait_for_selector(f"#channel-name:text('{thread_name}')")
        alice.click(alice.wait_table_button("addbot"))
        alice.click(alice.wait_table_button("start"))
        alice.page.wait_for_selector(f"{TABLE} button[data-custom-id$=':hand']")
        table.stop()
        alice.page.wait_for_selector("body[data-connected='false']")
        table.start()  # a new run, a new secret: the page says to open the new address
        alice.page.wait_for_selector("body[data-locked='true']")
        assert alice.page.locator("#connection").inner_text() == NO_KEY
        opened_anew = alice.context.new_page()  # the address printed now, in another tab
        opened_anew.goto(table.entry_url("user=1"))
        opened_anew.close()
        alice.page.wait_for_selector("body[data-connected='true']")
        alice.settled()
        assert alice.page.locator("#channel-name").inner_text() == thread_name
        alice.click(alice.table_button("hand"))  # a button from before the restart
        choice = pick(alice.offered(), QUICK_ROUND)
        assert choice is not None, "the old button's answer offers no move"
        assert "peek" in choice[0]
        assert_nothing_leaked([alice])
    finally:
        table.stop()
    assert not table.errors(), "".join(table.output)


def command_menu(player: Player, typed: str) -> list[str]:
    """The commands the page's menu lists once `typed` is in the message box."""
    player.page.fill("#command-input", typed)
    player.page.locator("#command-menu .menu-name").first.wait_for()
    return [str(name) for name in player.page.locator("#command-menu .menu-name").all_inner_texts()]


def test_commands_are_listed_in_the_users_language_and_the_owners_admin_is_not(
    browser: Any, tmp_path: Path
) -> None:
    """Discord shows a French user `/dutch lancer` and its option `variante`, not `/dutch
    start`; the page does too, and what it sends is the command Discord would send. `/admin`
    exists only in a real development server, for the bot's owners: the local table has none."""
    with local_table(tmp_path) as table:
        alice, bob = Player(browser, table, 1), Player(browser, table, 2)  # English, French
        english, french = command_menu(alice, "/"), command_menu(bob, "/")
        assert "/dutch start" in english and "/dutch lancer" not in english
        assert "/dutch lancer" in french and "/dutch start" not in french
        assert "/classement" in french
        assert not [name for name in english + french if name.startswith("/admin")]
        bob.page.fill("#command-input", "/dutch lanc")
        bob.page.locator("#command-menu .menu-item[data-command='dutch start']").dispatch_event(
            "mousedown"
        )
        assert bob.page.input_value("#command-input") == "/dutch lancer"
        assert "variante" in bob.page.locator("#command-options").inner_text()
        assert bob.page.get_attribute("[data-option='target']", "placeholder") == "nombre entier"
        bob.page.press("#command-input", "Enter")
        bob.settled()
        bob.wait_table_button("join")  # the table opened (in the server's language)
        assert "Dutch · classic rules — table #1" in bob.page.locator(TABLE).last.inner_text()
