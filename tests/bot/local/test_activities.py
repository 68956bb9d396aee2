"""The local Discord's Activity instances and entry point, as Discord serves them: one
instance per channel, joined by each user who launches it, left by who closes it and ended by
the last one out, answered with the bot's token; an entry point command global only, one at
most."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.local.server import LocalDiscord

ENTRY = {"name": "launch", "type": 4, "handler": 1, "description": "Open a table"}


@pytest.fixture
async def fake() -> AsyncIterator[LocalDiscord]:
    server = LocalDiscord()
    await server.start()
    yield server
    await server.stop()


async def _get(fake: LocalDiscord, path: str, token: str | None = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {token or fake.bot_token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.base_url}{path}", headers=headers) as answer,
    ):
        return answer.status, await answer.json(content_type=None)


async def _put(fake: LocalDiscord, path: str, body: Any, method: str = "PUT") -> int:
    headers = {"Authorization": f"Bot {fake.bot_token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"{fake.base_url}{path}", json=body, headers=headers) as a,
    ):
        return a.status


async def test_launches_in_a_channel_share_its_instance_which_names_them(
    fake: LocalDiscord,
) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    first = fake.activities.launch(alice, fake.channel_id)
    assert fake.activities.launch(bob, fake.channel_id) is first
    elsewhere = fake.activities.launch(bob, fake.other_channel_id)
    assert elsewhere.instance_id != first.instance_id
    path = f"/applications/{fake.application_id}/activity-instances/{first.instance_id}"
    status, body = await _get(fake, path)
    assert status == 200
    assert body["location"]["channel_id"] == str(fake.channel_id)
    assert body["location"]["guild_id"] == str(fake.guild_id)
    assert body["users"] == [str(alice.id), str(bob.id)]


async def test_an_instance_is_answered_only_with_the_bots_token_and_if_it_runs(
    fake: LocalDiscord,
) -> None:
    running = fake.activities.launch(fake.user("alice"), fake.channel_id)
    base = f"/applications/{fake.application_id}/activity-instances"
    assert (await _get(fake, f"{base}/{running.instance_id}", token="forged"))[0] == 401
    assert (await _get(fake, f"{base}/i-never-launched"))[0] == 404


async def test_a_user_leaves_an_instance_and_the_last_one_out_ends_it(
    fake: LocalDiscord,
) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    first = fake.activities.launch(alice, fake.channel_id)
    fake.activities.launch(bob, fake.channel_id)
    path = f"/applications/{fake.application_id}/activity-instances/{first.instance_id}"
    assert fake.activities.leave(alice, fake.channel_id) is first
    status, body = await _get(fake, path)
    assert (status, body["users"]) == (200, [str(bob.id)])
    assert fake.activities.leave(bob, instance_id=first.instance_id) is first
    assert (await _get(fake, path))[0] == 404
    assert fake.activities.leave(bob, fake.channel_id) is None  # nothing runs there now
    again = fake.activities.launch(alice, fake.channel_id)
    assert again.instance_id != first.instance_id and again.users == [alice.id]


async def test_an_entry_point_is_one_global_command(fake: LocalDiscord) -> None:
    app = fake.application_id
    slash = {"name": "stats", "description": "Stats", "type": 1}
    guild = f"/applications/{app}/guilds/{fake.guild_id}/commands"
    assert await _put(fake, guild, [slash, ENTRY]) == 400
    assert await _put(fake, f"/applications/{app}/commands", [ENTRY, {**ENTRY, "name": "b"}]) == 400
    assert await _put(fake, f"/applications/{app}/commands", [slash, ENTRY]) == 200
    replaced = {**ENTRY, "description": "Open a table here"}
    assert await _put(fake, f"/applications/{app}/commands", replaced, method="POST") == 201
    listed = fake.commands[None]
    assert [(c["name"], c["type"]) for c in listed] == [("stats", 1), ("launch", 4)]
    assert listed[1]["description"] == "Open a table here"
