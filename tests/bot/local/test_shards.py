"""The local Discord's gateway shards as Discord does: GET /gateway/bot recommends the shard
count, IDENTIFY's `shard: [id, count]` is honoured, each connection receives only the guilds
(READY, GUILD_CREATE) and events of its shard, and a shard outside its count is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.local.gateway import INVALID_SHARD, ShardOffline
from bot.local.records import LocalGuild
from bot.local.server import LocalDiscord, running_client, running_local_discord

GUILDS_ON = 2  # guilds per shard


@pytest.fixture
async def sharded() -> AsyncIterator[LocalDiscord]:
    """Two shards, each with guilds of its own (the first guild lands where its id says)."""
    async with running_local_discord(shard_count=2) as fake:
        for shard in (0, 1):
            while len(_guilds_on(fake, shard)) < GUILDS_ON:
                number = len(fake.guilds)
                fake.add_guild(f"Club {number}", (f"player{number}",), shard=shard)
        yield fake
        assert not fake.unknown_routes


def _guilds_on(fake: LocalDiscord, shard: int) -> set[int]:
    return {guild_id for guild_id in fake.guilds if (guild_id >> 22) % 2 == shard}


def _guild(fake: LocalDiscord, shard: int) -> LocalGuild:
    return fake.guilds[min(_guilds_on(fake, shard))]


class ShardClient(discord.AutoShardedClient):
    """A client of some shards that answers every interaction with the shard it came on."""

    def __init__(self, shard_ids: list[int] | None) -> None:
        super().__init__(intents=discord.Intents.none(), shard_count=2, shard_ids=shard_ids)
        self.interactions: list[int] = []  # guild ids

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s between its shards' identifies (Discord's rate limit)."""

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        self.interactions.append(interaction.guild_id)
        await interaction.response.send_message(f"shard {interaction.guild.shard_id}")  # type: ignore[union-attr]


async def test_gateway_bot_recommends_the_shard_count(sharded: LocalDiscord) -> None:
    async with (
        aiohttp.ClientSession(headers=sharded.bot_headers) as session,
        session.get(f"{sharded.base_url}/gateway/bot") as response,
    ):
        body = await response.json()
    assert body["shards"] == 2 and body["url"] == str(sharded.gateway_url)


async def test_each_process_of_one_shard_gets_its_guilds_and_their_interactions_only(
    sharded: LocalDiscord,
) -> None:
    first, second = ShardClient([0]), ShardClient([1])
    async with running_client(first), running_client(second):
        assert {g.id for g in first.guilds} == _guilds_on(sharded, 0)
        assert {g.id for g in second.guilds} == _guilds_on(sharded, 1)
        assert sorted(sharded.gateway.identified) == [(0, 2), (1, 2)]
        for shard, client in ((1, second), (0, first)):
            guild = _guild(sharded, shard)
            asked = await sharded.slash(guild.users[0], "ping", channel_id=guild.channel_id)
            await asked.wait_answered()
            (answer,) = asked.requests
            assert answer.payload["data"]["content"] == f"shard {shard}"
            assert client.interactions == [guild.id]


async def test_one_process_of_both_shards_gets_every_guild(sharded: LocalDiscord) -> None:
    client = ShardClient(None)
    async with running_client(client):
        assert {g.id for g in client.guilds} == set(sharded.guilds)
        assert {g.shard_id for g in client.guilds} == {0, 1}
        guild = _guild(sharded, 1)
        asked = await sharded.slash(guild.users[0], "ping", channel_id=guild.channel_id)
        await asked.wait_answered()
        assert client.interactions == [guild.id]


async def _identify(
    session: aiohttp.ClientSession, fake: LocalDiscord, shard: list[int] | None
) -> tuple[aiohttp.ClientWebSocketResponse, list[dict[str, Any]]]:
    """A raw connection identifying with `shard`: the socket and what answered (READY, then
    GUILD_CREATEs), or the socket closed."""
    socket = await session.ws_connect(str(fake.gateway_url))
    hello = await socket.receive_json()
    assert hello["op"] == 10
    identify: dict[str, Any] = {"token": fake.bot_token, "intents": 0, "properties": {}}
    if shard is not None:
        identify["shard"] = shard
    await socket.send_json({"op": 2, "d": identify})
    events: list[dict[str, Any]] = []
    ready = await socket.receive()
    if ready.type != aiohttp.WSMsgType.TEXT:
        return socket, events
    events.append(ready.json())
    for _ in events[0]["d"]["guilds"]:
        events.append(await socket.receive_json())
    return socket, events


async def test_identify_lists_the_guilds_of_its_shard_and_no_shard_means_all(
    sharded: LocalDiscord,
) -> None:
    async with aiohttp.ClientSession() as session:
        for shard, expected in (([1, 2], _guilds_on(sharded, 1)), (None, set(sharded.guilds))):
            socket, (ready, *creates) = await _identify(session, sharded, shard)
            assert ready["t"] == "READY" and ready["d"].get("shard") == shard
            assert {int(g["id"]) for g in ready["d"]["guilds"]} == expected
            assert [c["t"] for c in creates] == ["GUILD_CREATE"] * len(expected)
            assert {int(c["d"]["id"]) for c in creates} == expected
            await socket.close()


async def test_a_shard_outside_its_count_is_closed_with_invalid_shard(
    sharded: LocalDiscord,
) -> None:
    async with aiohttp.ClientSession() as session:
        for shard in ([2, 2], [-1, 2], [0, 0]):
            socket, events = await _identify(session, sharded, shard)
            assert events == [] and socket.close_code == INVALID_SHARD
    assert sharded.gateway.identified == []


async def test_events_go_to_the_newest_connection_of_the_shard_and_an_absent_shard_has_none(
    sharded: LocalDiscord,
) -> None:
    """A restarted process identifies again while its old connection may linger: the new one
    gets the events. With no connection on a guild's shard nothing can be delivered."""
    guild = _guild(sharded, 0)
    async with aiohttp.ClientSession() as session:
        old, _ = await _identify(session, sharded, [0, 2])
        new, _ = await _identify(session, sharded, [0, 2])
        await sharded.dispatch_event("TYPING_START", {"guild_id": str(guild.id)})
        event = await new.receive_json()
        assert event["t"] == "TYPING_START" and event["s"] == 1 + GUILDS_ON + 1
        await old.send_json({"op": 1, "d": None})  # a heartbeat: its ACK is the next frame
        assert (await old.receive_json())["op"] == 11  # the event did not come before it
        other = _guild(sharded, 1)
        with pytest.raises(ShardOffline):
            await sharded.slash(other.users[0], "ping", channel_id=other.channel_id)
        assert sharded.gateway.shards_connected() == {0}
        await old.close()
        await new.close()
