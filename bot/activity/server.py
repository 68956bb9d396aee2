"""The Activity's web server: the page, the token exchange, and one WebSocket per page.

`GET /` the page; `GET /api/texts/<language>` its texts; `POST /api/token` `{"code"}` ->
`{"access_token"}` (the SDK's authorize code exchanged with Discord);
`GET /ws?instance=<id>&channel=<id>[&table=<id>]&token=<access token>` the page's live
connection, let in by its Activity instance (bot.activity.access). A connection gets the
viewer's frame at once, a fresh one at every change of the table, and answers each move it
sends: the mover's frame, or one sentence in their language. A page refused entry gets that
sentence and the close code `REFUSED` (it does not try again); so does an open page whose viewer
left its instance, or whose instance ended (bot.activity.watch).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.activity.access import Launches, PageAsks, admitted_table
from bot.activity.hub import ActivityHub, Page, encoded
from bot.activity.identity import DiscordIdentity, NotIdentified, Viewer
from bot.activity.tables import Move
from bot.activity.watch import Watch, Watched
from bot.activity.words import page_texts
from bot.i18n import LANGUAGES, error_text
from bot.pictures.card_faces import BACK, face_png
from bot.service.errors import TableError
from games.cards import RANKS, SUITS
from storage.models import GuildSettings

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 1024  # bytes: a move is far shorter
REFUSED = 4403  # the close code of a page refused entry (its instance, channel or table)
# how long the page shows a card a rule showed its player (a guild's default)
REVEAL_SECONDS = float(GuildSettings.model_fields["reveal_seconds"].default)
# the pictures the page draws cards with: every face, the joker and the back
CARD_NAMES = frozenset({f"{rank}{suit}" for rank in RANKS for suit in SUITS} | {"JK", BACK})
HUB_KEY = web.AppKey("hub", ActivityHub)
CLIENT_ID_KEY = web.AppKey("client_id", str)
IDENTITY_KEY = web.AppKey("identity", DiscordIdentity)
SESSION_KEY = web.AppKey("session", aiohttp.ClientSession)
LAUNCHES_KEY = web.AppKey("launches", Launches)
WATCH_KEY = web.AppKey("watch", Watch)


def create_app(
    hub: ActivityHub,
    identity: DiscordIdentity,
    launches: Launches | None = None,
    period: Callable[[], Awaitable[None]] | None = None,
) -> web.Application:
    """The Activity's application (the caller runs it on its own port); `period` waits
    between two checks of the open pages' instances (default: `INSTANCE_SECONDS`)."""
    app = web.Application(client_max_size=4096)
    app[HUB_KEY] = hub
    app[IDENTITY_KEY] = identity
    app[LAUNCHES_KEY] = launches if launches is not None else Launches()
    app[WATCH_KEY] = Watch(identity, period)
    app.router.add_get("/api/config", _config)
    app.router.add_get("/api/texts/{language}", _texts)
    app.router.add_get("/cards/{name}.png", _card)
    app.cleanup_ctx.append(_client_session)
    app.cleanup_ctx.append(_watching)
    app.router.add_get("/", _page)
    app.router.add_post("/api/token", _token)
    app.router.add_get("/ws", _socket)
    app.router.add_static("/static/", STATIC)
    return app


async def _client_session(app: web.Application) -> Any:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        app[SESSION_KEY] = session
        yield


async def _watching(app: web.Application) -> Any:
    """The open pages checked against their instances, once a period, while the app runs."""
    task = asyncio.create_task(app[WATCH_KEY].run(app[SESSION_KEY]))
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _page(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def _config(request: web.Request) -> web.Response:
    """What the page needs before signing in: the application's id (the SDK's client id)."""
    return web.json_response({"client_id": request.app[IDENTITY_KEY].client_id})


async def _texts(request: web.Request) -> web.Response:
    """The page's own texts in a language (before signing in: the browser's; then the
    viewer's come with the greeting)."""
    language = request.match_info["language"]
    if language not in LANGUAGES:
        raise web.HTTPNotFound(text="no such language")
    return web.json_response(page_texts(language))


async def _card(request: web.Request) -> web.Response:
    """One card's picture, as the bot draws it in its messages (drawn once, then kept)."""
    name = request.match_info["name"]
    if name not in CARD_NAMES:
        raise web.HTTPNotFound(text="no such card")
    picture = await asyncio.to_thread(face_png, name)
    headers = {"Cache-Control": "public, max-age=86400"}
    return web.Response(body=picture, content_type="image/png", headers=headers)


async def _token(request: web.Request) -> web.Response:
    try:
        body = await request.json()
    except json.JSONDecodeError:
        body = None
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str) or not code:
        return web.json_response({"error": "no code"}, status=400)
    try:
        token, _viewer = await request.app[IDENTITY_KEY].exchange(request.app[SESSION_KEY], code)
    except (NotIdentified, aiohttp.ClientError):
        return web.json_response({"error": "the code was refused"}, status=401)
    return web.json_response({"access_token": token})


async def _socket(request: web.Request) -> web.StreamResponse:
    hub, identity = request.app[HUB_KEY], request.app[IDENTITY_KEY]
    session = request.app[SESSION_KEY]
    try:
        asks = PageAsks.read(request.query)
        viewer = await identity.viewer(session, request.query.get("token", ""))
    except (ValueError, NotIdentified, aiohttp.ClientError):
        raise web.HTTPUnauthorized(text="who are you, and which table?") from None
    socket = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
    try:
        launches = request.app[LAUNCHES_KEY]
        table_id = await admitted_table(identity, session, hub.tables, launches, viewer, asks)
    except (TableError, NotIdentified, aiohttp.ClientError) as error:
        if not isinstance(error, TableError):  # Discord did not answer for the instance
            log.warning("an Activity instance could not be checked: %s", error)
            error = TableError("activity_unknown")
        await socket.prepare(request)
        await _refuse_entry(socket, viewer, error)
        return socket
    await socket.prepare(request)
    page = Page(table_id, viewer.user_id, viewer.language, socket.send_str)

    async def close(key: str) -> None:
        await _close_refused(hub, page, socket, TableError(key))

    watch = request.app[WATCH_KEY]
    watched = Watched(viewer.user_id, asks.instance_id, close)
    try:
        await socket.send_json(_hello(viewer))
        hub.open(page)  # before the first frame: a change meanwhile is pushed after it
        watch.add(watched)
        opening = await hub.tables.opening_frame(table_id, viewer.user_id, viewer.language)
        await hub.deliver(page, opening)
        async for message in socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                if not await watch.still_in(session, watched):
                    await watch.leave(watched)  # its viewer left the instance: no move
                    break
                await _move(hub, page, message.data)
    except TableError as error:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await _refuse(page, error)
    except (ConnectionError, RuntimeError) as error:
        log.info("a page of table %s closed: %s", table_id, error)
    finally:
        watch.discard(watched)
        hub.close(page)
        await socket.close()
    return socket


def _hello(viewer: Viewer) -> dict[str, Any]:
    return {
        "type": "hello",
        "language": viewer.language,
        "reveal_seconds": REVEAL_SECONDS,
        "texts": page_texts(viewer.language),
    }


async def _refuse_entry(socket: web.WebSocketResponse, viewer: Viewer, error: TableError) -> None:
    """A page not let in: greeted, told why in one sentence, and closed for good."""
    log.info("an Activity page of user %s was refused: %s", viewer.user_id, error.key)
    sentence = error_text(viewer.language, error.key, **error.params)
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_json(_hello(viewer))
        await socket.send_json({"type": "refused", "key": error.key, "text": sentence})
    await socket.close(code=REFUSED, message=error.key.encode())


async def _close_refused(
    hub: ActivityHub, page: Page, socket: web.WebSocketResponse, error: TableError
) -> None:
    """An open page no longer let in: sent no frame more, told why, and closed for good."""
    hub.close(page)
    page.closed = True
    with contextlib.suppress(ConnectionError, RuntimeError):
        await _refuse(page, error)
    await socket.close(code=REFUSED, message=error.key.encode())


async def _move(hub: ActivityHub, page: Page, data: str) -> None:
    """One move from a page: played, and answered with the mover's frame; or refused."""
    try:
        try:
            message = json.loads(data)
        except json.JSONDecodeError:
            raise TableError("bad_button") from None
        move = Move.read(message)
        built = await hub.tables.act(page.table_id, page.user_id, move, page.language)
    except TableError as error:
        await _refuse(page, error)
        if error.key == "activity_stale":  # the page drew an older table: the current one
            current = await hub.tables.current_frame(page.table_id, page.user_id, page.language)
            await hub.deliver(page, current)
        return
    await hub.deliver(page, built)


async def _refuse(page: Page, error: TableError) -> None:
    sentence = error_text(page.language, error.key, **error.params)
    async with page.lock:
        await page.send(encoded({"type": "refused", "key": error.key, "text": sentence}))
