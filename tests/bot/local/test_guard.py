"""What keeps the local table to the people at this machine, without a browser: the per-run
secret, the Host and Origin checks, the bot's token on the API routes and on the gateway."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.local.gateway import AUTHENTICATION_FAILED, NOT_AUTHENTICATED
from bot.local.guard import COOKIE, NO_KEY, WRONG_HOST, WRONG_ORIGIN
from bot.local.page import LocalPage
from bot.local.server import LocalDiscord, running_client
from tests.bot.local.test_server import tiny_bot


@pytest.fixture
async def served(caplog: pytest.LogCaptureFixture) -> AsyncIterator[tuple[LocalDiscord, LocalPage]]:
    """The server, its page and a small bot connected; nothing logged above INFO."""
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


async def test_the_page_and_its_api_want_the_secret_of_this_run(
    served: tuple[LocalDiscord, LocalPage],
) -> None:
    server, page = served
    url = f"http://127.0.0.1:{server.port}"
    async with aiohttp.ClientSession() as stranger:
        async with stranger.get(f"{url}/?user=1") as response:
            assert response.status == 403 and await response.text() == NO_KEY
        async with stranger.get(f"{url}/page/state?user=1") as response:
            assert response.status == 403 and (await response.json())["error"] == NO_KEY
        guess = {"user": 1, "type": "command", "channel_id": server.channel_id, "name": "ping"}
        async with stranger.post(f"{url}/page/interactions", json=guess) as response:
            assert response.status == 403
        async with stranger.get(f"{url}/?key=not-the-key&user=1") as response:
            assert response.status == 403
    assert server.interactions == {}

    jar = aiohttp.CookieJar(unsafe=True)  # keeps cookies of an IP address, as browsers do
    async with aiohttp.ClientSession(cookie_jar=jar) as person:  # the printed address, then
        async with person.get(page.entry_url("user=2"), allow_redirects=False) as response:
            assert response.status == 302 and response.headers["Location"] == "/?user=2"
            cookie = response.cookies[COOKIE]
            assert cookie.value == page.key.secret
            assert cookie["httponly"] and cookie["samesite"] == "Strict"
        async with person.get(f"{url}/?user=2") as response:
            assert response.status == 200 and "<html" in (await response.text()).lower()
        async with person.get(f"{url}/page/state?user=2") as response:
            assert response.status == 200 and (await response.json())["me"]["username"] == "bob"


async def test_a_request_for_another_host_name_is_refused_dns_rebinding(
    served: tuple[LocalDiscord, LocalPage],
) -> None:
    server, page = served
    rebound = {"Host": f"rebind.attacker.example:{server.port}"}
    url = f"http://127.0.0.1:{server.port}"
    cookies = {COOKIE: page.key.secret}  # even a browser that holds the cookie
    async with aiohttp.ClientSession(cookies=cookies, headers=rebound) as session:
        for path in ("/", "/page/state?user=1", "/api/v10/users/@me", "/static/app.js"):
            async with session.get(url + path, headers=server.bot_headers) as response:
                assert response.status == 421, path
                assert (await response.json())["error"] == WRONG_HOST
    local = f"http://localhost:{server.port}/page/state"  # the real names are served
    async with aiohttp.ClientSession(cookies=cookies) as session, session.get(local) as response:
        assert response.status == 200


async def test_a_change_from_another_origin_is_refused_even_with_the_cookie(
    served: tuple[LocalDiscord, LocalPage],
) -> None:
    server, page = served
    url = f"http://127.0.0.1:{server.port}"
    other = {"Origin": "http://127.0.0.1:1"}  # another port of this machine: the same "site"
    asked = {"user": 1, "type": "command", "channel_id": server.channel_id, "name": "ping"}
    async with aiohttp.ClientSession(cookies={COOKIE: page.key.secret}) as session:
        async with session.post(f"{url}/page/interactions", json=asked, headers=other) as answer:
            assert answer.status == 403 and (await answer.json())["error"] == WRONG_ORIGIN
        said = {"user": 1, "channel_id": server.channel_id, "content": "hi"}
        async with session.post(f"{url}/page/messages", json=said, headers=other) as answer:
            assert answer.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await session.ws_connect(f"{url}/page/events", headers=other)
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await session.ws_connect(f"{url}/gateway", headers=other)
        own = {"Origin": url}
        async with session.post(f"{url}/page/interactions", json=asked, headers=own) as answer:
            assert answer.status == 200 and (await answer.json())["answered"]


async def test_the_api_routes_want_the_bot_s_token(
    served: tuple[LocalDiscord, LocalPage],
) -> None:
    server, _ = served
    posted = f"{server.base_url}/channels/{server.channel_id}/messages"
    for headers in ({}, {"Authorization": "Bot local-token"}, {"Authorization": server.bot_token}):
        async with aiohttp.ClientSession(headers=headers) as session:
            async with session.post(posted, json={"content": "as the bot"}) as answer:
                assert answer.status == 401, headers
            async with session.get(f"{server.base_url}/users/@me") as answer:
                assert answer.status == 401, headers
    assert not any(m.get("content") == "as the bot" for m in server.messages.values())
    async with (
        aiohttp.ClientSession(headers=server.bot_headers) as bot,
        bot.post(posted, json={"content": "as the bot"}) as answer,
    ):
        assert answer.status == 200


async def test_the_gateway_keeps_the_bot_s_session_its_own(
    served: tuple[LocalDiscord, LocalPage],
) -> None:
    """A connection without the bot's token gets no event and does not take the bot's place:
    the bot still answers a command afterwards."""
    server, _ = served
    async with aiohttp.ClientSession() as session:
        thief = await session.ws_connect(str(server.gateway_url))
        assert (await thief.receive_json())["op"] == 10
        identify = {"token": "local-token", "intents": 0, "properties": {}}
        await thief.send_json({"op": 2, "d": identify})
        closed = await thief.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == AUTHENTICATION_FAILED

        early = await session.ws_connect(str(server.gateway_url))
        await early.receive_json()
        await early.send_json({"op": 8, "d": {"guild_id": str(server.guild_id)}})
        closed = await early.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == NOT_AUTHENTICATED

    asked = await server.slash(server.user("alice"), "ping")
    await asked.wait_answered(3.0)
    assert server.gateway.identified == [(0, 1)]  # the bot's one IDENTIFY
