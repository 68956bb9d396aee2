"""The local Discord server speaks well enough for discord.py: a tiny bot here runs against it."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import ClassVar

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.local import gateway
from bot.local.records import EPHEMERAL
from bot.local.server import LocalDiscord, running_client


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>\d+)"):
    """A persistent button whose state (a counter) lives in its custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: object
    ) -> CounterButton:
        return cls(int(match["n"]))  # type: ignore[index]

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count is {self.n + 1}", view=view)


def tiny_bot(think: float = 0.0) -> commands.Bot:
    """A bot with `/ping` (answered after `think` seconds), `/retitle` and a counter button."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    bot.add_dynamic_items(CounterButton)
    table: dict[str, discord.Message] = {}

    @bot.tree.command(name="ping", description="ping")
    @app_commands.describe(times="how many")
    async def ping(interaction: discord.Interaction, times: int = 1) -> None:
        await asyncio.sleep(think)
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message(
            f"pong x{times} for {interaction.user.name}", view=view, ephemeral=True
        )
        table["message"] = await interaction.channel.send("public table")  # type: ignore[union-attr]
        await interaction.followup.send("a secret followup", ephemeral=True)

    @bot.tree.command(name="retitle", description="edit the public message")
    async def retitle(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await table["message"].edit(content=text)
        await interaction.edit_original_response(content="done")

    @bot.tree.command(name="think", description="defer in public, then follow up")
    async def think_command(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("first", ephemeral=True)
        await interaction.followup.send("second", ephemeral=True)

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_a_discord_py_bot_logs_in_syncs_and_answers_commands_and_clicks(
    fake_discord: LocalDiscord,
) -> None:
    bot = tiny_bot()
    alice = fake_discord.user("alice")
    async with running_client(bot):
        assert bot.user is not None and bot.user.id == fake_discord.application_id
        guild = bot.get_guild(fake_discord.guild_id)
        assert guild is not None and guild.member_count == len(fake_discord.all_members())
        assert {c["name"] for c in fake_discord.commands[None]} == {"ping", "retitle", "think"}

        ping = await fake_discord.slash(alice, "ping", times=3)
        await ping.wait_answered()
        await fake_discord.settle()
        callback, followup = ping.requests
        (send,) = [r for r in fake_discord.requests if r.route.startswith("POST /channels/")]
        assert callback.payload["data"]["content"] == "pong x3 for alice"
        assert callback.ephemeral and callback.user_id == alice.id
        assert followup.ephemeral and followup.payload["content"] == "a secret followup"
        assert send.is_public and send.interaction is None

        answer = fake_discord.message(callback.message_id)
        assert int(answer["flags"]) & EPHEMERAL
        click = await fake_discord.click(alice, callback.message_id, "count:0")
        await click.wait_answered()
        assert fake_discord.message(callback.message_id)["content"] == "count is 1"
        (update,) = click.requests
        assert update.ephemeral and update.route.startswith("POST /interactions/")
        button = fake_discord.message(callback.message_id)["components"][0]["components"][0]
        assert button["custom_id"] == "count:1"


async def test_table_edits_answered_429_are_retried_until_they_land(
    fake_discord: LocalDiscord,
) -> None:
    bot = tiny_bot()
    alice = fake_discord.user("alice")
    async with running_client(bot):
        await (await fake_discord.slash(alice, "ping")).wait_answered()
        fake_discord.rate_limit_table_edits(count=2, retry_after=0.02)
        retitle = await fake_discord.slash(alice, "retitle", text="new title")
        await retitle.wait_answered()
        await fake_discord.wait_for(
            lambda: any(r.route.startswith("PATCH /webhooks/") for r in retitle.requests),
            what="the deferred answer",
        )
        edits = [r for r in fake_discord.requests if r.route.startswith("PATCH /channels/")]
        assert [r.status for r in edits] == [429, 429, 200]
        assert fake_discord.message(edits[-1].message_id)["content"] == "new title"
        assert retitle.requests[-1].ephemeral


async def test_a_restarted_client_reconnects_and_old_persistent_buttons_still_work(
    fake_discord: LocalDiscord,
) -> None:
    alice = fake_discord.user("alice")
    async with running_client(tiny_bot()):
        ping = await fake_discord.slash(alice, "ping")
        await ping.wait_answered()
        await fake_discord.settle()
    message_id = ping.requests[0].message_id
    assert message_id is not None
    async with running_client(tiny_bot()):
        click = await fake_discord.click(alice, message_id, "count:0")
        await click.wait_answered()
        assert fake_discord.message(message_id)["content"] == "count is 1"
        forged = await fake_discord.click(alice, message_id, "count:41", forged=True)
        await forged.wait_answered()
        assert fake_discord.message(message_id)["content"] == "count is 42"


async def test_payloads_discord_would_refuse_are_refused_with_its_error(
    fake_discord: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    bot = tiny_bot()
    async with running_client(bot):
        channel = bot.get_partial_messageable(fake_discord.channel_id)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("x" * 2001)
        assert refused.value.status == 400 and refused.value.code == 50035
        message = await channel.send("table")
        fake_discord.too_old_to_edit.add(message.id)
        with pytest.raises(discord.HTTPException) as too_old:
            await message.edit(content="new")
        assert too_old.value.code == 30046
    assert "content: 2001 > 2000 characters" in caplog.text


async def test_a_channel_message_older_than_an_hour_refuses_edits(
    fake_discord: LocalDiscord,
) -> None:
    bot = tiny_bot()
    async with running_client(bot):
        channel = bot.get_partial_messageable(fake_discord.channel_id)
        message = await channel.send("table")
        await message.edit(content="fresh: edits are fine")
        fake_discord.edit_age_limit = 0.0  # Discord's hour, shortened for the test
        with pytest.raises(discord.HTTPException) as too_old:
            await message.edit(content="new")
        assert too_old.value.code == 30046


async def test_an_interaction_token_expires_after_fifteen_minutes(
    fake_discord: LocalDiscord,
) -> None:
    bot = tiny_bot()
    async with running_client(bot):
        ping = await fake_discord.slash(fake_discord.user("alice"), "ping")
        await ping.wait_answered()
        await fake_discord.settle()
        fake_discord.token_lifetime = 0.0  # Discord's 15 minutes, shortened for the test
        webhook = discord.Webhook.partial(fake_discord.application_id, ping.token, client=bot)
        with pytest.raises(discord.HTTPException) as expired:
            await webhook.send("too late")
        assert expired.value.code == 50027


async def test_an_interaction_answered_after_three_seconds_is_unknown(
    fake_discord: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.answer_deadline = 0.05  # Discord's 3 s, shortened for the test
    bot = tiny_bot(think=0.1)
    async with running_client(bot):
        ping = await fake_discord.slash(fake_discord.user("alice"), "ping")
        await fake_discord.wait_for(lambda: bool(ping.requests), what="the late answer")
        await fake_discord.settle()
    (late, *_) = ping.requests
    assert late.status == 404 and not ping.answered.is_set()
    assert "10062" in caplog.text or "Unknown interaction" in caplog.text


async def test_the_first_follow_up_after_a_public_deferral_is_public_whatever_its_flags(
    fake_discord: LocalDiscord,
) -> None:
    async with running_client(tiny_bot()):
        think = await fake_discord.slash(fake_discord.user("alice"), "think")
        await think.wait_answered()
        await fake_discord.wait_for(lambda: len(think.requests) == 3, what="two follow-ups")
    deferral, first, second = think.requests
    assert first.message_id == deferral.interaction.original_message_id  # type: ignore[union-attr]
    assert first.is_public and fake_discord.message(first.message_id)["content"] == "first"
    assert second.ephemeral and second.message_id != first.message_id


async def test_threads_are_created_and_messages_deleted_as_discord_does(
    fake_discord: LocalDiscord,
) -> None:
    bot = tiny_bot()
    async with running_client(bot):
        guild = bot.get_guild(fake_discord.guild_id)
        assert guild is not None
        channel = guild.get_channel(fake_discord.channel_id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name="table 1", type=discord.ChannelType.public_thread)
        assert fake_discord.channels[thread.id]["parent_id"] == str(channel.id)
        message = await thread.send("in the thread")
        assert fake_discord.message(message.id)["channel_id"] == str(thread.id)
        await message.delete()
        assert message.id not in fake_discord.messages


async def test_unknown_routes_are_recorded_and_answered_404(fake_discord: LocalDiscord) -> None:
    bot = tiny_bot()
    async with running_client(bot):
        guild = bot.get_guild(fake_discord.guild_id)
        assert guild is not None
        try:
            await guild.fetch_roles()
        except discord.NotFound:
            pass
        else:
            raise AssertionError("an unknown route must answer 404")
    assert fake_discord.unknown_routes and "/roles" in fake_discord.unknown_routes[0]
    fake_discord.unknown_routes.clear()


async def test_channel_message_edits_past_discords_limit_are_answered_429(
    fake_discord: LocalDiscord,
) -> None:
    """Five edits per five seconds in each channel (on the time source the test gives)."""
    now = [0.0]
    fake_discord.limit_channel_edits(edits=5, per=5.0, now=lambda: now[0])
    channels = (fake_discord.channel_id, fake_discord.other_channel_id)
    async with aiohttp.ClientSession(headers=fake_discord.bot_headers) as http:
        urls = []
        for channel_id in channels:
            async with http.post(
                f"{fake_discord.base_url}/channels/{channel_id}/messages", json={"content": "x"}
            ) as posted:
                message = await posted.json()
            urls.append(f"{fake_discord.base_url}/channels/{channel_id}/messages/{message['id']}")

        async def edit(url: str) -> int:
            async with http.patch(url, json={"content": "y"}) as answer:
                return answer.status

        assert [await edit(urls[0]) for _ in range(6)] == [200] * 5 + [429]
        assert await edit(urls[1]) == 200  # another channel has its own window
        now[0] = 4.9
        assert await edit(urls[0]) == 429
        now[0] = 5.0
        assert await edit(urls[0]) == 200
    assert fake_discord.refused_channel_edits == 2


async def test_a_select_choice_is_refused_outside_its_bounds_or_options(
    fake_discord: LocalDiscord,
) -> None:
    """As Discord does: between `min_values` and `max_values` options of the select, each once."""
    options = [{"label": f"card {i}", "value": f"v{i}"} for i in range(5)]
    pick = {"type": 3, "custom_id": "m", "options": options, "min_values": 2, "max_values": 3}
    one = {"type": 3, "custom_id": "s", "options": options}
    rows = [{"type": 1, "components": [pick]}, {"type": 1, "components": [one]}]
    message = fake_discord.seed_message(fake_discord.channel_id, {"components": rows})
    alice = fake_discord.user("alice")
    for custom_id, values in (
        ("m", ["v0"]),  # fewer than min_values
        ("m", ["v0", "v1", "v2", "v3"]),  # more than max_values
        ("m", ["v0", "v0"]),  # twice the same
        ("m", ["v0", "x"]),  # not an option
        ("s", ["v0", "v1"]),  # a select of one value
    ):
        with pytest.raises(ValueError):
            await fake_discord.choose(alice, int(message["id"]), custom_id, values)


# The keep-alive thread of a loaded machine runs again this long after its heartbeat was sent
# (it lost the processor meanwhile): a simulated delay, well under the gateway's round trip.
THREAD_LAG_SECONDS = 0.05


class LaggingKeepAlive(discord.gateway.KeepAliveHandler):
    """discord.py's keep-alive thread, slow to record when it sent a heartbeat; at each ACK it
    notes whether that record was made (`acks`: (heartbeats sent, sends recorded))."""

    made: ClassVar[list[LaggingKeepAlive]] = []

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.sent = 0
        self.recorded = 0
        self.acks: list[tuple[int, int]] = []
        self.acked = asyncio.Event()
        super().__init__(*args, **kwargs)
        LaggingKeepAlive.made.append(self)

    @property  # type: ignore[override]
    def _last_send(self) -> float:
        return self._sent_at

    @_last_send.setter
    def _last_send(self, when: float) -> None:
        if threading.current_thread() is self:  # the thread, after its heartbeat went out
            time.sleep(THREAD_LAG_SECONDS)
            self.recorded += 1
        self._sent_at = when

    def ack(self) -> None:
        self.acks.append((self.sent, self.recorded))
        super().ack()
        self.acked.set()


async def test_a_heartbeat_is_acknowledged_after_discord_py_recorded_sending_it(
    fake_discord: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py measures its latency from when its keep-alive thread recorded a heartbeat's
    send: an ACK read before that record made it count the whole interval ("Can't keep up,
    websocket is 41.3s behind" in the local table's console). The local gateway answers a
    network round trip later, as Discord does, so the record always comes first."""
    # beats further apart than a round trip and the lag: each ACK's heartbeat is the last sent
    monkeypatch.setattr(gateway, "HEARTBEAT_INTERVAL_MS", 500)
    monkeypatch.setattr(discord.gateway, "KeepAliveHandler", LaggingKeepAlive)
    original_send = discord.gateway.DiscordWebSocket.send_heartbeat

    async def counted(socket: discord.gateway.DiscordWebSocket, data: object) -> None:
        LaggingKeepAlive.made[-1].sent += 1
        await original_send(socket, data)

    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "send_heartbeat", counted)
    LaggingKeepAlive.made.clear()
    bot = tiny_bot()
    async with running_client(bot):
        keep_alive = LaggingKeepAlive.made[-1]
        while sum(1 for sent, _ in keep_alive.acks if sent) < 2:  # two of the thread's beats
            keep_alive.acked.clear()
            await keep_alive.acked.wait()
    late = [(sent, recorded) for sent, recorded in keep_alive.acks if recorded < sent]
    assert late == [], f"ACKs read before their heartbeat's send was recorded: {late}"


def _layout(text: str, button_id: str) -> discord.ui.LayoutView:
    """A Components V2 view: a container with a section whose button is beside its text."""
    view = discord.ui.LayoutView(timeout=None)
    section = discord.ui.Section(
        discord.ui.TextDisplay(text),
        accessory=discord.ui.Button(label="Play", custom_id=button_id),
    )
    view.add_item(discord.ui.Container(section, accent_colour=0x1565C0))
    return view


async def test_a_components_v2_message_is_sent_clicked_and_edited_as_discord_allows(
    fake_discord: LocalDiscord,
) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    clicked: asyncio.Queue[str] = asyncio.Queue()

    async def on_interaction(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(view=_layout("your cards", "mine"))
        clicked.put_nowait(str((interaction.data or {}).get("custom_id")))

    bot.add_listener(on_interaction)
    async with running_client(bot):
        channel = bot.get_partial_messageable(fake_discord.channel_id)
        message = await channel.send(view=_layout("Alice to play", "play:1"))
        stored = fake_discord.message(message.id)
        assert int(stored["flags"]) & (1 << 15) and stored["components"][0]["type"] == 17
        click = await fake_discord.click(fake_discord.user("alice"), message.id, "play:1")
        assert await asyncio.wait_for(clicked.get(), 5) == "play:1"
        answer = fake_discord.message(click.requests[-1].message_id)
        assert int(answer["flags"]) & (1 << 15) and int(answer["flags"]) & EPHEMERAL
        await message.edit(view=_layout("Bob to play", "play:2"))
        with pytest.raises(discord.HTTPException) as content_on_v2:
            await message.edit(content="plain text")
        assert content_on_v2.value.code == 50035
        route = discord.http.Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=message.channel.id,
            message_id=message.id,
        )
        with pytest.raises(discord.HTTPException) as flag_dropped:
            await bot.http.request(route, json={"flags": 0})
        assert flag_dropped.value.code == 50035
        old = await channel.send(embed=discord.Embed(title="old table"))
        with pytest.raises(discord.HTTPException):
            await old.edit(view=_layout("new table", "play:3"))  # the embed would stay
        await old.edit(embed=None, view=_layout("new table", "play:3"))
    assert fake_discord.message(old.id)["embeds"] == []
    assert int(fake_discord.message(old.id)["flags"]) & (1 << 15)
