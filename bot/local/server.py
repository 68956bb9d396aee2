"""A Discord-compatible server (REST + gateway) on 127.0.0.1, served by aiohttp in-process.

discord.py 2.7.1 talks to it exactly as it talks to Discord, and it refuses what Discord refuses
(payload limits, the 3-second first answer, the one-hour edit limit): `pointed_at` points
`Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY` here, the client starts, then slash commands,
button clicks and select choices arrive as INTERACTION_CREATE events (`slash`, `click`,
`choose`). Every request the client makes is recorded with its route, payload, the interaction
it answers (and so the user) and whether the resulting message is ephemeral, so who saw what is
known. Unknown routes are logged loudly, kept in `unknown_routes`, and answered 404.

It serves one guild, and more with `add_guild`; with `shard_count` above 1 its gateway shards
them as Discord does (see gateway.py), so several bot processes can each connect their shards.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import re
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import discord
import yarl
from aiohttp import web

from bot.local import payloads
from bot.local.emojis import ApplicationEmojis, EmojiRefused
from bot.local.gateway import LocalGateway, shard_of
from bot.local.guard import guard_middleware, same_secret
from bot.local.limits import message_errors
from bot.local.records import (
    BOT_PERMISSIONS,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    EPHEMERAL,
    LOADING,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    PUBLIC_THREAD,
    LocalGuild,
    LocalInteraction,
    LocalUser,
    RecordedRequest,
    iter_components,
    now_iso,
)

log = logging.getLogger("bot.local")


GUILD_MESSAGES_INTENT = 1 << 9
MESSAGE_CONTENT_INTENT = 1 << 15


_POINTED_AT: list[LocalDiscord] = []  # the servers discord.py is pointed at, newest last


class _RouteError(Exception):
    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


_Handler = Callable[..., Any]


def _emoji_call(call: Callable[..., Any], *args: Any) -> Any:
    try:
        return call(*args)
    except EmojiRefused as refused:
        raise _RouteError(refused.status, refused.message, refused.code) from None


def _refuse_invalid(data: dict[str, Any], *, creating: bool) -> None:
    errors = message_errors(data, creating=creating)
    if errors:
        log.error("LOCAL DISCORD: invalid message payload: %s", "; ".join(errors))
        raise _RouteError(400, "Invalid Form Body: " + "; ".join(errors), 50035)


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
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._rate_limit_until = 0.0
        self._rate_limit_count = 0
        self._channel_limit: tuple[int, float, Callable[[], float]] | None = None
        self.channel_edit_times: dict[int, list[float]] = {}  # channel -> its recent edits
        self.refused_channel_edits = 0
        self._post_limit: tuple[int, float, Callable[[], float]] | None = None
        self.channel_post_times: dict[int, list[float]] = {}  # channel -> its recent posts
        self.refused_channel_posts = 0
        self.rate_limit_retry_after = 0.05
        self.too_old_to_edit: set[int] = set()  # channel messages Discord no longer lets edit
        self.edit_age_limit = 3600.0  # seconds: older channel messages refuse edits (30046)
        self.answer_deadline = 3.0  # seconds Discord waits for an interaction's first answer
        self.token_lifetime = 15 * 60.0  # seconds an interaction's token may follow up or edit
        self._routes: list[tuple[str, re.Pattern[str], str, _Handler]] = []
        self._add_routes()

    def _forget(self, message: dict[str, Any]) -> None:
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
        app.router.add_route("*", "/api/v10/{tail:.*}", self._dispatch)
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

    # ------------------------------------------------------------------ REST plumbing
    def _add_routes(self) -> None:
        table: list[tuple[str, str, _Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("GET", "/applications/{app_id}/emojis", self._list_emojis),
            ("POST", "/applications/{app_id}/emojis", self._create_emoji),
            ("GET", "/applications/{app_id}/emojis/{emoji_id}", self._get_emoji),
            ("PATCH", "/applications/{app_id}/emojis/{emoji_id}", self._rename_emoji),
            ("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self._delete_emoji),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", self._no_content),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/threads", self._post_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._post_thread),
            ("PUT", "/channels/{channel_id}/thread-members/@me", self._no_content),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._no_content),
            ("PATCH", "/channels/{channel_id}", self._patch_channel),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._patch_webhook_msg),
            (
                "DELETE",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._delete_webhook_msg,
            ),
        ]
        for method, template, handler in table:
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
            self._routes.append((method, re.compile(f"^{pattern}$"), template, handler))

    def _authorized(self, request: web.Request, path: str) -> bool:
        """The bot's token, as Discord wants it on every route but an interaction's own
        (its callback and webhook, which the interaction's secret token names)."""
        if path.startswith(("/interactions/", "/webhooks/")):
            return True
        given = request.headers.get("Authorization", "")
        return given.startswith("Bot ") and same_secret(given[4:], self.bot_token)

    async def _dispatch(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        if not self._authorized(request, path):
            log.info("LOCAL DISCORD: refused %s %s without the bot's token", request.method, path)
            return self._response(401, {"message": "401: Unauthorized", "code": 0}, {})
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            for method, pattern, template, handler in self._routes:
                found = pattern.match(path)
                if found and method == request.method:
                    payload = await self._read_payload(request)
                    record = RecordedRequest(
                        request.method, f"{method} {template}", path, payload, status=200
                    )
                    try:
                        status, body, headers = await handler(record, request, **found.groupdict())
                    except _RouteError as error:
                        status, headers = error.status, {}
                        body = {"message": error.message, "code": error.code}
                    except Exception as error:  # a bug of this server: fail fast and loudly
                        log.exception("LOCAL DISCORD: %s %s crashed", method, path)
                        self.unknown_routes.append(f"{method} {path} crashed the server: {error}")
                        status, headers = 400, {}
                        body = {"message": f"the local server crashed: {error}", "code": 0}
                    record.status = status
                    self._record(record)
                    return self._response(status, body, headers)
            payload = await self._read_payload(request)
            text = f"{request.method} {path} {json.dumps(payload, default=repr)[:300]}"
            log.error("LOCAL DISCORD: unknown route %s", text)
            self.unknown_routes.append(text)
            return self._response(404, {"message": "404: Not Found (local)", "code": 0}, {})
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()
            await self._notify()

    @staticmethod
    async def _read_payload(request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            payload: dict[str, Any] = {"attachments_uploaded": []}
            async for part in reader:
                name = getattr(part, "name", None)
                if name == "payload_json":
                    payload.update(json.loads(await part.text()))  # type: ignore[union-attr]
                else:
                    filename = getattr(part, "filename", name)
                    payload["attachments_uploaded"].append(filename)
                    uploaded = bytes(await part.read())  # type: ignore[union-attr]
                    payload.setdefault("files", {})[filename] = uploaded
            return payload
        text = await request.text()
        return json.loads(text) if text else None

    @staticmethod
    def _response(status: int, body: Any, headers: dict[str, str]) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # discord.py decodes JSON only for exactly this content type (no charset).
        all_headers = {"Content-Type": "application/json", **headers}
        return web.Response(status=status, body=json.dumps(body).encode(), headers=all_headers)

    def _record(self, record: RecordedRequest) -> None:
        self.requests.append(record)
        if record.interaction is not None:
            record.interaction.requests.append(record)
        for listener in list(self.listeners):
            listener(record)

    # ------------------------------------------------------------------ messages
    def seed_message(self, channel_id: int, data: dict[str, Any]) -> dict[str, Any]:
        """A message the bot posted before this server started (a test building a restart)."""
        return self._message(channel_id, data)

    def _message(
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

    @staticmethod
    def _age(message: dict[str, Any]) -> float:
        """Seconds since the message was created."""
        created = datetime.fromisoformat(str(message["timestamp"]))
        return (datetime.now(UTC) - created).total_seconds()

    def _stored(self, message_id: int | str) -> dict[str, Any]:
        message = self.messages.get(int(message_id))
        if message is None:
            raise _RouteError(404, "Unknown Message", 10008)
        return message

    def message(self, message_id: int) -> dict[str, Any]:
        """The message as Discord holds it now (content, embeds, components, flags)."""
        return self._stored(message_id)

    def channel_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        """Non-ephemeral messages of a channel (default: the table channel), oldest first."""
        wanted = str(channel_id or self.channel_id)
        return [
            m
            for m in self.messages.values()
            if m["channel_id"] == wanted and not int(m["flags"]) & EPHEMERAL
        ]

    # ------------------------------------------------------------------ handlers
    async def _get_me(self, record: RecordedRequest, request: web.Request) -> Any:
        return 200, {**self.bot_user.user_payload(), "verified": True, "mfa_enabled": False}, {}

    async def _get_application(self, record: RecordedRequest, request: web.Request) -> Any:
        body = {
            "id": str(self.application_id),
            "name": "cardtable",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.user_payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
        }
        return 200, body, {}

    async def _get_gateway(self, record: RecordedRequest, request: web.Request) -> Any:
        body = {
            "url": str(self.gateway_url),
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }
        return 200, body, {}

    async def _put_commands(
        self, record: RecordedRequest, request: web.Request, app_id: str, guild_id: str = ""
    ) -> Any:
        stored = []
        for command in record.payload or []:
            entry = {
                "id": str(self.new_id()),
                "application_id": str(self.application_id),
                "version": str(self.new_id()),
                "type": 1,
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **command,
            }
            if guild_id:
                entry["guild_id"] = guild_id
            stored.append(entry)
        self.commands[int(guild_id) if guild_id else None] = stored
        return 200, stored, {}

    async def _get_commands(
        self, record: RecordedRequest, request: web.Request, app_id: str, guild_id: str = ""
    ) -> Any:
        return 200, self.commands.get(int(guild_id) if guild_id else None, []), {}

    # --- application emojis (bot.local.emojis keeps them and applies Discord's rules)
    async def _list_emojis(self, record: RecordedRequest, request: web.Request, app_id: str) -> Any:
        owner = self.bot_user.user_payload()
        return 200, {"items": [e.payload(owner) for e in self.emojis.by_id.values()]}, {}

    async def _create_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str
    ) -> Any:
        emoji = _emoji_call(self.emojis.create, record.payload or {})
        return 201, emoji.payload(self.bot_user.user_payload()), {}

    async def _get_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str, emoji_id: str
    ) -> Any:
        emoji = _emoji_call(self.emojis.get, emoji_id)
        return 200, emoji.payload(self.bot_user.user_payload()), {}

    async def _rename_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str, emoji_id: str
    ) -> Any:
        emoji = _emoji_call(self.emojis.rename, emoji_id, record.payload or {})
        return 200, emoji.payload(self.bot_user.user_payload()), {}

    async def _delete_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str, emoji_id: str
    ) -> Any:
        _emoji_call(self.emojis.delete, emoji_id)
        return 204, None, {}

    async def _no_content(self, record: RecordedRequest, request: web.Request, **_: str) -> Any:
        return 204, None, {}

    def _channel(self, channel_id: str) -> dict[str, Any]:
        """The channel, or Discord's 404 "Unknown Channel"."""
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _RouteError(404, "Unknown Channel", 10003)
        return channel

    async def _get_channel(
        self, record: RecordedRequest, request: web.Request, channel_id: str
    ) -> Any:
        channel = self._channel(channel_id)
        return 200, channel, {}

    async def _patch_channel(
        self, record: RecordedRequest, request: web.Request, channel_id: str
    ) -> Any:
        channel = self._channel(channel_id)
        for key, value in (record.payload or {}).items():
            if key in ("name", "archived", "locked"):
                if channel["type"] == PUBLIC_THREAD and key != "name":
                    channel["thread_metadata"][key] = value
                else:
                    channel[key] = value
        return 200, channel, {}

    async def _post_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str
    ) -> Any:
        self._channel(channel_id)
        if self._posts_limited(channel_id):
            return self._too_many_requests()
        _refuse_invalid(record.payload or {}, creating=True)
        flags = int((record.payload or {}).get("flags") or 0) & ~EPHEMERAL
        message = self._message(int(channel_id), record.payload or {}, flags=flags)
        record.message_id = int(message["id"])
        return 200, message, {}

    async def _get_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str, message_id: str
    ) -> Any:
        message = self._stored(message_id)
        if message["channel_id"] != channel_id or int(message["flags"]) & EPHEMERAL:
            raise _RouteError(404, "Unknown Message", 10008)
        return 200, message, {}

    async def _patch_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str, message_id: str
    ) -> Any:
        if self._rate_limited(channel_id):
            return self._too_many_requests()
        message = self._stored(message_id)
        if message["channel_id"] != channel_id or int(message["flags"]) & EPHEMERAL:
            raise _RouteError(404, "Unknown Message", 10008)
        if int(message_id) in self.too_old_to_edit or self._age(message) > self.edit_age_limit:
            raise _RouteError(400, "Maximum number of edits to messages older than 1 hour", 30046)
        _refuse_invalid(record.payload or {}, creating=False)
        payloads.apply_message_data(message, record.payload, self.files)
        message["edited_timestamp"] = now_iso()
        record.message_id = int(message_id)
        return 200, message, {}

    async def _delete_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str, message_id: str
    ) -> Any:
        if self._posts_limited(channel_id):
            return self._too_many_requests()
        message = self._stored(message_id)
        if message["channel_id"] != channel_id:
            raise _RouteError(404, "Unknown Message", 10008)
        self._forget(message)
        return 204, None, {}

    async def _post_thread(
        self,
        record: RecordedRequest,
        request: web.Request,
        channel_id: str,
        message_id: str | None = None,
    ) -> Any:
        self._channel(channel_id)  # the parent channel must exist
        thread_id = int(message_id) if message_id else self.new_id()  # Discord reuses the id
        payload = record.payload or {}
        guild_id = self.guild_of_channel(int(channel_id))
        thread = payloads.thread(guild_id, int(channel_id), thread_id, self.bot_user.id, payload)
        self.channels[thread_id] = thread
        record.message_id = None
        with contextlib.suppress(AssertionError):
            await self.dispatch_event("THREAD_CREATE", {**thread, "newly_created": True})
        return 201, thread, {}

    # --- rate limits on channel message edits (the table message)
    def rate_limit_table_edits(
        self, *, count: int = 0, seconds: float = 0.0, retry_after: float = 0.05
    ) -> None:
        """Answer 429 to the next `count` channel-message edits, and/or to all for `seconds`."""
        self._rate_limit_count = count
        self._rate_limit_until = time.monotonic() + seconds
        self.rate_limit_retry_after = retry_after

    def limit_channel_edits(
        self, *, edits: int = 5, per: float = 5.0, now: Callable[[], float] = time.monotonic
    ) -> None:
        """Enforce Discord's per-channel limit on message edits: past `edits` edits in any
        `per` seconds of `now` (a test's fake clock, say) in one channel, answer 429."""
        self._channel_limit = (edits, per, now)
        self.channel_edit_times.clear()

    def limit_channel_posts(
        self, *, posts: int = 5, per: float = 5.0, now: Callable[[], float] = time.monotonic
    ) -> None:
        """Enforce a per-channel limit on the bot's messages: past `posts` posts and deletes
        of channel messages in any `per` seconds of `now` in one channel, answer 429 (one count
        for both: stricter than Discord, which counts them apart)."""
        self._post_limit = (posts, per, now)
        self.channel_post_times.clear()

    def _rate_limited(self, channel_id: str) -> bool:
        if self._rate_limit_count > 0:
            self._rate_limit_count -= 1
            return True
        if time.monotonic() < self._rate_limit_until:
            return True
        if self._over(self._channel_limit, self.channel_edit_times, channel_id):
            self.refused_channel_edits += 1
            return True
        return False

    def _posts_limited(self, channel_id: str) -> bool:
        if self._over(self._post_limit, self.channel_post_times, channel_id):
            self.refused_channel_posts += 1
            return True
        return False

    def _over(
        self,
        limit: tuple[int, float, Callable[[], float]] | None,
        recent: dict[int, list[float]],
        channel_id: str,
    ) -> bool:
        """Past the limit in this channel (the request is refused); else it is counted."""
        if limit is None:
            return False
        most, per, now = limit
        times = recent.setdefault(int(channel_id), [])
        moment = now()
        while times and times[0] <= moment - per:
            times.pop(0)
        if len(times) >= most:
            self.rate_limit_retry_after = max(0.001, times[0] + per - moment)
            return True
        times.append(moment)
        return False

    def _too_many_requests(self) -> Any:
        retry = self.rate_limit_retry_after
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(retry))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry:.3f}",
            "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
            "X-RateLimit-Bucket": "local-message-edit-bucket",
            "X-RateLimit-Scope": "user",
        }
        body = {"message": "You are being rate limited.", "retry_after": retry, "global": False}
        return 429, body, headers

    # --- interactions
    def _interaction(self, token: str) -> LocalInteraction:
        interaction = self.interactions.get(token)
        if interaction is None or time.monotonic() - interaction.created_at > self.token_lifetime:
            raise _RouteError(401, "Invalid Webhook Token", 50027)
        return interaction

    async def _callback(
        self, record: RecordedRequest, request: web.Request, interaction_id: str, token: str
    ) -> Any:
        interaction = self._interaction(token)
        record.interaction = interaction
        if interaction.callback_type is not None:
            raise _RouteError(400, "Interaction has already been acknowledged.", 40060)
        late = time.monotonic() - interaction.created_at
        if late > self.answer_deadline:
            log.error(
                "LOCAL DISCORD: interaction answered after %.2f s (%s %s)",
                late,
                interaction.kind,
                interaction.describe(),
            )
            raise _RouteError(404, "Unknown interaction", 10062)
        payload = record.payload or {}
        kind = int(payload.get("type", 0))
        data = payload.get("data") or {}
        if payload.get("files"):  # a multipart answer: its files go with the message's data
            data = {**data, "files": payload["files"]}
        if kind in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
            _refuse_invalid(data, creating=kind == CALLBACK_MESSAGE)
        interaction.callback_type = kind
        flags = int(data.get("flags") or 0)
        message: dict[str, Any] | None = None
        if kind in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            loading = LOADING if kind == CALLBACK_DEFERRED_MESSAGE else 0
            message = self._message(
                interaction.channel_id,
                data if kind == CALLBACK_MESSAGE else {},
                flags=(flags & EPHEMERAL) | loading,
                interaction=interaction,
                webhook=True,
            )
            if loading:
                message["flags"] = (flags & EPHEMERAL) | LOADING
            interaction.original_message_id = int(message["id"])
            record.message_id = int(message["id"]) if kind == CALLBACK_MESSAGE else None
            record.ephemeral = bool(flags & EPHEMERAL)
        elif kind in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
            if interaction.message_id is None:
                raise _RouteError(400, "Interaction has no message to update", 50035)
            message = self._stored(interaction.message_id)
            interaction.original_message_id = interaction.message_id
            record.ephemeral = bool(int(message["flags"]) & EPHEMERAL)
            if kind == CALLBACK_UPDATE:
                payloads.apply_message_data(message, data, self.files)
                message["edited_timestamp"] = now_iso()
                record.message_id = interaction.message_id
        elif kind == CALLBACK_MODAL:
            record.ephemeral = True  # a modal is only shown to the clicker
        else:
            raise _RouteError(400, f"unknown interaction callback type {kind}", 50035)
        body: dict[str, Any] = {
            "interaction": {
                "id": interaction_id,
                "type": 2 if interaction.kind == "command" else 3,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == CALLBACK_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and int(message["flags"]) & EPHEMERAL),
            }
        }
        if message is not None and kind != CALLBACK_DEFERRED_UPDATE:
            body["resource"] = {"type": kind, "message": message}
        interaction.answered.set()
        return 200, body, {}

    async def _followup(
        self, record: RecordedRequest, request: web.Request, app_id: str, token: str
    ) -> Any:
        interaction = self._interaction(token)
        record.interaction = interaction
        if interaction.callback_type is None:
            raise _RouteError(404, "Unknown Webhook (interaction not acknowledged)", 10015)
        payload = record.payload or {}
        _refuse_invalid(payload, creating=True)
        original = self.messages.get(interaction.original_message_id or 0)
        if original is not None and int(original["flags"]) & LOADING:
            # The first follow-up after a "thinking" deferral replaces the loading message and
            # keeps ITS visibility: an ephemeral flag here cannot hide it any more.
            payloads.apply_message_data(original, {**payload, "flags": None}, self.files)
            record.message_id = int(original["id"])
            record.ephemeral = bool(int(original["flags"]) & EPHEMERAL)
            return 200, original, {}
        flags = int(payload.get("flags") or 0)
        message = self._message(
            interaction.channel_id, payload, flags=flags, interaction=interaction, webhook=True
        )
        record.message_id = int(message["id"])
        record.ephemeral = bool(flags & EPHEMERAL)
        return 200, message, {}

    def _webhook_message(
        self, record: RecordedRequest, token: str, message_id: str
    ) -> dict[str, Any]:
        """The message a webhook route names ("@original" or an id), with the request tied
        to the interaction its token belongs to."""
        interaction = self._interaction(token)
        record.interaction = interaction
        if message_id == "@original":
            if interaction.original_message_id is None:
                raise _RouteError(404, "Unknown Message", 10008)
            return self._stored(interaction.original_message_id)
        return self._stored(message_id)

    async def _get_webhook_message(
        self,
        record: RecordedRequest,
        request: web.Request,
        app_id: str,
        token: str,
        message_id: str,
    ) -> Any:
        return 200, self._webhook_message(record, token, message_id), {}

    async def _patch_webhook_msg(
        self,
        record: RecordedRequest,
        request: web.Request,
        app_id: str,
        token: str,
        message_id: str,
    ) -> Any:
        message = self._webhook_message(record, token, message_id)
        _refuse_invalid(record.payload or {}, creating=False)
        payloads.apply_message_data(message, record.payload, self.files)
        message["edited_timestamp"] = now_iso()
        record.message_id = int(message["id"])
        record.ephemeral = bool(int(message["flags"]) & EPHEMERAL)
        return 200, message, {}

    async def _delete_webhook_msg(
        self,
        record: RecordedRequest,
        request: web.Request,
        app_id: str,
        token: str,
        message_id: str,
    ) -> Any:
        message = self._webhook_message(record, token, message_id)
        record.ephemeral = bool(int(message["flags"]) & EPHEMERAL)
        self._forget(message)
        return 204, None, {}

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
        message = self._stored(message_id)
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
            idle_for = time.monotonic() - max(self._last_activity, start)
            if self._in_flight == 0 and idle_for >= quiet:
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
async def running_client(client: discord.Client, *, timeout: float = 5.0) -> AsyncIterator[None]:
    """Run `client` against the server (already `pointed_at`) until the block ends; close it.
    It logs in with that server's bot token."""
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
            await asyncio.wait_for(task, timeout)
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
