"""The REST side of the local Discord.

Routes are matched as Discord's (`/channels/{channel_id}`), the bot's token is wanted on all but
an interaction's own, bodies are read as discord.py sends them (JSON, or multipart with files),
answers are Discord's (JSON, 204, a route's error), and every request is recorded. The route
groups (application.py, channels.py, interactions.py) serve the routes over the server's state."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from bot.local.faults import RestFaults
from bot.local.guard import same_secret
from bot.local.limits import edit_errors, message_errors
from bot.local.records import RecordedRequest

log = logging.getLogger("bot.local")

# A route's handler: (record, request, **the route's names) -> (status, body, headers).
Handler = Callable[..., Awaitable[tuple[int, Any, dict[str, str]]]]
Route = tuple[str, str, Handler]  # method, template, handler


class RouteError(Exception):
    """Discord's answer to a refused request: its status, message and JSON error code."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


def refuse_invalid(
    data: dict[str, Any], *, creating: bool, stored: dict[str, Any] | None = None
) -> None:
    """A message payload Discord would refuse (limits.py) is refused here too, loudly: a new
    message's, or an edit of the `stored` message (checked as the message it would make)."""
    if stored is not None:
        errors = edit_errors(stored, data)
    else:
        errors = message_errors(data, creating=creating)
    if errors:
        log.error("LOCAL DISCORD: invalid message payload: %s", "; ".join(errors))
        raise RouteError(400, "Invalid Form Body: " + "; ".join(errors), 50035)


async def no_content(record: RecordedRequest, request: web.Request, **_: str) -> Any:
    return 204, None, {}


class RestApi:
    """`/api/v10/…`: matches a request to its route, checks the bot's token, answers, and
    records it (`record`); unknown routes are logged loudly, kept in `unknown_routes`, 404."""

    def __init__(
        self,
        *,
        bot_token: Callable[[], str],
        record: Callable[[RecordedRequest], None],
        unknown_routes: list[str],
        on_change: Callable[[], Awaitable[None]],
    ) -> None:
        self._bot_token = bot_token  # read at each request, as the gateway does
        self._record = record
        self._unknown_routes = unknown_routes
        self._on_change = on_change
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []
        self.faults = RestFaults()  # storms a test or the fault suite asks for
        self.in_flight = 0  # requests being answered
        self.last_activity = time.monotonic()  # when one last arrived or was answered

    def add(self, routes: list[Route]) -> None:
        for method, template, handler in routes:
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
            self._routes.append((method, re.compile(f"^{pattern}$"), template, handler))

    def _authorized(self, request: web.Request, path: str) -> bool:
        """The bot's token, as Discord wants it on every route but an interaction's own
        (its callback and webhook, which the interaction's secret token names) and the
        Activity's OAuth2 (the application's secret, or a user's access token)."""
        if path.startswith(("/interactions/", "/webhooks/")):
            return True
        given = request.headers.get("Authorization", "")
        if path == "/oauth2/token" or (path == "/users/@me" and given.startswith("Bearer ")):
            return True  # the Activity's OAuth2: the handler checks the secret or the token
        return given.startswith("Bot ") and same_secret(given[4:], self._bot_token())

    async def dispatch(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        if not self._authorized(request, path):
            log.info("LOCAL DISCORD: refused %s %s without the bot's token", request.method, path)
            return _response(401, {"message": "401: Unauthorized", "code": 0}, {})
        self.in_flight += 1
        self.last_activity = time.monotonic()
        try:
            for method, pattern, template, handler in self._routes:
                found = pattern.match(path)
                if found and method == request.method:
                    payload = await _read_payload(request)
                    record = RecordedRequest(
                        request.method, f"{method} {template}", path, payload, status=200
                    )
                    try:
                        refused = self.faults.answer(f"{method} {template}", path)
                        if refused is not None:
                            status, body, headers = refused
                        else:
                            status, body, headers = await handler(
                                record, request, **found.groupdict()
                            )
                    except RouteError as error:
                        status, headers = error.status, {}
                        body = {"message": error.message, "code": error.code}
                    except Exception as error:  # a bug of this server: fail fast and loudly
                        log.exception("LOCAL DISCORD: %s %s crashed", method, path)
                        self._unknown_routes.append(f"{method} {path} crashed the server: {error}")
                        status, headers = 400, {}
                        body = {"message": f"the local server crashed: {error}", "code": 0}
                    record.status = status
                    self._record(record)
                    return _response(status, body, headers)
            payload = await _read_payload(request)
            text = f"{request.method} {path} {json.dumps(payload, default=repr)[:300]}"
            log.error("LOCAL DISCORD: unknown route %s", text)
            self._unknown_routes.append(text)
            return _response(404, {"message": "404: Not Found (local)", "code": 0}, {})
        finally:
            self.in_flight -= 1
            self.last_activity = time.monotonic()
            await self._on_change()


async def _read_payload(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        payload: dict[str, Any] = {"attachments_uploaded": []}
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue  # discord.py sends no multipart nested in a part
            if part.name == "payload_json":
                payload.update(json.loads(await part.text()))
            else:
                filename = part.filename
                payload["attachments_uploaded"].append(filename)
                uploaded = bytes(await part.read())
                payload.setdefault("files", {})[filename] = uploaded
        return payload
    if request.content_type == "application/x-www-form-urlencoded":
        return dict(await request.post())
    text = await request.text()
    return json.loads(text) if text else None


def _response(status: int, body: Any, headers: dict[str, str]) -> web.Response:
    if status == 204 or body is None:
        return web.Response(status=204, headers=headers)
    # discord.py decodes JSON only for exactly this content type (no charset).
    all_headers = {"Content-Type": "application/json", **headers}
    return web.Response(status=status, body=json.dumps(body).encode(), headers=all_headers)
