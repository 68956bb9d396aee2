"""The Activity beside the real bot: its page and the table message are two views of one
table, a move made in either shows in the other."""

from __future__ import annotations

import copy
import json
import socket
from typing import Any

import aiohttp

from bot.custom_ids import parse
from bot.i18n import error_text
from bot.local.records import LocalInteraction, LocalUser
from bot.ui.custom_ids import Verb
from bot.ui.entry_point import definition
from tests.bot.e2e.harness import BotUnderTest, players, shown_answer
from tests.bot.e2e.players import verb_choice
from tests.bot.local.browser import free_port

WAIT = 10.0


async def _page(
    session: aiohttp.ClientSession,
    harness: BotUnderTest,
    port: int,
    user: LocalUser,
    launched: LocalInteraction,
) -> aiohttp.ClientWebSocketResponse:
    """The page a launch opened: signed in as the SDK does (a code, exchanged by the bot's
    server), in the instance the launch started or joined, on its channel."""
    code = harness.fake.oauth.authorize(user)
    async with session.post(f"http://127.0.0.1:{port}/api/token", json={"code": code}) as answer:
        token = (await answer.json())["access_token"]
    assert launched.launched_activity and launched.activity_instance_id is not None
    where = f"instance={launched.activity_instance_id}&channel={launched.channel_id}"
    return await session.ws_connect(f"http://127.0.0.1:{port}/ws?{where}&token={token}")


def _activity(harness: BotUnderTest, port: int | None = None) -> int:
    """The Activity turned on for the bot's next run, on a free port (returned)."""
    port = port or free_port()
    harness.more_settings = {
        "ACTIVITY_ENABLED": True,
        "ACTIVITY_PORT": port,
        "DISCORD_CLIENT_SECRET": harness.fake.oauth.client_secret,
    }
    return port


async def _frame(socket: aiohttp.ClientWebSocketResponse, version: int) -> dict[str, Any]:
    """The first frame showing the table at `version` or later."""
    while True:
        message = json.loads((await socket.receive(timeout=WAIT)).data)
        if message["type"] == "table" and message["table"]["version"] >= version:
            return dict(message)


async def test_a_move_in_the_activity_shows_in_the_table_message_and_a_click_in_the_page(
    harness: BotUnderTest,
) -> None:
    port = _activity(harness)
    async with harness.running() as bot, aiohttp.ClientSession() as session:
        alice, bob, _carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        launched = await harness.press(alice, table_id, Verb.ACTIVITY.value)
        page = await _page(session, harness, port, alice, launched)
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


def _entry_point(harness: BotUnderTest) -> dict[str, Any]:
    (found,) = [c for c in harness.fake.commands.get(None, []) if c.get("type") == 4]
    return found


async def test_the_entry_point_command_is_synced_with_the_activity(
    harness: BotUnderTest,
) -> None:
    _activity(harness)
    async with harness.running():
        entry = _entry_point(harness)
        assert entry["name"] == "launch" and entry["handler"] == 1  # the bot answers it
        assert entry["name_localizations"]["fr"] == "ouvrir"
        assert entry["description"] and entry["description_localizations"]["fr"]


async def test_the_entry_point_offers_the_channels_tables_and_opens_the_one_chosen(
    harness: BotUnderTest,
) -> None:
    port = _activity(harness)
    async with harness.running() as bot, aiohttp.ClientSession() as session:
        alice, bob, carol = players(harness.fake)
        first = await harness.seat_players(alice, [bob])
        second = await harness.open_table(carol)
        asked = await (await harness.fake.slash(bob, "launch")).wait_answered()
        assert not asked.launched_activity
        offer = shown_answer(asked)
        assert offer["content"] == "Which table of this channel do you open?"
        (shown,) = [r for r in asked.requests if r.shows_message]
        assert shown.ephemeral
        buttons = [b for row in offer["components"] for b in row["components"]]
        assert [b["label"] for b in buttons] == [
            "Open the table: Dutch of Alice",
            "Open the table: Dutch of Carol",
        ]
        assert [parse(b["custom_id"]).table_id for b in buttons] == [first, second]
        message_id = shown.message_id
        assert message_id is not None
        launched = await harness.fake.click(bob, message_id, buttons[1]["custom_id"])
        await launched.wait_answered()
        page = await _page(session, harness, port, bob, launched)
        frame = await _frame(page, 0)
        assert frame["table"]["table"] == second and frame["me"] is None  # bob sits at first
        assert bot.service.public_snapshot(second).seat_of(bob.id) is None
        await page.close()


async def test_the_entry_point_launches_the_channels_only_table_at_once(
    harness: BotUnderTest,
) -> None:
    port = _activity(harness)
    async with harness.running(), aiohttp.ClientSession() as session:
        alice, bob, _carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        launched = await (await harness.fake.slash(alice, "launch")).wait_answered()
        assert launched.launched_activity
        page = await _page(session, harness, port, alice, launched)
        frame = await _frame(page, 0)
        assert frame["table"]["table"] == table_id and frame["me"]["seat"] == 0
        await page.close()


async def test_the_entry_point_speaks_the_users_language(harness: BotUnderTest) -> None:
    _activity(harness)
    async with harness.running():
        alice, bob, carol = players(harness.fake)
        asked = await (await harness.fake.slash(alice, "launch", locale="fr")).wait_answered()
        assert shown_answer(asked)["content"] == error_text("fr", "activity_no_table")
        await harness.seat_players(alice, [bob])
        await harness.open_table(carol)
        asked = await (await harness.fake.slash(bob, "launch", locale="fr")).wait_answered()
        offer = shown_answer(asked)
        assert offer["content"] == "Quelle table de ce salon ouvrez-vous ?"
        labels = [b["label"] for row in offer["components"] for b in row["components"]]
        assert labels == ["Ouvrir la table : Dutch d'Alice", "Ouvrir la table : Dutch de Carol"]


async def test_the_entry_point_of_a_bot_whose_activity_is_off_says_so(
    harness: BotUnderTest,
) -> None:
    async with harness.running():
        assert not [c for c in harness.fake.commands.get(None, []) if c.get("type") == 4]
        harness.fake.commands.setdefault(None, []).append({**definition(), "id": "1"})  # older
        alice, _bob, _carol = players(harness.fake)
        asked = await (await harness.fake.slash(alice, "launch")).wait_answered()
        assert not asked.launched_activity
        assert shown_answer(asked)["content"] == error_text("en", "activity_off")
