"""Browser tests' tools: the local table as a real process, Chromium through Playwright, and
players who click what their page shows.

A player never reads the bot's state: like a person, it looks at its own page (its latest
"Only you can see this" message and the table message) and clicks a button or picks an option.
Which offered action to take is decided by a preference list, as in the e2e players.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from storage.pg_server import free_port

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
REQUIRED = "CARDTABLE_REQUIRE_BROWSER"  # set by .ci/run: a skipped browser test fails instead
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOW_TO_ENABLE = (
    "browser tests skipped: install Chromium (`apt-get install chromium`, or set CHROMIUM to "
    "its path) to run them"
)
STARTED = "locally at http://127.0.0.1:"
# What the table prints when a port it was given was taken meanwhile (by another test's server):
# the table is started again on other ports.
PAGE_PORT_TAKEN = "is in use"  # and it stops
ACTIVITY_PORT_TAKEN = "the Activity is off"  # and it plays on without it
SCREENSHOTS = os.environ.get("CARDTABLE_SCREENSHOTS")  # a folder: save the README's pictures
# How long one step (a click's answer, a bot's move, a picture) may take before the test fails.
# A passing run never waits it out; 10 s was outrun at load averages of 10-17 on two cores,
# where the drawing processes (niceness 10) and the bots' searches wait their turn.
STEP_TIMEOUT_MS = 30_000


def browser_or_skip() -> Any:
    """The Playwright module when Chromium can run here; else skip (or fail under CI)."""
    missing = None
    if not CHROMIUM.exists():
        missing = f"no Chromium at {CHROMIUM}"
    try:
        from playwright import sync_api
    except ImportError:
        missing = missing or "Playwright is not installed"
        sync_api = None
    if missing is not None:
        if os.environ.get(REQUIRED):
            pytest.fail(f"{missing}, and {REQUIRED} is set: the browser tests must run")
        pytest.skip(HOW_TO_ENABLE)
    return sync_api


class PortTaken(Exception):
    """The table could not listen on a port it was given: another process took it."""


@dataclass
class LocalTable:
    """`python -m bot --local` on a temporary database, run as a person would run it (or
    `seeded_table`, the same dealing from known seeds: `seed=`)."""

    folder: Path
    port: int = field(default_factory=free_port)
    activity_port: int = field(default_factory=free_port)  # the Activity's server
    arguments: tuple[str, ...] = ("--local",)
    seed: int | None = None
    log_level: str = "WARNING"  # INFO: what `make run` prints
    # a process group of its own, which `stop` interrupts whole, as Ctrl-C in a terminal does
    # (the bot and every process it started); else the bot's process alone
    terminal: bool = False
    process: subprocess.Popen[str] | None = None
    output: list[str] = field(default_factory=list)
    returncode: int | None = None
    key: str = ""  # this run's secret, from the address the table printed at start
    arrived: threading.Condition = field(default_factory=threading.Condition)  # a new line
    ended: bool = False  # the output is over (the process closed it)
    reader: threading.Thread | None = None  # reads the output as it comes

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def entry_url(self, query: str = "") -> str:
        """The printed address (with the run's secret), plus `query`."""
        return f"{self.url}/?key={self.key}" + (f"&{query}" if query else "")

    def start(self, timeout: float = 30.0, tries: int = 3) -> None:
        """Start the table and wait for its address; on a port taken meanwhile, start it
        again on new ports (`tries` times in all)."""
        for _ in range(tries - 1):
            try:
                self._start_once(timeout)
            except PortTaken:
                self.port, self.activity_port = free_port(), free_port()
                continue
            return
        self._start_once(timeout)

    def _start_once(self, timeout: float) -> None:
        self.output, self.ended, self.key = [], False, ""
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env.update(
            PYTHONPATH=str(ROOT),
            DATABASE_PATH=str(self.folder / "cardtable.sqlite3"),
            LOCAL_PORT=str(self.port),
            ACTIVITY_PORT=str(self.activity_port),
            LOG_LEVEL=self.log_level,
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", *self._program()],
            cwd=self.folder,  # no .env here: only the variables above
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=self.terminal,
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(stream: Any) -> None:
            for line in stream:
                with self.arrived:
                    self.output.append(line)
                    self.arrived.notify_all()
                lines.put(line)
            lines.put(None)
            with self.arrived:
                self.ended = True  # no line waited for comes any more
                self.arrived.notify_all()

        self.reader = threading.Thread(target=pump, args=(self.process.stdout,), daemon=True)
        self.reader.start()
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"the local table did not start: {self.output}") from None
            if line is None:
                console = "".join(self.output)
                if PAGE_PORT_TAKEN in console or ACTIVITY_PORT_TAKEN in console:
                    self.process.wait()
                    self.process = None
                    raise PortTaken(console)
                raise AssertionError(f"the local table stopped: {console}")
            if STARTED in line:
                found = re.search(r"[?&]key=([A-Za-z0-9_-]+)", line)
                assert found, f"the printed address has no key: {line}"
                self.key = found.group(1)
                if any(ACTIVITY_PORT_TAKEN in seen for seen in self.output):
                    self.stop()  # the Activity's port was taken: it is off in this run
                    self.reader.join(timeout=15)  # its last lines are not the next run's
                    raise PortTaken("".join(self.output))
                return

    def _program(self) -> list[str]:
        if self.seed is None:
            return ["bot", *self.arguments]
        return ["tests.bot.local.seeded_table", str(self.seed)]

    def stop(self) -> None:
        if self.process is None:
            return
        if self.terminal:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)
        try:
            self.returncode = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.returncode = self.process.wait()
        self.process = None

    def wait_for_line(self, words: str, timeout: float = 30.0) -> None:
        """Until the console has a line with `words` (its output is read as it comes)."""
        with self.arrived:
            found = self.arrived.wait_for(
                lambda: self.ended or any(words in line for line in self.output), timeout
            )
            found = found and any(words in line for line in self.output)
        assert found, f"no {words!r} in: {''.join(self.output)}"

    def errors(self) -> list[str]:
        return [line for line in self.output if " ERROR " in line or "Traceback" in line]


@contextmanager
def local_table(folder: Path, *, seed: int | None = None) -> Iterator[LocalTable]:
    table = LocalTable(folder, seed=seed)
    table.start()
    try:
        yield table
    except BaseException as error:  # what the table said (its warnings) tells why
        table.stop()
        error.add_note("the local table's console:\n" + "".join(table.output[-60:]))
        raise
    finally:
        table.stop()
    assert not table.errors(), "the local table logged errors:\n" + "".join(table.output)


@contextmanager
def chromium() -> Iterator[Any]:
    sync_api = browser_or_skip()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@asynccontextmanager
async def async_chromium(extra_args: tuple[str, ...] = ()) -> AsyncIterator[Any]:
    """Chromium for a test that runs the server in its own event loop (Playwright's async API);
    `extra_args`: more command-line switches (e.g. `--host-resolver-rules`)."""
    browser_or_skip()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra_args]
        )
        try:
            yield browser
        finally:
            await browser.close()


TABLE = "article.message:not(.ephemeral)"
MINE = "article.message.ephemeral"
# A player's "My cards" message: an ephemeral one with a Refresh button (a refusal has none).
HAND = f"{MINE}:has(button[data-custom-id$=':n='])"
ROUND_OVER = f"{TABLE} button[data-custom-id$=':next'], {TABLE} button[data-custom-id$=':rematch']"
# The table message of a round in play, and of a round's end (not a turn's mention after it).
IN_PLAY = f"{TABLE}:has(button[data-custom-id$=':hand'])"
ENDED = (
    f"{TABLE}:has(button[data-custom-id$=':next']), {TABLE}:has(button[data-custom-id$=':rematch'])"
)
# A control of a private message that plays a move or opens a step of the menu.
MOVE_CONTROL = (
    "button[data-custom-id*=':p=']:enabled, select[data-custom-id]:enabled,"
    " button[data-custom-id*=':n=']:not([data-custom-id$=':n=']):enabled,"
    " .select-menu.multi[data-custom-id] .select-toggle:enabled"
)


# A message's card picture (an embed's image, a Components V2 gallery's), and its text's emojis.
PICTURE = "img.embed-image, img.v2-media"
TEXT_EMOJIS = ":is(.embed, .v2-container) img.emoji"


class Player:
    """One user's page in its own browser context (cookies and storage of its own)."""

    def __init__(
        self,
        browser: Any,
        table: LocalTable,
        number: int,
        *,
        width: int = 1180,
        touch: bool = False,
    ) -> None:
        """`width`: the window's, in CSS pixels (420: a phone's); `touch`: a touch screen."""
        self.number = number
        # the README's pictures show a message with its card picture whole
        height = 1100 if SCREENSHOTS and width > 760 else 860
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=touch
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(STEP_TIMEOUT_MS)
        self.page_errors: list[str] = []
        self.page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        self.received: list[dict[str, Any]] = []  # every message the server sent this page
        # (label, shows an emoji on it or beside it) of each click
        self.buttons_used: list[tuple[str, bool]] = []
        self.page.on("response", self._seen)
        self.page.goto(table.entry_url(f"user={number}"))
        self.settled()

    def _seen(self, response: Any) -> None:
        if "/page/channels/" in response.url and response.ok:
            try:
                self.received.extend(response.json())
            except Exception:  # a response of a page being closed or reloaded
                return

    @property
    def user_id(self) -> str:
        return str(self.page.evaluate("document.body.dataset.me"))

    def settled(self) -> None:
        """Wait until the page shows the answer to everything it sent (a deferred answer, shown
        as "is thinking…", is waited for until the bot follows it up)."""
        self.page.wait_for_function(
            "document.body.dataset.ready === 'true' && (document.body.dataset.busy || '0') === '0'"
            " && document.querySelector('.thinking') === null"
        )

    def command(self, name: str, **options: str) -> None:
        self.page.fill("#command-input", f"/{name}")
        for option, value in options.items():
            field_ = self.page.locator(f"[data-option='{option}']")
            if field_.evaluate("node => node.tagName") == "SELECT":
                field_.select_option(value)
            else:
                field_.fill(value)
        self.page.press("#command-input", "Enter")
        self.settled()

    def say(self, text: str) -> None:
        """Write a plain message in the channel, as a person would."""
        self.page.fill("#command-input", text)
        self.page.press("#command-input", "Enter")
        self.settled()

    def table_button(self, action: str) -> Any:
        """The newest button of a table verb (`join`, `start`, `hand`, `next`) on the table."""
        return self.page.locator(f"{TABLE} button[data-custom-id$=':{action}']").last

    def click(self, locator: Any) -> None:
        locator.click()
        self.settled()

    def wait_table_button(self, action: str) -> Any:
        button = self.table_button(action)
        button.wait_for()
        return button

    def round_over(self) -> bool:
        """The table offers the next round, or a rematch when the round ended the match."""
        return self.page.locator(ROUND_OVER).count() > 0

    def refresh_private(self) -> None:
        """Ask for this player's view anew: Refresh on their message, else My cards."""
        refresh = self.private().locator("button[data-custom-id$=':n=']")
        self.click(refresh.first if refresh.count() else self.table_button("hand"))

    def private(self) -> Any:
        """The newest "My cards" message (the follower keeps it current), else the newest
        message only this user sees (an answer to a command, a refusal)."""
        hands = self.page.locator(HAND)
        return hands.last if hands.count() else self.page.locator(MINE).last

    def wait_for_turn_or_round_over(self) -> None:
        """Wait until the round is over or this player's "My cards" offers a move: the bot
        re-renders that message when what the player may do changes."""
        self.page.wait_for_function(
            """([over, hand, move]) => {
                if (document.querySelector(over)) return true;
                const hands = document.querySelectorAll(hand);
                const mine = hands[hands.length - 1];
                return mine !== undefined && mine.querySelector(move) !== null;
            }""",
            arg=[ROUND_OVER, HAND, MOVE_CONTROL],
        )
        self.settled()

    def offered(self) -> list[tuple[str, str]]:
        """What the newest private message lets this player do: (custom id, value or '')."""
        mine = self.private()
        if mine.count() == 0:
            return []
        found: list[tuple[str, str]] = []
        for button in mine.locator("button[data-custom-id]:enabled").all():
            found.append((str(button.get_attribute("data-custom-id")), ""))
        for select in mine.locator("select[data-custom-id]:enabled").all():
            custom_id = str(select.get_attribute("data-custom-id"))
            for value in select.locator("option:not([disabled])").all():
                found.append((custom_id, str(value.get_attribute("value"))))
        for menu in mine.locator(".select-menu.multi[data-custom-id]").all():  # several values
            if menu.locator(".select-toggle:enabled").count():
                found.append((str(menu.get_attribute("data-custom-id")), ""))
        return found

    def use(self, custom_id: str, value: str) -> None:
        mine = self.private()
        if ":m=" in custom_id and not value:  # several values: open, tick enough, close
            menu = mine.locator(f".select-menu.multi[data-custom-id='{custom_id}']")
            least = max(1, int(menu.get_attribute("data-min-values") or "1"))
            menu.locator(".select-toggle").click()
            for tick in menu.locator("input[type=checkbox]").all()[:least]:
                tick.check()
            if menu.count():  # else the bot re-drew the message meanwhile: look again
                menu.locator(".select-toggle").click()  # closing the list sends the choice
        elif value:
            mine.locator(f"select[data-custom-id='{custom_id}']").select_option(value)
        else:
            button = mine.locator(f"button[data-custom-id='{custom_id}']")
            shown = button.evaluate(  # its card's emoji: on it, or beside it in its section
                """node => [
                    node.innerText.trim(),
                    (node.closest('.v2-section') || node).querySelector('img.emoji') !== null,
                ]"""
            )
            self.buttons_used.append((str(shown[0]), bool(shown[1])))
            button.click()
        self.settled()

    def screenshot(
        self, name: str, *, height: int | None = None, at_top: str | None = None
    ) -> None:
        """Save the page as `name`.png under `make screenshots` (`height`: a taller page for
        this picture), the newest message at its bottom, or the last one `at_top` finds at
        its top (on a phone a table message is taller than the screen)."""
        if SCREENSHOTS:
            self.page.mouse.move(0, 0)
            size = self.page.viewport_size
            if height is not None:
                self.page.set_viewport_size({"width": size["width"], "height": height})
            self.pictures_shown()
            if at_top is None:
                self.newest_in_view()
            else:
                self.page.locator(at_top).last.evaluate(
                    "shown => shown.scrollIntoView({block: 'start'})"
                )
            folder = Path(SCREENSHOTS)
            folder.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(folder / f"{name}.png"))
            self.page.set_viewport_size(size)

    def pictures_shown(self) -> None:
        """Wait until every picture on the page (card emojis) has loaded: a broken one fails."""
        self.page.wait_for_function(
            "[...document.images].every(image => image.complete && image.naturalWidth > 0)"
        )

    def newest_in_view(self) -> None:
        """Wait until the newest message is whole on screen, above the message box (the list
        follows new messages, and pictures that load after them)."""
        self.page.wait_for_function(
            """() => {
                const list = document.getElementById('messages');
                const newest = list.lastElementChild;
                if (newest === null) return false;
                const bottom = newest.getBoundingClientRect().bottom;
                return bottom <= list.getBoundingClientRect().bottom + 1;
            }"""
        )

    def reachable(self, selector: str) -> bool:
        """`selector`'s element is on screen and nothing covers its middle: a person can
        touch it."""
        return bool(
            self.page.locator(selector).evaluate(
                """(node) => {
                    const box = node.getBoundingClientRect();
                    if (box.width < 1 || box.height < 1) return false;
                    const x = box.left + box.width / 2, y = box.top + box.height / 2;
                    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
                    const top = document.elementFromPoint(x, y);
                    return top !== null && (top === node || node.contains(top));
                }"""
            )
        )

    def embed_text(self, message: str) -> str:
        """What the newest `message` writes in its embed or its Components V2 container (an
        emoji is a picture, no text)."""
        return str(self.page.locator(f"{message} :is(.embed, .v2-container)").last.inner_text())

    def card_picture(self, message: str, *, emojis: bool = False) -> dict[str, int]:
        """Wait until the newest `message` (`IN_PLAY`, `ENDED`, `HAND`) shows its card
        picture, loaded (an embed's `attachment://` file), and with `emojis` its cards as
        emojis too; its drawn size and how many emojis it shows."""
        # One look, waited for: the message can be replaced between two looks.
        found = self.page.wait_for_function(
            """([selector, emojis, picture, texts]) => {
                const all = document.querySelectorAll(selector);
                const node = all.length ? all[all.length - 1] : null;
                const image = node === null ? null : node.querySelector(picture);
                const loaded = image !== null && image.complete && image.naturalWidth > 0;
                if (!loaded || (emojis && node.querySelector(texts) === null)) return false;
                return {
                    width: image.naturalWidth,
                    height: image.naturalHeight,
                    emojis: node.querySelectorAll(texts).length,
                };
            }""",
            arg=[message, emojis, PICTURE, TEXT_EMOJIS],
        )
        return {key: int(value) for key, value in found.json_value().items()}

    def close(self) -> None:
        self.context.close()


def action_of(custom_id: str, value: str) -> str:
    """What a component does: the select's value, or what follows `ct:<t>:<r>:`."""
    if value:
        return value
    parts = custom_id.split(":", 3)
    return parts[3] if len(parts) == 4 else custom_id


def pick(offered: list[tuple[str, str]], preference: tuple[str, ...]) -> tuple[str, str] | None:
    """The offered game move ranked first by `preference`, else the first game move; a menu
    step (`n=<prefix>`) only when no move is offered."""
    moves = [(c, v) for c, v in offered if v or action_of(c, v).startswith(("p=", "m="))]

    def notation(item: tuple[str, str]) -> str:
        action = action_of(*item)
        return action[2:] if action.startswith(("p=", "m=")) else action

    for wanted in preference:
        for item in moves:
            if notation(item) == wanted or notation(item).startswith(wanted + " "):
                return item
    if moves:
        return moves[0]
    steps = [i for i in offered if action_of(*i).startswith("n=") and action_of(*i) != "n="]
    return steps[0] if steps else None


def play_against_bots(
    player: Player,
    preference: tuple[str, ...],
    *,
    max_moves: int = 300,
    after_move: Callable[[list[tuple[str, str]]], None] = lambda _: None,
    keep: Callable[[tuple[str, str]], bool] = lambda _: True,
) -> list[tuple[str, str]]:
    """`player` plays what their "My cards" offers (ranked by `preference`, among what `keep`
    keeps) until the round is over, waiting for their turn while the bot players play theirs;
    `after_move(used)` runs after each of their moves with the moves made so far. Returns the
    components used: (custom id, select value or '')."""
    used: list[tuple[str, str]] = []
    for _ in range(max_moves):
        if player.round_over():
            return used
        choice = pick([item for item in player.offered() if keep(item)], preference)
        if choice is None:
            player.wait_for_turn_or_round_over()
            continue
        player.use(*choice)
        used.append(choice)
        after_move(used)
    raise AssertionError(f"the round was not over after {max_moves} moves: {used}")


def assert_nothing_leaked(players: list[Player]) -> None:
    """No page received, nor shows, another user's ephemeral message (a private hand, a
    peek, a refusal): the server never sends it, so the page cannot show it."""
    for player in players:
        me = player.user_id
        for message in player.received:
            if int(message["flags"]) & 64:
                owner = message["interaction_metadata"]["user"]["id"]
                assert owner == me, f"user {player.number} received {owner}'s ephemeral message"
        owners = player.page.locator(MINE).evaluate_all(
            "nodes => nodes.map(n => n.dataset.ephemeralOwner)"
        )
        assert set(owners) <= {me}
        assert player.page_errors == [], player.page_errors
