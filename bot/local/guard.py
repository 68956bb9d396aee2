"""What keeps the local table to the people at this machine, and the bot's connection its own.

Listening on 127.0.0.1 is not enough: any web page open in the same browser can send requests
there, and a page whose name is re-pointed at 127.0.0.1 (DNS rebinding) can even read the
answers. So every request to the server passes `guard_middleware`:

- its `Host` must name the address the server is bound to (`127.0.0.1:PORT` or
  `localhost:PORT`): a rebound name is refused;
- a request that changes something (any method but GET/HEAD/OPTIONS) and every websocket
  opening must come from the page's own origin when the client says where it comes from
  (browsers always do; the bot, which is no browser, sends no `Origin`);

then the page's routes want the per-run secret (`PageKey`), and Discord's API routes the bot's
token (`bot/local/server.py`), as Discord does.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable

from aiohttp import web

log = logging.getLogger("bot.local")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
COOKIE = "cardtable_key"
KEY_PARAMETER = "key"

WRONG_HOST = "This local table answers only at 127.0.0.1 (or localhost) on its own port."
WRONG_ORIGIN = "Only the local table's own page may do this."
NO_KEY = "Open the local table with the address it printed when it started."

_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def same_secret(given: str | None, expected: str) -> bool:
    """Whether `given` is `expected`, compared in constant time."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def allowed_hosts(port: int) -> frozenset[str]:
    return frozenset(f"{name}:{port}" for name in LOOPBACK_NAMES)


def allowed_origins(port: int) -> frozenset[str]:
    return frozenset(f"http://{host}" for host in allowed_hosts(port))


def refusal(status: int, message: str) -> web.Response:
    return web.json_response({"error": message, "message": message, "code": 0}, status=status)


def guard_middleware(port: Callable[[], int]) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The Host and Origin checks, for the port the server is bound to (known once bound)."""

    @web.middleware
    async def guard(request: web.Request, handler: _Handler) -> web.StreamResponse:
        bound = port()
        if request.host.lower() not in allowed_hosts(bound):
            log.info("local table: refused a request for host %r", request.host[:100])
            return refusal(421, WRONG_HOST)
        origin = request.headers.get("Origin")
        changes = request.method not in SAFE_METHODS
        opening_socket = request.headers.get("Upgrade", "").lower() == "websocket"
        foreign = origin is not None and origin.lower() not in allowed_origins(bound)
        if (changes or opening_socket) and foreign:
            log.info("local table: refused %s %s from %r", request.method, request.path, origin)
            return refusal(403, WRONG_ORIGIN)
        return await handler(request)

    return guard


class PageKey:
    """The page's per-run secret: in the address printed at start (`?key=`), then a cookie
    (HttpOnly, SameSite=Strict) the page's own requests carry."""

    def __init__(self, secret: str | None = None) -> None:
        self.secret = secret or new_secret()

    def entry_url(self, port: int, query: str = "") -> str:
        extra = f"&{query}" if query else ""
        return f"http://127.0.0.1:{port}/?{KEY_PARAMETER}={self.secret}{extra}"

    def admits(self, request: web.Request) -> bool:
        return same_secret(request.cookies.get(COOKIE), self.secret)

    def given_in_url(self, request: web.Request) -> bool:
        return same_secret(request.query.get(KEY_PARAMETER), self.secret)

    def set_cookie(self, response: web.StreamResponse) -> None:
        response.set_cookie(COOKIE, self.secret, httponly=True, samesite="Strict", path="/")
