"""The local table's web page and its small API, served next to the local Discord.

The page is a Discord-like client for four people on one machine (`?user=1` … `?user=4`). What
it may show is decided here, once: a channel's messages as Discord holds them, minus every
ephemeral message that belongs to someone else (it is never sent to that page). Only a browser
that opened the address printed at start (with the run's secret, then kept as a cookie) is
served the page and its API (bot/local/guard.py). A slash
command, a button click or a select choice from the page becomes an INTERACTION_CREATE for the
bot, exactly as Discord would send it; a websocket tells the pages when something changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

from aiohttp import web
from aiohttp.helpers import content_disposition_header
from pydantic import BaseModel, Field, ValidationError

from bot.local.guard import KEY_PARAMETER, NO_KEY, PageKey, refusal
from bot.local.payloads import BOOLEAN, INTEGER, NUMBER, USER
from bot.local.records import EPHEMERAL, LOADING, PUBLIC_THREAD, LocalInteraction, LocalUser
from bot.local.server import LocalDiscord

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
LOCALES = ("en-US", "fr")
BROADCAST_DELAY = 0.03  # seconds: one "changed" per burst of requests
RECENT_MESSAGES = 100  # a channel shows its latest messages, as Discord loads the latest first
TEXT_FILES = (".txt", ".hand")  # files the bot sends as UTF-8 text (hand records)

_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class CommandAsked(BaseModel):
    user: int
    type: Literal["command"]
    channel_id: int
    name: str = Field(min_length=1, max_length=100)  # "<game> start": command [group] subcommand
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)


class ComponentUsed(BaseModel):
    user: int
    type: Literal["component"]
    message_id: int
    custom_id: str = Field(min_length=1, max_length=100)
    values: list[str] | None = None  # a select's chosen values; None for a button


class MessageWritten(BaseModel):
    user: int
    channel_id: int
    content: str = Field(min_length=1, max_length=2000)  # Discord's limit for a user, too


class LocaleChosen(BaseModel):
    locale: Literal["en-US", "fr"]


class PageError(Exception):
    """A request the page should not have made: answered with one sentence and a status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def visible_to(message: dict[str, Any], user: LocalUser) -> bool:
    """Public messages are seen by everyone; an ephemeral one only by the user it answers."""
    if not int(message.get("flags") or 0) & EPHEMERAL:
        return True
    owner = (message.get("interaction_metadata") or {}).get("user") or {}
    return owner.get("id") == str(user.id)


class LocalPage:
    def __init__(
        self,
        server: LocalDiscord,
        locales: dict[str, str],
        *,
        on_change: Callable[[], None] = lambda: None,
        activity_url: str | None = None,
    ) -> None:
        self._server = server
        # the bot's Activity server (None: not served): "Open the table" shows it in a frame
        self.activity_url = activity_url
        self._locales = locales
        self._on_change = on_change
        self._sockets: set[web.WebSocketResponse] = set()
        self._pending: asyncio.TimerHandle | None = None
        self.key = PageKey()  # this run's secret: in the printed address, then a cookie
        server.listeners.append(self._request_seen)

    def entry_url(self, query: str = "") -> str:
        """The address to open (printed at start): it carries the run's secret."""
        return self.key.entry_url(self._server.port, query)

    def _keyed(self, handler: _Handler) -> _Handler:
        """`handler`, for the browser holding this run's cookie only."""

        async def checked(request: web.Request) -> web.StreamResponse:
            if not self.key.admits(request):
                return refusal(403, NO_KEY)
            return await handler(request)

        return checked

    # ------------------------------------------------------------------ wiring
    def install(self, app: web.Application) -> None:
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC, append_version=False)
        app.router.add_get("/page/state", self._keyed(self._state))
        app.router.add_get("/page/channels/{channel_id}/messages", self._keyed(self._messages))
        app.router.add_post("/page/interactions", self._keyed(self._interact))
        app.router.add_post("/page/messages", self._keyed(self._write))
        app.router.add_post("/page/activity/code", self._keyed(self._activity_code))
        app.router.add_post("/page/activity/leave", self._keyed(self._activity_leave))
        app.router.add_post("/page/users/{number}/locale", self._keyed(self._set_locale))
        app.router.add_get("/page/events", self._keyed(self._events))
        app.router.add_get("/emojis/{emoji_id:[0-9]+}.{extension:png|jpg|gif}", self._emoji)
        app.router.add_get(
            "/attachments/{message_id:[0-9]+}/{digest}/{filename}", self._keyed(self._file)
        )

    @property
    def page_users(self) -> list[LocalUser]:
        return list(self._server.users.values())

    def _user(self, number: object) -> LocalUser:
        users = self.page_users
        try:
            index = int(str(number)) - 1
        except ValueError:
            index = -1
        if not 0 <= index < len(users):
            raise PageError(404, f"There is no user {number}: choose 1 to {len(users)}.")
        return users[index]

    def locale_of(self, user: LocalUser) -> str:
        return self._locales.get(user.name, "en-US")

    # ------------------------------------------------------------------ changes
    def _request_seen(self, record: Any) -> None:
        if record.method != "GET":
            self.changed()

    def changed(self) -> None:
        self._on_change()
        if self._pending is None:
            loop = asyncio.get_running_loop()
            self._pending = loop.call_later(BROADCAST_DELAY, self._broadcast)

    def _broadcast(self) -> None:
        self._pending = None
        for socket in list(self._sockets):
            if socket.closed:
                self._sockets.discard(socket)
                continue
            task = asyncio.ensure_future(socket.send_json({"type": "changed"}))
            task.add_done_callback(lambda done: done.exception())  # a closing page is fine

    async def close(self) -> None:
        for socket in list(self._sockets):
            with contextlib.suppress(Exception):
                await socket.close()

    # ------------------------------------------------------------------ handlers
    async def _index(self, request: web.Request) -> web.StreamResponse:
        """With the run's secret in the address: keep it as a cookie and show the address
        without it; with the cookie: the page; else one sentence saying what to open."""
        if self.key.given_in_url(request):
            kept = {k: v for k, v in request.query.items() if k != KEY_PARAMETER}
            rest = request.rel_url.with_query(kept)
            headers = {"Location": str(rest), "Cache-Control": "no-store"}
            moved = web.Response(status=302, headers=headers)
            self.key.set_cookie(moved)
            return moved
        if not self.key.admits(request):
            return web.Response(status=403, text=NO_KEY, headers={"Cache-Control": "no-store"})
        headers = {"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"}
        return web.FileResponse(STATIC / "index.html", headers=headers)

    async def _emoji(self, request: web.Request) -> web.Response:
        emoji = self._server.emojis.by_id.get(int(request.match_info["emoji_id"]))
        if emoji is None:
            return _error(404, "This emoji does not exist.")
        headers = {"Cache-Control": "max-age=86400"}  # an emoji's picture never changes
        return web.Response(body=emoji.image, content_type=emoji.content_type, headers=headers)

    async def _file(self, request: web.Request) -> web.Response:
        """A file a message carries (the round-end picture, a hand record), to the users who see
        the message; a file that is no picture is downloaded under its name."""
        info = request.match_info
        message = self._server.messages.get(int(info["message_id"]))
        content = self._server.files.get(request.path)
        try:
            me = self._user(request.query.get("user", "1"))
        except PageError as error:
            return _error(error.status, error.message)
        if message is None or content is None or not visible_to(message, me):
            return _error(404, "This file does not exist.")
        filename = info["filename"]
        headers = {"Cache-Control": "private, max-age=86400"}  # its address names its content
        if filename.endswith(".png"):
            kind, charset = "image/png", None
        else:
            kind = "text/plain" if filename.endswith(TEXT_FILES) else "application/octet-stream"
            charset = "utf-8" if kind == "text/plain" else None
            saved = content_disposition_header("attachment", filename=filename)
            headers["Content-Disposition"] = saved
            headers["X-Content-Type-Options"] = "nosniff"
        return web.Response(body=content, content_type=kind, charset=charset, headers=headers)

    async def _state(self, request: web.Request) -> web.Response:
        return await _answer(lambda: self._state_body(request.query.get("user", "1")))

    def _state_body(self, number: str) -> dict[str, Any]:
        me = self._user(number)
        server = self._server
        channels = [
            {
                "id": str(channel_id),
                "name": channel.get("name"),
                "thread": channel.get("type") == PUBLIC_THREAD,
                "parent_id": channel.get("parent_id"),
                "position": channel.get("position", 0),
            }
            for channel_id, channel in server.channels.items()
        ]
        commands = [*server.commands.get(server.guild_id, []), *server.commands.get(None, [])]
        return {
            "me": self._user_body(me),
            "users": [self._user_body(user) for user in self.page_users],
            "bot": server.bot_user.user_payload(),
            "guild": {"id": str(server.guild_id), "name": server.guild_payload()["name"]},
            "default_channel_id": str(server.channel_id),
            "channels": channels,
            "commands": commands,
            "locales": list(LOCALES),
            "connected": server.gateway.connected,
        }

    def _user_body(self, user: LocalUser) -> dict[str, Any]:
        number = self.page_users.index(user) + 1
        return {**user.user_payload(), "number": number, "locale": self.locale_of(user)}

    async def _messages(self, request: web.Request) -> web.Response:
        def body() -> list[dict[str, Any]]:
            me = self._user(request.query.get("user", "1"))
            channel_id = request.match_info["channel_id"]
            shown = [
                {**message, "loading": bool(int(message["flags"]) & LOADING)}
                for message in self._server.messages.values()
                if message["channel_id"] == channel_id and visible_to(message, me)
            ]
            return shown[-RECENT_MESSAGES:]

        return await _answer(body)

    async def _set_locale(self, request: web.Request) -> web.Response:
        try:
            chosen = LocaleChosen.model_validate(await request.json())
        except (ValidationError, ValueError):
            return _error(400, "Choose a language: en-US or fr.")

        def body() -> dict[str, Any]:
            user = self._user(request.match_info["number"])
            self._locales[user.name] = chosen.locale
            self._server.oauth.locales[user.id] = chosen.locale  # the Activity speaks it too
            self.changed()
            return self._user_body(user)

        return await _answer(body)

    async def _interact(self, request: web.Request) -> web.Response:
        try:
            raw = await request.json()
            asked: CommandAsked | ComponentUsed
            if isinstance(raw, dict) and raw.get("type") == "command":
                asked = CommandAsked.model_validate(raw)
            else:
                asked = ComponentUsed.model_validate(raw)
        except (ValidationError, ValueError):
            return _error(400, "This request is not an interaction the page can send.")
        try:
            interaction = await self._send(asked)
        except PageError as error:
            return _error(error.status, error.message)
        try:
            await interaction.wait_answered(self._server.answer_deadline + 0.5)
        except AssertionError:
            return web.json_response({"answered": False, "error": "This interaction failed"})
        if interaction.launched_activity and self.activity_url:
            # Discord would open the Activity beside the channel: the page opens it in a frame,
            # in the instance the launch started or joined (which its SDK would tell it)
            activity = {
                "url": self.activity_url,
                "instance": interaction.activity_instance_id,
                "channel": str(interaction.channel_id),
            }
            return web.json_response({"answered": True, "activity": activity})
        return web.json_response({"answered": True})

    async def _activity_code(self, request: web.Request) -> web.Response:
        """What the SDK's `authorize` gives the Activity inside Discord: a code for this user,
        which the Activity's server exchanges with the (local) Discord."""
        try:
            body = await request.json()
            user = self._user(body.get("user") if isinstance(body, dict) else None)
        except (ValueError, PageError):
            return _error(400, "No such user.")
        return web.json_response({"code": self._server.oauth.authorize(user)})

    async def _activity_leave(self, request: web.Request) -> web.Response:
        """The user closed the Activity's frame: they leave its instance, as in Discord."""
        try:
            body = await request.json()
            user = self._user(body.get("user") if isinstance(body, dict) else None)
            instance = str(body.get("instance") or "")
        except (ValueError, PageError):
            return _error(400, "No such user.")
        left = self._server.activities.leave(user, instance_id=instance)
        return web.json_response({"left": left is not None})

    async def _write(self, request: web.Request) -> web.Response:
        """A user's own message in a channel (the bot hears it when it mentions the bot)."""
        try:
            written = MessageWritten.model_validate(await request.json())
        except (ValidationError, ValueError):
            return _error(400, "A message has 1 to 2000 characters.")
        try:
            user = self._user(written.user)
            if written.channel_id not in self._server.channels:
                raise PageError(404, "This channel does not exist.")
            if not self._server.gateway.connected:
                raise PageError(503, "The bot is not connected yet: try again in a moment.")
        except PageError as error:
            return _error(error.status, error.message)
        message = await self._server.say(user, written.content, channel_id=written.channel_id)
        self.changed()
        return web.json_response({"id": message["id"]})

    async def _send(self, asked: CommandAsked | ComponentUsed) -> LocalInteraction:
        server = self._server
        user = self._user(asked.user)
        locale = self.locale_of(user)
        if not server.gateway.connected:
            raise PageError(503, "The bot is not connected yet: try again in a moment.")
        if isinstance(asked, CommandAsked):
            if asked.channel_id not in server.channels:
                raise PageError(404, "This channel does not exist.")
            options = self._command_options(asked)
            return await server.slash(
                user, asked.name, locale=locale, channel_id=asked.channel_id, **options
            )
        message = server.messages.get(asked.message_id)
        if message is None or not visible_to(message, user):
            raise PageError(404, "This message no longer exists.")
        try:
            if asked.values is None:
                return await server.click(user, asked.message_id, asked.custom_id, locale=locale)
            return await server.choose(
                user, asked.message_id, asked.custom_id, asked.values, locale=locale
            )
        except AssertionError:
            raise PageError(409, "This component is no longer on the message.") from None
        except ValueError as error:
            raise PageError(400, f"{error}.") from None

    def _command_options(self, asked: CommandAsked) -> dict[str, Any]:
        """The page sends option values as typed; Discord sends them with the synced types."""
        definition = self._definition(asked.name)
        if definition is None:
            raise PageError(404, f"The bot has no command /{asked.name}.")
        by_name = {str(o.get("name")): o for o in definition.get("options") or []}
        options: dict[str, Any] = {}
        for name, value in asked.options.items():
            option = by_name.get(name)
            if option is None:
                raise PageError(400, f"/{asked.name} has no option {name}.")
            options[name] = self._typed(int(option.get("type", 3)), value, name)
        return options

    def _definition(self, path: str) -> dict[str, Any] | None:
        """The synced definition of a command, a subcommand group or a subcommand."""
        names = path.split()
        server = self._server
        level = [*server.commands.get(server.guild_id, []), *server.commands.get(None, [])]
        found: dict[str, Any] | None = None
        for name in names:
            found = next((c for c in level if c.get("name") == name), None)
            if found is None:
                return None
            level = found.get("options") or []
        return found

    def _typed(self, kind: int, value: str | int | float | bool, name: str) -> Any:
        try:
            if kind == INTEGER:
                return int(value)
            if kind == NUMBER:
                return float(value)
            if kind == BOOLEAN:
                return value if isinstance(value, bool) else str(value).lower() == "true"
            if kind == USER:
                return next(m for m in self._server.all_members() if str(m.id) == str(value))
        except (ValueError, StopIteration):
            raise PageError(400, f"The value of {name} is not valid.") from None
        return str(value)

    async def _events(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=20)
        try:
            await socket.prepare(request)
        except ConnectionResetError:
            return socket  # the page went (a reload, a closed tab) before its socket opened
        self._sockets.add(socket)
        try:
            await socket.send_json({"type": "hello"})
            async for _ in socket:  # the page only listens; this keeps the socket open
                pass
        except ConnectionResetError:
            pass  # the page went while it was greeted: nothing to tell it
        finally:
            self._sockets.discard(socket)
        return socket


async def _answer(body: Callable[[], Any]) -> web.Response:
    try:
        return web.json_response(body())
    except PageError as error:
        return _error(error.status, error.message)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
