"""Who a page's viewer is: the SDK's OAuth2 code exchanged with Discord for the user.

The page gets a code from the SDK's `authorize`; the server exchanges it at Discord's
`POST /oauth2/token` with the application's secret (never sent to the page), then asks
`GET /users/@me` with the access token who it belongs to. The base URL is Discord's API, or
the local Discord's when the bot plays locally.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.i18n import language_of

KEPT_VIEWERS = 10_000  # access tokens remembered, the least recently used forgotten first


class NotIdentified(Exception):
    """Discord did not accept the code or the token."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """A Discord user behind a page, and the language their locale asks for."""

    user_id: int
    name: str
    language: str


class DiscordIdentity:
    """Exchanges codes and reads users; remembers each access token's user (a page's
    connection names its token, never its user)."""

    def __init__(self, api_url: str, client_id: str, client_secret: str) -> None:
        self.api_url = api_url.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self._viewers: OrderedDict[str, Viewer] = OrderedDict()

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
