"""The local Discord's OAuth2 for the Activity.

Codes the local page authorizes are exchanged at `POST /oauth2/token` with the application's
secret, and `GET /users/@me` with the access token (Discord's `Bearer` form) answers who it
belongs to."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.local.guard import same_secret
from bot.local.records import LocalUser, RecordedRequest
from bot.local.rest import Route, RouteError

if TYPE_CHECKING:
    from bot.local.server import LocalDiscord


class LocalOAuth:
    """The codes handed out and the access tokens they became, each naming its user."""

    def __init__(self, server: LocalDiscord) -> None:
        self._server = server
        self.client_secret = f"local-secret-{secrets.token_urlsafe(16)}"
        self._codes: dict[str, LocalUser] = {}
        self._tokens: dict[str, LocalUser] = {}
        self.locales: dict[int, str] = {}  # user id -> Discord locale (default: en-US)
        # told when a token is handed out: the state file keeps the tokens across restarts, as
        # Discord does (an open Activity's page reconnects to a restarted bot with its token)
        self.on_change: Callable[[], None] = lambda: None

    @property
    def tokens(self) -> dict[str, LocalUser]:
        """Every access token handed out, and its user."""
        return self._tokens

    def keep(self, token: str, user: LocalUser) -> None:
        """A token a previous run handed out (the state file's)."""
        self._tokens[token] = user

    def authorize(self, user: LocalUser) -> str:
        """What the SDK's `authorize` gives the page: a code, good for one exchange."""
        code = secrets.token_urlsafe(16)
        self._codes[code] = user
        return code

    def user_of(self, token: str) -> LocalUser | None:
        return self._tokens.get(token)

    def routes(self) -> list[Route]:
        return [("POST", "/oauth2/token", self._token)]

    async def _token(self, record: RecordedRequest, request: web.Request) -> Any:
        form = record.payload if isinstance(record.payload, dict) else {}
        client_id = str(form.get("client_id", ""))
        secret = str(form.get("client_secret", ""))
        if client_id != str(self._server.application_id) or not same_secret(
            secret, self.client_secret
        ):
            raise RouteError(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            raise RouteError(400, "unsupported_grant_type")
        user = self._codes.pop(str(form.get("code", "")), None)
        if user is None:
            raise RouteError(400, "invalid_grant")
        token = secrets.token_urlsafe(24)
        self._tokens[token] = user
        self.on_change()
        body = {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 604800,
            "scope": "identify",
        }
        return 200, body, {}

    def me(self, request: web.Request) -> dict[str, Any] | None:
        """`/users/@me` for an access token (None: the request carries none)."""
        given = request.headers.get("Authorization", "")
        if not given.startswith("Bearer "):
            return None
        user = self.user_of(given.removeprefix("Bearer "))
        if user is None:
            raise RouteError(401, "401: Unauthorized")
        return {**user.user_payload(), "locale": self.locales.get(user.id, "en-US")}
