"""Who a page's viewer is, and which Activity instance their page runs in, asked of Discord.

The page gets a code from the SDK's `authorize`; the server exchanges it at Discord's
`POST /oauth2/token` with the application's secret (never sent to the page), then asks
`GET /users/@me` with the access token who it belongs to. The SDK's `instanceId` is asked at
`GET /applications/{id}/activity-instances/{instance}` with the bot's token: the channel it
was launched in and who takes part. The base URL is Discord's API, or the local Discord's
when the bot plays locally.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp

from bot.i18n import language_of

KEPT_VIEWERS = 10_000  # access tokens remembered, the least recently used forgotten first
KEPT_INSTANCES = 10_000  # Activity instances remembered, likewise
# seconds an instance's answer is reused (pages of one launch connect together)
INSTANCE_SECONDS = 10.0
MAX_INSTANCE_ID = 100  # characters: Discord's ids are far shorter


class NotIdentified(Exception):
    """Discord did not accept the code or the token."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """A Discord user behind a page, and the language their locale asks for."""

    user_id: int
    name: str
    language: str


@dataclass(frozen=True, slots=True)
class Instance:
    """An Activity instance as Discord answers for it: where it was launched and who is in."""

    instance_id: str
    channel_id: int | None  # None: not launched in a guild's channel (a DM, a group DM)
    users: frozenset[int]


class DiscordIdentity:
    """Exchanges codes and reads users; remembers each access token's user (a page's
    connection names its token, never its user), and each instance's answer briefly."""

    def __init__(
        self,
        api_url: str,
        client_id: str,
        client_secret: str,
        bot_token: Callable[[], str | None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self.bot_token = bot_token  # read at each question (the bot's, once it logged in)
        self.clock = clock
        self._viewers: OrderedDict[str, Viewer] = OrderedDict()
        self._instances: OrderedDict[str, tuple[float, Instance | None]] = OrderedDict()
        # (instance, user) -> when Discord was last asked about that instance for that user
        self._asked: OrderedDict[tuple[str, int], float] = OrderedDict()

    async def exchange(self, session: aiohttp.ClientSession, code: str) -> tuple[str, Viewer]:
        """The access token for an authorize code, and its user."""
        form = {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with session.post(f"{self.api_url}/oauth2/token", data=form) as answer:
            body: Any = await answer.json(content_type=None)
        if answer.status != 200 or not isinstance(body, dict) or "access_token" not in body:
            raise NotIdentified("the code was refused")
        token = str(body["access_token"])
        return token, await self.viewer(session, token)

    async def viewer(self, session: aiohttp.ClientSession, token: str) -> Viewer:
        """The user an access token belongs to (asked once, then remembered)."""
        known = self._viewers.get(token)
        if known is not None:
            self._viewers.move_to_end(token)
            return known
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(f"{self.api_url}/users/@me", headers=headers) as answer:
            body: Any = await answer.json(content_type=None)
        if answer.status != 200 or not isinstance(body, dict) or "id" not in body:
            raise NotIdentified("the token was refused")
        name = str(body.get("global_name") or body.get("username") or "")
        viewer = Viewer(int(body["id"]), name, language_of(body.get("locale")))
        self._viewers[token] = viewer
        if len(self._viewers) > KEPT_VIEWERS:
            self._viewers.popitem(last=False)
        return viewer

    async def instance(
        self, session: aiohttp.ClientSession, instance_id: str, user_id: int
    ) -> Instance | None:
        """The Activity instance Discord knows by this id (None: it knows none), asked with
        the bot's token. An answer is reused for `INSTANCE_SECONDS`, unless it lacks this user
        (who may have just joined): then Discord is asked again, once a while per user."""
        if not instance_id or len(instance_id) > MAX_INSTANCE_ID:
            return None
        now = self.clock()
        kept = self._instances.get(instance_id)
        if kept is not None and now - kept[0] < INSTANCE_SECONDS:
            found = kept[1]
            asked = self._asked.get((instance_id, user_id))
            if found is None or user_id in found.users:
                return found
            if asked is not None and now - asked < INSTANCE_SECONDS:
                return found
        self._asked[(instance_id, user_id)] = now
        self._asked.move_to_end((instance_id, user_id))
        if len(self._asked) > KEPT_INSTANCES:
            self._asked.popitem(last=False)
        return await self._asked_now(session, instance_id, now)

    async def current(self, session: aiohttp.ClientSession, instance_id: str) -> Instance | None:
        """The instance as Discord answered for it less than `INSTANCE_SECONDS` ago: the
        answer kept, or Discord asked now (an open page's re-check, whoever its user)."""
        if not instance_id or len(instance_id) > MAX_INSTANCE_ID:
            return None
        now = self.clock()
        kept = self._instances.get(instance_id)
        if kept is not None and now - kept[0] < INSTANCE_SECONDS:
            return kept[1]
        return await self._asked_now(session, instance_id, now)

    async def _asked_now(
        self, session: aiohttp.ClientSession, instance_id: str, now: float
    ) -> Instance | None:
        found = await self._ask_instance(session, instance_id)
        self._instances[instance_id] = (now, found)
        self._instances.move_to_end(instance_id)
        if len(self._instances) > KEPT_INSTANCES:
            self._instances.popitem(last=False)
        return found

    async def _ask_instance(
        self, session: aiohttp.ClientSession, instance_id: str
    ) -> Instance | None:
        url = (
            f"{self.api_url}/applications/{quote(self.client_id, safe='')}"
            f"/activity-instances/{quote(instance_id, safe='')}"
        )
        headers = {"Authorization": f"Bot {self.bot_token() or ''}"}
        async with session.get(url, headers=headers) as answer:
            body: Any = await answer.json(content_type=None)
        if answer.status == 404:
            return None
        if answer.status != 200 or not isinstance(body, dict):
            raise NotIdentified(f"Discord did not answer for the instance ({answer.status})")
        return _instance(instance_id, body)


def _instance(instance_id: str, body: dict[str, Any]) -> Instance:
    location = body.get("location") if isinstance(body.get("location"), dict) else {}
    assert isinstance(location, dict)
    channel = location.get("channel_id")
    users = body.get("users") if isinstance(body.get("users"), list) else []
    assert isinstance(users, list)
    return Instance(
        instance_id,
        int(channel) if isinstance(channel, str | int) and str(channel).isdigit() else None,
        frozenset(int(user) for user in users if str(user).isdigit()),
    )
