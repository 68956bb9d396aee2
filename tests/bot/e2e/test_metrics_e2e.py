"""The metrics endpoint scraped during a real match: the values match what was played."""

from __future__ import annotations

import re

import aiohttp

from bot.ui.custom_ids import Verb
from tests.bot.e2e.harness import BotUnderTest, assert_one_short_private_sentence, players


async def fetch(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def sample(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    pattern = re.escape(name + (f"{{{wanted}}}" if labels else "")) + r" (\S+)"
    found = re.search(rf"^{pattern}$", text, re.MULTILINE)
    assert found is not None, f"{name} {labels} not in the metrics"
    return float(found.group(1))


async def test_metrics_scraped_during_a_match_count_its_clicks_and_stored_actions(
    harness: BotUnderTest,
) -> None:
    alice, bob, carol = players(harness.fake)
    stranger = harness.fake.user("dave")
    async with harness.running() as bot:
        await bot._start_operations(0)
        assert bot.operations is not None
        table_id = await harness.seat_players(alice, [bob, carol], target=10)
        refused = await harness.press(stranger, table_id, Verb.HAND.value)
        assert_one_short_private_sentence(refused)
        await harness.play_to_the_end(table_id)
        await harness.settle()

        status, text = await fetch(bot.operations.port, "/metrics")
        assert status == 200
        status, body = await fetch(bot.operations.port, "/health")
        assert status == 200, body

        clicks = [i for i in harness.fake.interactions.values() if i.custom_id]
        played = sample(text, "cardtable_clicks_total", game="dutch", outcome="played")
        refusals = sample(text, "cardtable_clicks_total", game="dutch", outcome="refused")
        assert refusals == 1 and played + refusals == len(clicks)
        assert sample(text, "cardtable_click_answer_seconds_count") == len(clicks)
        rounds = bot.service.public_snapshot(table_id).round_no
        assert rounds is not None
        actions = 0
        for round_no in range(rounds + 1):
            actions += len((await bot.store.load_round(table_id, round_no)).actions)
        assert sample(text, "cardtable_store_commit_seconds_count") == actions > 0
        assert sample(text, "cardtable_tables", game="dutch", status="finished") == 1
        assert sample(text, "cardtable_healthy") == 1
        assert sample(text, "cardtable_message_edits_total", kind="sent") > 0  # table edits


async def test_health_flips_when_the_store_is_made_read_only(harness: BotUnderTest) -> None:
    async with harness.running() as bot:
        await bot._start_operations(0)
        assert bot.operations is not None
        port = bot.operations.port
        assert (await fetch(port, "/health"))[0] == 200
        connection = bot.store._db.conn  # type: ignore[attr-defined]
        await connection.execute("PRAGMA query_only = ON")  # the file can no longer be written
        await bot.health.probe(bot.store.check_writable, None)
        status, body = await fetch(port, "/health")
        assert status == 503 and "store cannot write" in body
        _, text = await fetch(port, "/metrics")
        assert sample(text, "cardtable_healthy") == 0
        await connection.execute("PRAGMA query_only = OFF")
        await bot.health.probe(bot.store.check_writable, None)
        assert (await fetch(port, "/health"))[0] == 200
