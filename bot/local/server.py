"""A Discord-compatible server (REST + gateway) on 127.0.0.1, served by aiohttp in-process.

discord.py 2.7.1 talks to it exactly as it talks to Discord, and it refuses what Discord refuses
(payload limits, the 3-second first answer, the one-hour edit limit): `pointed_at` points
`Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY` here, the client starts, then slash commands,
button clicks and select choices arrive as INTERACTION_CREATE events (`slash`, `click`,
`choose`). Every request the client makes is recorded with its route, payload, the interaction
it answers (and so the user) and whether the resulting message is ephemeral, so who saw what is
known. Unknown routes are logged loudly, kept in `unknown_routes`, and answered 404.

`LocalDiscord` holds Discord's state (guilds, channels, messages, interactions, commands) and
the person's side (`slash`, `click`, `choose`, `say`); the REST API's parts, each serving its
routes over that state, are listed in bot/local/README.md.

It serves one guild, and more with `add_guild`; with `shard_count` above 1 its gateway shards
them as Discord does (see gateway.py), so several bot processes can each connect their shards.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import discord
import yarl
from aiohttp import web

from bot.local import payloads
from bot.local.activities import LocalActivities
from bot.local.application import ApplicationRoutes
from bot.local.channels import ChannelLimits, ChannelRoutes
from bot.local.emojis import ApplicationEmojis
from bot.local.gateway import LocalGateway, shard_of
from bot.local.guard import guard_middleware, same_secret
from bot.local.interactions import InteractionRoutes
from bot.local.oauth import LocalOAuth
from bot.local.records import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    LocalGuild,
    LocalInteraction,
    LocalUser,
    RecordedRequest,
    iter_components,
)
from bot.local.rest import RestApi, RouteError

log = logging.getLogger("bot.local")


GUILD_MESSAGES_INTENT = 1 << 9
MESSAGE_CONTENT_INTENT = 1 << 15
# How long a client may take to be ready: only a failure shows past it, and a loaded machine
# (the Activity's process importing beside the tests) has taken more than 5 s.
READY_SECONDS = 60.0
CLOSE_SECONDS = 5.0  # how long its close is awaited before its task is cancelled


_POINTED_AT: list[LocalDiscord] = []  # the servers discord.py is pointed at, newest last


class LocalDiscord:
    """The server, Discord's state as the client has shaped it, and the injection helpers."""

    def __init__(
        self,
        *,
        user_names: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
        shard_count: int = 1,
    ) -> None:
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.application_id = self.new_id()
        # The bot's token, new each run: the API routes and the gateway want it, as Discord's.
        self.bot_token = f"local-{secrets.token_urlsafe(24)}"
        self.bot_user = LocalUser(self.application_id, "cardtable", BOT_PERMISSIONS, bot=True)
        self.owner = LocalUser(self.new_id(), "owner")
        self.guild_id = self.new_id()
        self.channel_id = self.new_id()
        self.other_channel_id = self.new_id()
        self.users: dict[str, LocalUser] = {n: LocalUser(self.new_id(), n) for n in user_names}
        self.admin = LocalUser(self.new_id(), "admin", MEMBER_PERMISSIONS | MANAGE_GUILD)
        self.channels: dict[int, dict[str, Any]] = {
            self.channel_id: payloads.text_channel(self.guild_id, self.channel_id, "cards", 1),
            self.other_channel_id: payloads.text_channel(
                self.guild_id, self.other_channel_id, "general", 2
            ),
        }
        self.guilds: dict[int, LocalGuild] = {
            self.guild_id: LocalGuild(
                self.guild_id,
                "Card Club",
                self.channel_id,
                self.other_channel_id,
                list(self.users.values()),
            )
        }
        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[str, bytes] = {}  # attachments by address (`/attachments/…`)
        self.interactions: dict[str, LocalInteraction] = {}  # by token
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.emojis = ApplicationEmojis(self.new_id)
        self.listeners: list[Callable[[RecordedRequest], None]] = []  # after each request
        self.inject_listeners: list[Callable[[LocalInteraction], None]] = []  # before dispatch
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Condition()
        self.gateway = LocalGateway(
            on_identify=self._identified,
            members=lambda guild_id: [m.member_payload() for m in self.all_members(guild_id)],
            on_unknown=self.unknown_routes.append,
            on_change=self._notify,
            authentic=lambda token: same_secret(str(token).removeprefix("Bot "), self.bot_token),
        )
        self.limits = ChannelLimits()  # 429s a test asks for
        self.too_old_to_edit: set[int] = set()  # channel messages Discord no longer lets edit
        self.edit_age_limit = 3600.0  # seconds: older channel messages refuse edits (30046)
        self.answer_deadline = 3.0  # seconds Discord waits for an interaction's first answer
        self.token_lifetime = 15 * 60.0  # seconds an interaction's token may follow up or edit
        self.rest = RestApi(
            bot_token=lambda: self.bot_token,
            record=self._record,
            unknown_routes=self.unknown_routes,
            on_change=self._notify,
        )
        self.oauth = LocalOAuth(self)  # the Activity's sign-in (bot/activity/identity.py)
        self.activities = LocalActivities(self)  # its instances, launched from channels
        for part in (
            self.oauth,
            self.activities,
            ApplicationRoutes(self),
            ChannelRoutes(self, self.limits),
            InteractionRoutes(self),
        ):
            self.rest.add(part.routes())

    def forget(self, message: dict[str, Any]) -> None:
        """A deleted message, and the files it carried."""
        del self.messages[int(message["id"])]
        for attachment in message.get("attachments") or ():
            self.files.pop(str(attachment.get("url")), None)

    # ------------------------------------------------------------------ lifecycle
    def new_id(self) -> int:
        return next(self._ids)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def bot_headers(self) -> dict[str, str]:
        """What the bot sends on every API request: its token."""
        return {"Authorization": f"Bot {self.bot_token}"}

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    def continue_ids_after(self, last_id: int) -> None:
        """New ids start after `last_id` (state restored from an earlier run holds ids)."""
        upcoming = next(self._ids)
        self._ids = itertools.count(max(upcoming, last_id + 1))

    async def start(
        self, *, port: int = 0, extend: Callable[[web.Application], None] | None = None
    ) -> None:
        """Listen on 127.0.0.1 only (`port` 0: a free one, chosen by the system); `extend`
        adds routes of its own (the local table's page) to the same application. Every request
        passes the Host and Origin checks of bot/local/guard.py."""
        app = web.Application(middlewares=[guard_middleware(lambda: self.port)])
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.dispatch)
        if extend is not None:
            extend(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", port))
        self.port = listening.getsockname()[1]
        await web.SockSite(self._runner, listening).start()

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @contextlib.contextmanager
    def pointed_at(self) -> Iterator[None]:
        """discord.py's REST base and gateway point here; restored afterwards."""
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.gateway_url
        _POINTED_AT.append(self)
        try:
            yield
        finally:
            _POINTED_AT.remove(self)
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    # ------------------------------------------------------------------ guilds
    def add_guild(
        self, name: str, user_names: tuple[str, ...], *, shard: int | None = None
    ) -> LocalGuild:
        """Another guild with two text channels and these new users as members (names unique
        across guilds); `shard`: an id Discord would put on that shard of `shard_count`. Add
        guilds before the client connects (their GUILD_CREATE comes with READY)."""
        guild_id = self.new_id()
        if shard is not None:
            block = guild_id >> 22
            block += (shard - block) % self.shard_count
            guild_id = max(guild_id, block << 22)
            self.continue_ids_after(guild_id)
        users = [LocalUser(self.new_id(), user_name) for user_name in user_names]
        taken = [user.name for user in users if user.name in self.users]
        assert not taken, f"user names are unique across guilds: {taken}"
        self.users.update({user.name: user for user in users})
        guild = LocalGuild(guild_id, name, self.new_id(), self.new_id(), users)
        for channel_id, channel_name, position in (
            (guild.channel_id, "cards", 1),
            (guild.other_channel_id, "general", 2),
        ):
            channel = payloads.text_channel(guild_id, channel_id, channel_name, position)
            self.channels[channel_id] = channel
        self.guilds[guild_id] = guild
        return guild

    def shard_of(self, guild_id: int) -> int:
        return shard_of(guild_id, self.shard_count)

    def all_members(self, guild_id: int | None = None) -> list[LocalUser]:
        """The members of a guild (default: the first one)."""
        guild = self.guilds[guild_id or self.guild_id]
        return [self.bot_user, self.owner, self.admin, *guild.users]

    def guild_of_channel(self, channel_id: int) -> int:
        channel = self.channels.get(int(channel_id))
        return int(channel["guild_id"]) if channel is not None else self.guild_id

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild = self.guilds[guild_id or self.guild_id]
        channels = [c for c in self.channels.values() if int(c["guild_id"]) == guild.id]
        members = self.all_members(guild.id)
        return payloads.guild(guild.id, self.owner, members, channels, name=guild.name)

    def _identified(self, shard: tuple[int, int], sharded: bool) -> list[tuple[str, Any]]:
        session = f"session-{self.new_id()}"
        shard_id, shard_count = shard
        mine = [g for g in self.guilds if shard_of(g, shard_count) == shard_id]
        echoed = shard if sharded else None
        ready = payloads.ready(self.bot_user, mine, session, str(self.gateway_url), shard=echoed)
        return [("READY", ready), *(("GUILD_CREATE", self.guild_payload(g)) for g in mine)]

    async def dispatch_event(self, name: str, data: Any) -> None:
        """Send a gateway event to the connection of its guild's shard."""
        await self.gateway.dispatch(name, data)

    async def _notify(self) -> None:
        """Wake `wait_for`: something a test may wait on changed."""
        async with self._changed:
            self._changed.notify_all()

    # ------------------------------------------------------------------ requests
    def _record(self, record: RecordedRequest) -> None:
        self.requests.append(record)
        if record.interaction is not None:
            record.interaction.requests.append(record)
        for listener in list(self.listeners):
            listener(record)

    # ------------------------------------------------------------------ messages
    def seed_message(self, channel_id: int, data: dict[str, Any]) -> dict[str, Any]:
        """A message the bot posted before this server started (a test building a restart)."""
        return self.new_message(channel_id, data)

    def new_message(
        self,
        channel_id: int,
        data: dict[str, Any],
        *,
        flags: int = 0,
        interaction: LocalInteraction | None = None,
        webhook: bool = False,
    ) -> dict[str, Any]:
        message_id = self.new_id()
        message = payloads.message(
            message_id,
            channel_id,
            self.guild_of_channel(channel_id),
            self.bot_user,
            data,
            flags=flags,
            interaction=interaction,
            webhook=webhook,
            kept=self.files,
        )
        self.messages[message_id] = message
        return message

    def stored(self, message_id: int | str) -> dict[str, Any]:
        """The message, or Discord's 404 "Unknown Message"."""
        message = self.messages.get(int(message_id))
        if message is None:
            raise RouteError(404, "Unknown Message", 10008)
        return message

    def message(self, message_id: int) -> dict[str, Any]:
        """The message as Discord holds it now (content, embeds, components, flags)."""
        return self.stored(message_id)

    def channel_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        """Non-ephemeral messages of a channel (default: the table channel), oldest first."""
        wanted = str(channel_id or self.channel_id)
        return [
            m
            for m in self.messages.values()
            if m["channel_id"] == wanted and not int(m["flags"]) & EPHEMERAL
        ]

    # ------------------------------------------------------------------ rate limits
    def rate_limit_table_edits(
        self, *, count: int = 0, seconds: float = 0.0, retry_after: float = 0.05
    ) -> None:
        """Answer 429 to the next `count` channel-message edits, and/or to all for `seconds`."""
        self.limits.rate_limit_table_edits(count=count, seconds=seconds, retry_after=retry_after)

    def limit_channel_edits(
        self, *, edits: int = 5, per: float = 5.0, now: Callable[[], float] = time.monotonic
    ) -> None:
        """Discord's per-channel limit on message edits (see `ChannelLimits`)."""
        self.limits.limit_channel_edits(edits=edits, per=per, now=now)

    def limit_channel_posts(
        self, *, posts: int = 5, per: float = 5.0, now: Callable[[], float] = time.monotonic
    ) -> None:
        """A per-channel limit on the bot's posts and deletes (see `ChannelLimits`)."""
        self.limits.limit_channel_posts(posts=posts, per=per, now=now)

    @property
    def refused_channel_edits(self) -> int:
        return self.limits.refused_channel_edits

    @property
    def refused_channel_posts(self) -> int:
        return self.limits.refused_channel_posts

    # ------------------------------------------------------------------ injection helpers
    def user(self, name: str) -> LocalUser:
        return self.users[name]

    async def _inject(
        self,
        user: LocalUser,
        kind: str,
        data: dict[str, Any],
        *,
        channel_id: int | None = None,
        message: dict[str, Any] | None = None,
        locale: str = "en-US",
    ) -> LocalInteraction:
        channel = self.channels[channel_id or self.channel_id]
        interaction = LocalInteraction(
            id=self.new_id(),
            token=f"token-{secrets.token_urlsafe(24)}",
            user=user,
            kind=kind,
            data=data,
            channel_id=int(channel["id"]),
            message_id=int(message["id"]) if message else None,
            custom_id=data.get("custom_id"),
        )
        self.interactions[interaction.token] = interaction
        guild_id = int(channel["guild_id"])
        event = payloads.interaction_create(
            interaction, self.application_id, guild_id, channel, locale=locale, message=message
        )
        interaction.event = event
        for listener in list(self.inject_listeners):
            listener(interaction)
        await self.dispatch_event("INTERACTION_CREATE", event)
        return interaction

    async def deliver_again(self, interaction: LocalInteraction) -> None:
        """Send the same INTERACTION_CREATE once more (Discord may retry a delivery): the
        client must not answer it twice (an answer would get 40060, already acknowledged)."""
        assert interaction.event is not None
        await self.dispatch_event("INTERACTION_CREATE", interaction.event)

    async def say(
        self, user: LocalUser, content: str, *, channel_id: int | None = None
    ) -> dict[str, Any]:
        """`user` posts `content` (`<@id>` mentions someone). The bot receives it as Discord
        sends it: only with the guild-messages intent, and without the message-content intent
        the content is empty unless the message mentions the bot."""
        channel = int(channel_id or self.channel_id)
        guild_id = self.guild_of_channel(channel)
        message = payloads.message(self.new_id(), channel, guild_id, user, {"content": content})
        everyone = {u.id: u for u in self.all_members(guild_id)}
        mentioned = [int(m) for m in re.findall(r"<@!?([0-9]+)>", content)]
        message["mentions"] = [everyone[m].user_payload() for m in mentioned if m in everyone]
        self.messages[int(message["id"])] = message
        intents = self.gateway.intents_for(guild_id)
        if intents & GUILD_MESSAGES_INTENT:
            event = {**message, "member": user.member_payload()}
            if not intents & MESSAGE_CONTENT_INTENT and self.bot_user.id not in mentioned:
                event["content"] = ""
            await self.dispatch_event("MESSAGE_CREATE", event)
        return message

    def _command_definition(self, name: str, guild_id: int) -> dict[str, Any] | None:
        for scope in (guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        return None

    async def slash(
        self,
        user: LocalUser,
        command: str,
        *,
        locale: str = "en-US",
        channel_id: int | None = None,
        **options: Any,
    ) -> LocalInteraction:
        """`/leaderboard order:wins` is `slash(user, "leaderboard", order="wins")`; a subcommand
        is a second word (`slash(user, "<game> start", target=10)`). Values go as given,
        unchecked (as Discord's API does); a `LocalUser` who is not a member of the guild (one
        who left) comes with user data only, as Discord sends it."""
        names = command.split()
        guild_id = self.guild_of_channel(channel_id or self.channel_id)
        definition = self._command_definition(names[0], guild_id)
        command_id = (definition or {}).get("id", str(self.new_id()))
        members = {m.id for m in self.all_members(guild_id)}
        data = payloads.command_data(
            definition, command_id, guild_id, names, options, members=members
        )
        return await self._inject(user, "command", data, channel_id=channel_id, locale=locale)

    async def click(
        self,
        user: LocalUser,
        message_id: int,
        custom_id: str,
        *,
        locale: str = "en-US",
        forged: bool = False,
        absent: bool = False,
    ) -> LocalInteraction:
        """Click a button of a message. `forged=True` clicks an id the message does not have,
        delivered with the id added to the message (a tampered client); `absent=True`
        delivers it with the message as it is, without that id, as Discord may (a client
        showing an older version of the message: a late Join, a button since removed)."""
        message = self._component_message(message_id, custom_id, 2, forged=forged, absent=absent)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._inject(
            user,
            "button",
            data,
            channel_id=int(message["channel_id"]),
            message=message,
            locale=locale,
        )

    async def choose(
        self,
        user: LocalUser,
        message_id: int,
        custom_id: str,
        values: list[str],
        *,
        locale: str = "en-US",
        absent: bool = False,
    ) -> LocalInteraction:
        """Choose `values` in a select menu of a message (`absent`: as for `click`). As
        Discord does, the values must be options of the select, between its `min_values` and
        `max_values` (1 and 1 unless set), each once: else ValueError."""
        message = self._component_message(message_id, custom_id, 3, forged=False, absent=absent)
        for component in iter_components(message):
            if component.get("custom_id") == custom_id and component.get("type") == 3:
                _check_chosen(component, values)
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._inject(
            user,
            "select",
            data,
            channel_id=int(message["channel_id"]),
            message=message,
            locale=locale,
        )

    def _component_message(
        self,
        message_id: int,
        custom_id: str,
        component_type: int,
        *,
        forged: bool,
        absent: bool = False,
    ) -> dict[str, Any]:
        message = self.stored(message_id)
        present = any(
            c.get("custom_id") == custom_id and c.get("type") == component_type
            for c in iter_components(message)
        )
        if present or absent:
            return message
        if not forged:
            raise AssertionError(f"message {message_id} has no component {custom_id!r}")
        fake_row = {
            "type": 1,
            "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}],
        }
        return {**message, "components": [*message["components"], fake_row]}

    # ------------------------------------------------------------------ waiting
    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Wait until `predicate()` holds; re-checked after every request the client makes."""

        async def loop() -> None:
            async with self._changed:
                await self._changed.wait_for(predicate)

        try:
            await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}") from None

    async def settle(self, quiet: float = 0.1, *, timeout: float = 10.0) -> None:
        """Wait until no request is in flight and none arrived for `quiet` seconds, counted
        from this call at the earliest (so work the client is about to start is awaited)."""
        start = time.monotonic()
        deadline = start + timeout
        while time.monotonic() < deadline:
            idle_for = time.monotonic() - max(self.rest.last_activity, start)
            if self.rest.in_flight == 0 and idle_for >= quiet:
                return
            await asyncio.sleep(max(0.005, quiet - idle_for))
        raise AssertionError(f"the client kept talking for {timeout}s")


@contextlib.asynccontextmanager
async def running_local_discord(**kwargs: Any) -> AsyncIterator[LocalDiscord]:
    server = LocalDiscord(**kwargs)
    await server.start()
    try:
        with server.pointed_at():
            yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def running_client(
    client: discord.Client, *, timeout: float = READY_SECONDS
) -> AsyncIterator[None]:
    """Run `client` against the server (already `pointed_at`) until the block ends; close it.
    It logs in with that server's bot token; `timeout` bounds its start, not its close."""
    assert _POINTED_AT, "point discord.py at a LocalDiscord first (`pointed_at`)"
    client._connection.guild_ready_timeout = 0.01  # one guild: no reason to wait for more
    token = _POINTED_AT[-1].bot_token
    task = asyncio.create_task(client.start(token), name="local-discord-client")
    deadline = time.monotonic() + timeout
    while not client.is_ready():
        if task.done():
            task.result()  # raises what stopped the client
            raise AssertionError("the client stopped before it was ready")
        if time.monotonic() > deadline:
            task.cancel()
            raise AssertionError(f"the client was not ready after {timeout}s")
        await asyncio.sleep(0.01)
    try:
        yield
    finally:
        await client.close()
        try:
            await asyncio.wait_for(task, CLOSE_SECONDS)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()


def _check_chosen(select: dict[str, Any], values: list[str]) -> None:
    """Discord accepts a select's choice only within its bounds and among its options."""
    offered = {str(option.get("value")) for option in select.get("options") or []}
    least = int(select.get("min_values", 1))
    most = int(select.get("max_values", 1))
    if not least <= len(values) <= most:
        raise ValueError(f"choose {least} to {most} options, not {len(values)}")
    if len(set(values)) != len(values) or not set(values) <= offered:
        raise ValueError("choose options of the select, each once")
