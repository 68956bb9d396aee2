"""Select menus in the page as Discord's client shows them, in Chromium: options marked
`default` are shown chosen, and a menu of several values (`min_values`/`max_values`) is ticked
in a list that opens under it and sent when the list closes, only with as many values as the
menu allows. A small discord.py bot on the local server sends the menus and answers with what
it received."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from bot.local.page import LocalPage
from bot.local.server import LocalDiscord, running_client
from tests.bot.local.browser import async_chromium

RANKS = ("7", "8", "9", "10", "J")
Menu = discord.ui.Select[discord.ui.View]


def menu(
    custom_id: str, low: int, high: int, *, defaults: tuple[str, ...] = (), values: Any = RANKS
) -> Menu:
    """A menu of `values`, answered with the values chosen (the message itself is kept)."""
    options = [discord.SelectOption(label=f"{v}♠", value=v, default=v in defaults) for v in values]
    select: Menu = discord.ui.Select(
        custom_id=custom_id,
        placeholder="Cards",
        min_values=low,
        max_values=high,
        options=options,
    )

    async def chosen(interaction: discord.Interaction) -> None:
        got = " ".join((interaction.data or {}).get("values", []))  # type: ignore[arg-type]
        await interaction.response.send_message(f"{custom_id} got {got or 'nothing'}")

    select.callback = chosen  # type: ignore[method-assign]
    return select


def menu_bot() -> commands.Bot:
    """`/lay`: one menu of two or three cards. `/keep`: a menu of one suit, hearts by
    default, and one of up to two cards (none allowed), 7 and 9 by default."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @bot.tree.command(name="lay", description="lay cards")
    async def lay(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(menu("lay", 2, 3))
        await interaction.response.send_message("choose", view=view, ephemeral=True)

    @bot.tree.command(name="keep", description="keep cards")
    async def keep(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(menu("suit", 1, 1, defaults=("hearts",), values=("spades", "hearts")))
        view.add_item(menu("keep", 0, 2, defaults=("7", "9")))
        await interaction.response.send_message("choose", view=view, ephemeral=True)

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
async def page_of_alice() -> AsyncIterator[tuple[LocalDiscord, Any]]:
    """The local server and its page with the menu bot connected; Alice's page open."""
    server = LocalDiscord()
    page = LocalPage(server, {})
    await server.start(extend=page.install)
    try:
        with server.pointed_at():
            async with running_client(menu_bot()), async_chromium() as browser:
                context = await browser.new_context()
                tab = await context.new_page()
                tab.set_default_timeout(10_000)
                errors: list[str] = []
                tab.on("pageerror", lambda error: errors.append(str(error)))
                await tab.goto(page.entry_url("user=1"))
                await settled(tab)
                yield server, tab
                await context.close()
                assert errors == []
    finally:
        await page.close()
        await server.stop()


async def settled(tab: Any) -> None:
    await tab.wait_for_function(
        "document.body.dataset.ready === 'true' && (document.body.dataset.busy || '0') === '0'"
    )


async def command(tab: Any, name: str) -> None:
    await tab.fill("#command-input", f"/{name}")
    await tab.press("#command-input", "Enter")
    await settled(tab)


def chosen(server: LocalDiscord) -> list[tuple[str, list[str]]]:
    """Every select interaction the bot received: (custom id, values)."""
    return [
        (str(i.data["custom_id"]), list(i.data["values"]))
        for i in server.interactions.values()
        if i.kind == "select"
    ]


async def test_a_menu_of_several_values_is_sent_on_closing_with_min_to_max_values(
    page_of_alice: tuple[LocalDiscord, Any],
) -> None:
    server, tab = page_of_alice
    await command(tab, "lay")
    lay = tab.locator("article.message.ephemeral .select-menu.multi[data-custom-id='lay']")
    toggle, tick = lay.locator(".select-toggle"), lay.locator("input[type=checkbox]")
    assert await toggle.inner_text() == "Cards"
    assert not await tick.first.is_visible()  # the list opens when the menu is clicked

    await toggle.click()  # one card is fewer than the menu's two: closing sends nothing
    await tick.nth(0).check()
    await toggle.click()
    assert await toggle.inner_text() == "Cards"
    assert not await tick.nth(0).is_checked()

    # What the page never sends, a forged request is refused for, and nothing is chosen.
    message_id = int(await lay.evaluate("node => node.closest('article').dataset.messageId"))
    forged = {"user": 1, "type": "component", "message_id": message_id, "custom_id": "lay"}
    url = f"http://127.0.0.1:{server.port}/page/interactions"
    cookies = {cookie["name"]: cookie["value"] for cookie in await tab.context.cookies()}
    async with aiohttp.ClientSession(cookies=cookies) as session:
        for values in (["7"], ["7", "8", "9", "10"], ["7", "7"], ["7", "Q"]):
            async with session.post(url, json={**forged, "values": values}) as response:
                assert response.status == 400, values

    await toggle.click()
    for index in (0, 2, 3):
        await tick.nth(index).check()
    assert await tick.nth(1).is_disabled() and await tick.nth(4).is_disabled()  # three at most
    assert await toggle.inner_text() == "7♠, 9♠, 10♠"
    assert chosen(server) == []  # nothing is sent while the list is open
    await tab.mouse.click(5, 5)  # a click outside the open menu closes it
    await tab.locator("article.message", has_text="lay got 7 9 10").wait_for()
    await settled(tab)
    assert chosen(server) == [("lay", ["7", "9", "10"])]


async def test_options_marked_default_are_shown_chosen_and_sent_only_once_changed(
    page_of_alice: tuple[LocalDiscord, Any],
) -> None:
    server, tab = page_of_alice
    await command(tab, "keep")
    message = tab.locator("article.message.ephemeral").last
    suit = message.locator("select[data-custom-id='suit']")
    keep = message.locator(".select-menu.multi[data-custom-id='keep']")
    toggle, tick = keep.locator(".select-toggle"), keep.locator("input[type=checkbox]")
    assert await suit.input_value() == "hearts"
    assert await toggle.inner_text() == "7♠, 9♠"
    assert [await tick.nth(i).is_checked() for i in range(5)] == [True, False, True, False, False]

    await toggle.click()  # opened and closed unchanged (Escape): nothing to send
    assert await tick.nth(1).is_disabled()  # two of two already
    await toggle.press("Escape")
    assert not await tick.first.is_visible()

    await toggle.click()
    await tick.nth(0).uncheck()
    await tick.nth(2).uncheck()  # none is allowed (min_values 0), and differs from the default
    assert await toggle.inner_text() == "Cards"
    await toggle.click()
    await tab.locator("article.message", has_text="keep got nothing").wait_for()
    await suit.select_option("spades")
    await tab.locator("article.message", has_text="suit got spades").wait_for()
    await settled(tab)
    assert chosen(server) == [("keep", []), ("suit", ["spades"])]
