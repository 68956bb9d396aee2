"""The application's routes of the local Discord.

They serve who the bot is, its application, the gateway's address, its slash commands (global
and per guild, the Activity's entry point among the global ones) and its application emojis
(bot.local.emojis keeps them and applies Discord's rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.local.emojis import EmojiRefused
from bot.local.records import RecordedRequest
from bot.local.rest import Route, RouteError

if TYPE_CHECKING:
    from bot.local.server import LocalDiscord


class ApplicationRoutes:
    """`/users/@me`, `/oauth2/applications/@me`, `/gateway`, `/applications/…` over the
    server's application, commands and emojis."""

    def __init__(self, server: LocalDiscord) -> None:
        self._server = server

    def routes(self) -> list[Route]:
        return [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("POST", "/applications/{app_id}/commands", self._upsert_command),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("GET", "/applications/{app_id}/emojis", self._list_emojis),
            ("POST", "/applications/{app_id}/emojis", self._create_emoji),
            ("GET", "/applications/{app_id}/emojis/{emoji_id}", self._get_emoji),
            ("PATCH", "/applications/{app_id}/emojis/{emoji_id}", self._rename_emoji),
            ("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self._delete_emoji),
        ]

    async def _get_me(self, record: RecordedRequest, request: web.Request) -> Any:
        user = self._server.oauth.me(request)  # an Activity's user, by their access token
        if user is not None:
            return 200, user, {}
        me = self._server.bot_user.user_payload()
        return 200, {**me, "verified": True, "mfa_enabled": False}, {}

    async def _get_application(self, record: RecordedRequest, request: web.Request) -> Any:
        body = {
            "id": str(self._server.application_id),
            "name": "cardtable",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self._server.owner.user_payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
        }
        return 200, body, {}

    async def _get_gateway(self, record: RecordedRequest, request: web.Request) -> Any:
        body = {
            "url": str(self._server.gateway_url),
            "shards": self._server.shard_count,
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
        server = self._server
        commands = list(record.payload or [])
        _check_entry_points(commands, guild=bool(guild_id))
        stored = []
        for command in commands:
            entry = {
                "id": str(server.new_id()),
                "application_id": str(server.application_id),
                "version": str(server.new_id()),
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
        server.commands[int(guild_id) if guild_id else None] = stored
        return 200, stored, {}

    async def _upsert_command(
        self, record: RecordedRequest, request: web.Request, app_id: str
    ) -> Any:
        """One global command created, or replaced when one of its name and type exists."""
        command = dict(record.payload or {})
        kept = [
            c
            for c in self._server.commands.get(None, [])
            if (c["name"], c.get("type", 1)) != (command.get("name"), command.get("type", 1))
        ]
        _check_entry_points([*kept, command], guild=False)
        server = self._server
        entry = {
            "id": str(server.new_id()),
            "application_id": str(server.application_id),
            "version": str(server.new_id()),
            "type": 1,
            "options": [],
            **command,
        }
        server.commands[None] = [*kept, entry]
        return 201, entry, {}

    async def _get_commands(
        self, record: RecordedRequest, request: web.Request, app_id: str, guild_id: str = ""
    ) -> Any:
        return 200, self._server.commands.get(int(guild_id) if guild_id else None, []), {}

    async def _list_emojis(self, record: RecordedRequest, request: web.Request, app_id: str) -> Any:
        owner = self._server.bot_user.user_payload()
        return 200, {"items": [e.payload(owner) for e in self._server.emojis.by_id.values()]}, {}

    async def _create_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str
    ) -> Any:
        emoji = _emoji_call(self._server.emojis.create, record.payload or {})
        return 201, emoji.payload(self._server.bot_user.user_payload()), {}

    async def _get_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str, emoji_id: str
    ) -> Any:
        emoji = _emoji_call(self._server.emojis.get, emoji_id)
        return 200, emoji.payload(self._server.bot_user.user_payload()), {}

    async def _rename_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str, emoji_id: str
    ) -> Any:
        emoji = _emoji_call(self._server.emojis.rename, emoji_id, record.payload or {})
        return 200, emoji.payload(self._server.bot_user.user_payload()), {}

    async def _delete_emoji(
        self, record: RecordedRequest, request: web.Request, app_id: str, emoji_id: str
    ) -> Any:
        _emoji_call(self._server.emojis.delete, emoji_id)
        return 204, None, {}


ENTRY_POINT = 4  # an Activity's entry point command (PRIMARY_ENTRY_POINT)


def _check_entry_points(commands: list[dict[str, Any]], *, guild: bool) -> None:
    """Discord's rules: an entry point is a global command, one at most, with a handler."""
    points = [c for c in commands if c.get("type") == ENTRY_POINT]
    if points and guild:
        raise RouteError(400, "Invalid Form Body: an entry point command is global only", 50035)
    if len(points) > 1:
        raise RouteError(400, "Invalid Form Body: one entry point command at most", 50035)
    if any(c.get("handler") not in (1, 2) for c in points):
        raise RouteError(400, "Invalid Form Body: an entry point command needs its handler", 50035)


def _emoji_call(call: Callable[..., Any], *args: Any) -> Any:
    try:
        return call(*args)
    except EmojiRefused as refused:
        raise RouteError(refused.status, refused.message, refused.code) from None
