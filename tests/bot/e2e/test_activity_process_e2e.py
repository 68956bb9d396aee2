"""The Activity's server in a process of its own (the default): its pages play through the
bot's service, and when the process dies the bot starts it again and the pages catch up."""

from __future__ import annotations

import asyncio
import os
import signal

import aiohttp

from bot.activity.process import ActivityProcess
from bot.activity.running import ActivityServer
from bot.ui.custom_ids import Verb
from tests.bot.e2e.harness import BotUnderTest, players
from tests.bot.e2e.test_activity_e2e import WAIT, _activity, _frame, _page


async def _restarted(process: ActivityProcess, dead: int) -> None:
    """Until the bot has started a new process in place of `dead`."""
    while not (process.listening.is_set() and process.pid not in (None, dead)):
        await asyncio.sleep(0.05)  # the bot waits a second before starting it again


async def test_a_killed_activity_process_is_started_again_and_its_pages_catch_up(
    harness: BotUnderTest,
) -> None:
    port = _activity(harness)
    async with harness.running() as bot, aiohttp.ClientSession() as session:
        process = bot.activity_server
        assert isinstance(process, ActivityProcess)
        assert process.pid is not None and process.pid != os.getpid()
        alice, bob, _carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        launched = await harness.press(alice, table_id, Verb.ACTIVITY.value)
        page = await _page(session, harness, port, alice, launched)
        await _frame(page, 0)
        dead = process.pid
        os.kill(dead, signal.SIGKILL)
        while not page.closed:  # the page loses its connection with the process
            await page.receive(timeout=WAIT)
        # meanwhile the table plays on through the table message
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        await bot.service.play.act(table_id, bob.id, round_no, "peek 1 2")
        await asyncio.wait_for(_restarted(process, dead), WAIT)
        again = await _page(session, harness, port, alice, launched)
        shown = await _frame(again, bot.service.public_snapshot(table_id).version)
        table = shown["table"]
        await again.send_json(
            {"act": "peek 1 2", "round": table["round"], "version": table["version"]}
        )
        after = await _frame(again, table["version"] + 1)
        assert not after["me"]["legal"]  # alice's peek was played: bob's turn or the round's
        await harness.assert_table_message_converged(table_id)
        await again.close()


async def test_the_activity_in_the_bots_process_when_asked(harness: BotUnderTest) -> None:
    port = _activity(harness)
    harness.more_settings["ACTIVITY_OWN_PROCESS"] = False
    async with harness.running() as bot, aiohttp.ClientSession() as session:
        assert isinstance(bot.activity_server, ActivityServer)
        alice, bob, _carol = players(harness.fake)
        table_id = await harness.seat_players(alice, [bob])
        launched = await harness.press(alice, table_id, Verb.ACTIVITY.value)
        page = await _page(session, harness, port, alice, launched)
        table = (await _frame(page, 0))["table"]
        await page.send_json(
            {"act": "peek 1 2", "round": table["round"], "version": table["version"]}
        )
        await _frame(page, table["version"] + 1)
        await page.close()
