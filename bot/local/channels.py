"""The channels' routes of the local Discord.

They serve channels and threads, the bot's messages in them (posted, read, edited within
Discord's rules, deleted), and the rate limits a test asks for (`ChannelLimits`: 429s on demand,
Discord's per-channel limits on edits and on posts)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.local import payloads
from bot.local.records import EPHEMERAL, PUBLIC_THREAD, RecordedRequest, now_iso
from bot.local.rest import Route, RouteError, no_content, refuse_invalid

if TYPE_CHECKING:
    from bot.local.server import LocalDiscord

Limit = tuple[int, float, Callable[[], float]]  # at most, per seconds, of this clock


class ChannelLimits:
    """Which channel-message requests get a 429, and Discord's headers for it."""

    def __init__(self) -> None:
        self._rate_limit_until = 0.0
        self._rate_limit_count = 0
        self._channel_limit: Limit | None = None
        self.channel_edit_times: dict[int, list[float]] = {}  # channel -> its recent edits
        self.refused_channel_edits = 0
        self._post_limit: Limit | None = None
        self.channel_post_times: dict[int, list[float]] = {}  # channel -> its recent posts
        self.refused_channel_posts = 0
        self.rate_limit_retry_after = 0.05

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

    def edits_limited(self, channel_id: str) -> bool:
        """This edit of a channel message is refused (else it is counted)."""
        if self._rate_limit_count > 0:
            self._rate_limit_count -= 1
            return True
        if time.monotonic() < self._rate_limit_until:
            return True
        if self._over(self._channel_limit, self.channel_edit_times, channel_id):
            self.refused_channel_edits += 1
            return True
        return False

    def posts_limited(self, channel_id: str) -> bool:
        """This post or delete of a channel message is refused (else it is counted)."""
        if self._over(self._post_limit, self.channel_post_times, channel_id):
            self.refused_channel_posts += 1
            return True
        return False

    def _over(self, limit: Limit | None, recent: dict[int, list[float]], channel_id: str) -> bool:
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

    def too_many_requests(self) -> Any:
        """Discord's 429 answer, with its rate-limit headers."""
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


class ChannelRoutes:
    """`/channels/…` over the server's channels and messages, refused as Discord refuses."""

    def __init__(self, server: LocalDiscord, limits: ChannelLimits) -> None:
        self._server = server
        self._limits = limits

    def routes(self) -> list[Route]:
        return [
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", no_content),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/threads", self._post_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._post_thread),
            ("PUT", "/channels/{channel_id}/thread-members/@me", no_content),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", no_content),
            ("PATCH", "/channels/{channel_id}", self._patch_channel),
        ]

    def _channel(self, channel_id: str) -> dict[str, Any]:
        """The channel, or Discord's 404 "Unknown Channel"."""
        channel = self._server.channels.get(int(channel_id))
        if channel is None:
            raise RouteError(404, "Unknown Channel", 10003)
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
        if self._limits.posts_limited(channel_id):
            return self._limits.too_many_requests()
        refuse_invalid(record.payload or {}, creating=True)
        flags = int((record.payload or {}).get("flags") or 0) & ~EPHEMERAL
        message = self._server.new_message(int(channel_id), record.payload or {}, flags=flags)
        record.message_id = int(message["id"])
        return 200, message, {}

    async def _get_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str, message_id: str
    ) -> Any:
        message = self._server.stored(message_id)
        if message["channel_id"] != channel_id or int(message["flags"]) & EPHEMERAL:
            raise RouteError(404, "Unknown Message", 10008)
        return 200, message, {}

    async def _patch_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str, message_id: str
    ) -> Any:
        server = self._server
        if self._limits.edits_limited(channel_id):
            return self._limits.too_many_requests()
        message = server.stored(message_id)
        if message["channel_id"] != channel_id or int(message["flags"]) & EPHEMERAL:
            raise RouteError(404, "Unknown Message", 10008)
        if int(message_id) in server.too_old_to_edit or _age(message) > server.edit_age_limit:
            raise RouteError(400, "Maximum number of edits to messages older than 1 hour", 30046)
        refuse_invalid(record.payload or {}, creating=False, stored=message)
        payloads.apply_message_data(message, record.payload, server.files)
        message["edited_timestamp"] = now_iso()
        record.message_id = int(message_id)
        return 200, message, {}

    async def _delete_message(
        self, record: RecordedRequest, request: web.Request, channel_id: str, message_id: str
    ) -> Any:
        if self._limits.posts_limited(channel_id):
            return self._limits.too_many_requests()
        message = self._server.stored(message_id)
        if message["channel_id"] != channel_id:
            raise RouteError(404, "Unknown Message", 10008)
        self._server.forget(message)
        return 204, None, {}

    async def _post_thread(
        self,
        record: RecordedRequest,
        request: web.Request,
        channel_id: str,
        message_id: str | None = None,
    ) -> Any:
        server = self._server
        self._channel(channel_id)  # the parent channel must exist
        thread_id = int(message_id) if message_id else server.new_id()  # Discord reuses the id
        payload = record.payload or {}
        guild_id = server.guild_of_channel(int(channel_id))
        thread = payloads.thread(guild_id, int(channel_id), thread_id, server.bot_user.id, payload)
        server.channels[thread_id] = thread
        record.message_id = None
        with contextlib.suppress(AssertionError):
            await server.dispatch_event("THREAD_CREATE", {**thread, "newly_created": True})
        return 201, thread, {}


def _age(message: dict[str, Any]) -> float:
    """Seconds since the message was created."""
    created = datetime.fromisoformat(str(message["timestamp"]))
    return (datetime.now(UTC) - created).total_seconds()
