"""The local table against hostile pages, in Chromium: a page from another origin opened in the
browser that plays (so it holds the table's cookie) cannot play, write, post as the bot nor take
the bot's gateway; a name re-pointed at 127.0.0.1 (DNS rebinding) is not served; a chat message
that is no valid time does not break the page."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web

from bot.local.page import LocalPage
from bot.local.server import LocalDiscord, running_client
from tests.bot.local.browser import async_chromium, free_port
from tests.bot.local.test_select_menus_in_browser import command, settled
from tests.bot.local.test_server import tiny_bot

REBOUND = "rebind.attacker.example"

# What a hostile page does: simple requests (no preflight) and websockets to the table.
ATTACK = """async ([target, channel]) => {
  const simple = (path, body) => fetch(target + path, {
    method: "POST", mode: "no-cors", credentials: "include",
    headers: { "Content-Type": "text/plain" }, body: JSON.stringify(body),
  }).then(() => "sent", () => "failed");
  const opened = (path, first) => new Promise((resolve) => {
    const ws = new WebSocket(target.replace("http", "ws") + path);
    ws.onopen = () => { if (first) ws.send(JSON.stringify(first)); resolve("open"); };
    ws.onerror = () => resolve("refused");
  });
  const settings = { user: 1, type: "command", channel_id: channel, name: "ping" };
  return [
    await simple("/page/interactions", settings),
    await simple("/page/messages", { user: 1, channel_id: channel, content: "from elsewhere" }),
    await simple(`/api/v10/channels/${channel}/messages`, { content: "as the bot" }),
    await opened("/page/events?user=1", null),
    await opened("/gateway?v=10&encoding=json",
      { op: 2, d: { token: "local-token", intents: 0, properties: {} } }),
  ];
}"""


@pytest.fixture
async def table(caplog: pytest.LogCaptureFixture) -> AsyncIterator[tuple[LocalDiscord, LocalPage]]:
    caplog.set_level(logging.INFO)
    server = LocalDiscord()
    page = LocalPage(server, {})
    await server.start(extend=page.install)
    try:
        with server.pointed_at():
            async with running_client(tiny_bot()):
                yield server, page
    finally:
        await page.close()
        await server.stop()
    loud = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("bot")]
    assert loud == [], [r.getMessage() for r in loud]


@pytest.fixture
async def hostile_site() -> AsyncIterator[str]:
    """A page on another port of 127.0.0.1: another origin, the same "site" for cookies."""

    async def blank(request: web.Request) -> web.Response:
        page = "<!doctype html><title>elsewhere</title>"
        return web.Response(text=page, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", blank)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        await runner.cleanup()


async def test_a_page_from_another_origin_cannot_drive_the_table(
    table: tuple[LocalDiscord, LocalPage], hostile_site: str
) -> None:
    server, page = table
    async with async_chromium() as browser:
        context = await browser.new_context()
        mine = await context.new_page()
        await mine.goto(page.entry_url("user=1"))  # the player's page: the cookie is set
        await settled(mine)
        requests_before = len(server.requests)

        hostile = await context.new_page()
        await hostile.goto(hostile_site)
        target = f"http://127.0.0.1:{server.port}"
        outcome = await hostile.evaluate(ATTACK, [target, str(server.channel_id)])
        assert outcome[3:] == ["refused", "refused"]  # neither websocket opened
        await server.settle()
        assert server.interactions == {}
        shown = [m.get("content") for m in server.messages.values()]
        assert "from elsewhere" not in shown and "as the bot" not in shown
        assert len(server.requests) == requests_before
        assert server.gateway.identified == [(0, 1)]  # the bot's own session only

        await command(mine, "ping")  # the bot still hears and answers the player
        await mine.locator("article.message", has_text="pong x1 for alice").wait_for()
        await context.close()


async def test_a_name_rebound_to_this_machine_is_not_served(
    table: tuple[LocalDiscord, LocalPage],
) -> None:
    server, page = table
    rule = f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1"
    async with async_chromium((rule,)) as browser:
        context = await browser.new_context()
        tab = await context.new_page()
        rebound = page.entry_url("user=1").replace("127.0.0.1", REBOUND)
        answer = await tab.goto(rebound)
        assert answer is not None and answer.status == 421
        answer = await tab.goto(f"http://{REBOUND}:{server.port}/page/state?user=1")
        assert answer is not None and answer.status == 421
        await context.close()


async def test_a_time_out_of_range_in_a_message_leaves_the_page_working(
    table: tuple[LocalDiscord, LocalPage],
) -> None:
    _, page = table
    async with async_chromium() as browser:
        context = await browser.new_context()
        tab = await context.new_page()
        errors: list[Any] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        await tab.goto(page.entry_url("user=1"))
        await settled(tab)
        for text in ("<t:99999999999999999>", "<t:99999999999999999:R>", "after the times"):
            await tab.fill("#command-input", text)
            await tab.press("#command-input", "Enter")
            await settled(tab)
        await tab.locator("article.message", has_text="after the times").wait_for()
        await tab.locator("article.message", has_text="<t:99999999999999999>").wait_for()
        fresh = await context.new_page()  # a page opened afresh becomes ready
        await fresh.goto(page.entry_url("user=2"))
        await settled(fresh)
        await fresh.locator("article.message", has_text="after the times").wait_for()
        assert errors == []
        await context.close()
