"""The Activity beside the real bot: its page and the table message are two views of one
table, a move made in either shows in the other."""

from __future__ import annotations

import copy
import json
import socket
from typing import Any

import aiohttp

from bot.local.records import LocalUser
from bot.ui.custom_ids import Verb
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.players import verb_choice
from tests.bot.local.browser import free_port

WAIT = 10.0


async def _page(
    session: aiohttp.ClientSession, harness: BotUnderTest, port: int, user: LocalUser, table: int
) -> aiohttp.ClientWebSocketResponse:
    """Sign in as the SDK does (a code, exchanged by the bot's server) and open the page."""
    code = harness.fake.oauth.authorize(user)
    async with session.post(f"http://127.0.0.1:{port}/api/token", json={"code": code}) as answer:
        token = (await answer.json())["access_token"]
    return await session.ws_connect(f"http://127.0.0.1:{port}/ws?table={table}&token={token}")


async def _frame(socket: aiohttp.ClientWebSocketResponse, version: int) -> dict[str, Any]:
    """The first frame showing the table at `version` or later."""
    while True:
        message = json.loads((await socket.receive(timeout=WAIT)).data)
        if message["type"] == "table" and message["table"]["version"] >= version:
            return dict(message)


async def test_a_move_in_the_activity_shows_in_the_table_message_and_a_click_in_the_page(
    harness: BotUnderTest,
) -> None:
    port = free_port()
    harness.more_settings = {
        "ACTIVITY_ENABLED": True,
        "ACTIVITY_PORT": port,
        "DISCORD_CLIENT_SECRET": harness.fake.oauth.client_secret,
    }
    async with harness.running() as bot, aiohttp.ClientSession() as session:
        alice, bob, _carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        page = await _page(session, harness, port, alice, table_id)
        shown = await _frame(page, 0)
        assert shown["me"]["legal"]  # alice's own view: her peek is owed
        before = copy.deepcopy(await harness.stored_table_message(table_id))
        table = shown["table"]
        await page.send_json(
            {"act": "peek 1 2", "round": table["round"], "version": table["version"]}
        )
        await _frame(page, table["version"] + 1)
        await harness.assert_table_message_converged(table_id)
        assert await harness.stored_table_message(table_id) != before
        # a click in Discord reaches the page
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        await bot.service.play.act(table_id, bob.id, round_no, "peek 1 2")
        version = bot.service.public_snapshot(table_id).version
        assert (await _frame(page, version))["table"]["version"] == version
        await page.close()


async def test_open_the_table_launches_the_activity_for_the_clicker(
    harness: BotUnderTest,
) -> None:
    harness.more_settings = {
        "ACTIVITY_ENABLED": True,
        "ACTIVITY_PORT": free_port(),
        "DISCORD_CLIENT_SECRET": harness.fake.oauth.client_secret,
    }
    async with harness.running():
        alice, bob, carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        clicked = await harness.press(carol, table_id, Verb.ACTIVITY.value)
        assert clicked.launched_activity
        assert not [r for r in clicked.requests if r.shows_message]  # nothing else to read


async def test_without_the_activity_the_table_message_offers_no_open_the_table(
    harness: BotUnderTest,
) -> None:
    async with harness.running():
        alice, bob, _carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        assert verb_choice(harness.table_message(table_id), Verb.ACTIVITY.value) is None


async def test_the_activity_on_a_taken_port_is_off_and_the_tables_play_on(
    harness: BotUnderTest,
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        harness.more_settings = {
            "ACTIVITY_ENABLED": True,
            "ACTIVITY_PORT": taken.getsockname()[1],
            "DISCORD_CLIENT_SECRET": harness.fake.oauth.client_secret,
        }
        async with harness.running() as bot:
            alice, bob, _carol = players(harness.fake)
            table_id = await harness.seat_players(alice, [bob])
            assert bot.activity_server is None
            assert verb_choice(harness.table_message(table_id), Verb.ACTIVITY.value) is None
