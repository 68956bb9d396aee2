"""Components V2 messages in the page as Discord's client draws them, in Chromium, at a
desktop's and a phone's width: a container with its accent bar, a section's button at the
right of its text, a media gallery across the container, separators, text displays with
markdown, buttons in rows, and the buttons clicked as any other. A small discord.py bot on
the local server sends the message."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.ext import commands
from PIL import Image

from bot.local.page import LocalPage
from bot.local.server import LocalDiscord, running_client
from tests.bot.local.browser import async_chromium

ACCENT = 0x2E7D32
PHONE, DESKTOP = 420, 1180


def picture() -> discord.File:
    """A wide PNG, as a table's picture is."""
    buffer = io.BytesIO()
    Image.new("RGB", (900, 300), (20, 90, 40)).save(buffer, "PNG")
    return discord.File(io.BytesIO(buffer.getvalue()), "table.png")


def table_view() -> discord.ui.LayoutView:
    """A table-like message: a heading, a seat with its button, the picture, the last
    actions, and a row of buttons, in one container."""

    async def answer(interaction: discord.Interaction) -> None:
        custom_id = str((interaction.data or {}).get("custom_id"))
        await interaction.response.send_message(f"clicked {custom_id}", ephemeral=True)

    play = discord.ui.Button[Any](label="Play", custom_id="seat:play")
    play.callback = answer  # type: ignore[method-assign]
    hand = discord.ui.Button[Any](label="My cards", custom_id="table:hand")
    hand.callback = answer  # type: ignore[method-assign]
    gallery = discord.ui.MediaGallery[Any]()
    gallery.add_item(media="attachment://table.png", description="the table")
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("## Dutch · round 2"),
            discord.ui.Section(
                discord.ui.TextDisplay("**Alice** · 4 cards · *to play*"),
                accessory=play,
            ),
            gallery,
            discord.ui.Separator(),
            discord.ui.TextDisplay("Bob swapped a card."),
            discord.ui.ActionRow(hand),
            accent_colour=ACCENT,
        )
    )
    return view


def layout_bot() -> commands.Bot:
    """`/table`: the table-like V2 message, with its picture."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @bot.tree.command(name="table", description="show the table")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=table_view(), file=picture())

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
async def page_and_browser() -> AsyncIterator[tuple[LocalDiscord, LocalPage, Any]]:
    server = LocalDiscord()
    page = LocalPage(server, {})
    await server.start(extend=page.install)
    try:
        with server.pointed_at():
            async with running_client(layout_bot()), async_chromium() as browser:
                yield server, page, browser
    finally:
        await page.close()
        await server.stop()


async def settled(tab: Any) -> None:
    await tab.wait_for_function(
        "document.body.dataset.ready === 'true' && (document.body.dataset.busy || '0') === '0'"
    )


def box(rect: dict[str, float]) -> tuple[float, float, float, float]:
    return rect["x"], rect["y"], rect["x"] + rect["width"], rect["y"] + rect["height"]


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
async def test_a_components_v2_message_is_drawn_as_discord_draws_it(
    page_and_browser: tuple[LocalDiscord, LocalPage, Any], width: int
) -> None:
    server, page, browser = page_and_browser
    context = await browser.new_context(viewport={"width": width, "height": 900})
    tab = await context.new_page()
    tab.set_default_timeout(10_000)
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    await tab.goto(page.entry_url("user=1"))
    await settled(tab)
    await tab.fill("#command-input", "/table")
    await tab.press("#command-input", "Enter")
    await settled(tab)
    container = tab.locator(".v2-container").last
    await container.wait_for()
    await tab.wait_for_function(
        "[...document.images].every(image => image.complete && image.naturalWidth > 0)"
    )
    accent = await container.evaluate("n => getComputedStyle(n).borderLeftColor")
    assert accent == "rgb(46, 125, 50)"
    assert await container.locator(".md-h2").inner_text() == "Dutch · round 2"
    assert await container.locator(".v2-section strong").inner_text() == "Alice"

    seat_text = box(await container.locator(".v2-section-texts").bounding_box())
    play = box(await container.locator("button[data-custom-id='seat:play']").bounding_box())
    assert play[0] >= seat_text[2], "the section's button is at the right of its text"
    assert play[1] < seat_text[3] and seat_text[1] < play[3], "on the same line"

    inner = await container.evaluate("n => n.clientWidth - 32 - 4")  # padding, accent bar
    gallery = box(await container.locator("img.v2-media").bounding_box())
    assert gallery[2] - gallery[0] >= min(inner, 560) - 2, "the picture spans the container"
    assert await container.locator(".v2-separator.divider").count() == 1
    assert await tab.locator("#messages").evaluate("n => n.scrollWidth <= n.clientWidth")
    assert await tab.locator(".attachment-image").count() == 0, "no loose picture under it"

    await container.locator("button[data-custom-id='table:hand']").click()
    await settled(tab)
    await tab.wait_for_selector("text=clicked table:hand")
    clicks = [i for i in server.interactions.values() if i.kind == "button"]
    assert [i.data["custom_id"] for i in clicks] == ["table:hand"]
    await context.close()
    assert errors == []
