"""The page's API without a browser: who may see which message, what the page may send, and
that every bad request gets one clear sentence."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.local.guard import COOKIE
from bot.local.page import RECENT_MESSAGES, LocalPage, visible_to
from bot.local.payloads import apply_message_data
from bot.local.records import EPHEMERAL, LocalInteraction
from bot.local.server import LocalDiscord, running_client
from tests.bot.local.test_server import tiny_bot


@pytest.fixture
async def served() -> AsyncIterator[tuple[LocalDiscord, aiohttp.ClientSession]]:
    server = LocalDiscord()
    page = LocalPage(server, {"bob": "fr"})
    await server.start(extend=page.install)
    try:
        with server.pointed_at():
            cookies = {COOKIE: page.key.secret}  # the browser's cookie, from the printed address
            async with aiohttp.ClientSession(
                f"http://127.0.0.1:{server.port}", cookies=cookies
            ) as session:
                yield server, session
    finally:
        await page.close()
        await server.stop()


def _ephemeral_answer(server: LocalDiscord, user_name: str, text: str) -> dict[str, Any]:
    user = server.user(user_name)
    interaction = LocalInteraction(
        id=server.new_id(), token="t", user=user, kind="button", data={}, channel_id=1
    )
    return server.new_message(
        server.channel_id, {"content": text}, flags=EPHEMERAL, interaction=interaction
    )


def test_an_ephemeral_message_is_visible_to_its_user_only() -> None:
    server = LocalDiscord()
    message = _ephemeral_answer(server, "alice", "your cards")
    assert visible_to(message, server.user("alice"))
    assert not visible_to(message, server.user("bob"))
    public = server.new_message(server.channel_id, {"content": "table"})
    assert visible_to(public, server.user("bob"))


async def test_a_channel_lists_public_messages_and_only_the_reader_s_ephemeral_ones(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, session = served
    server.new_message(server.channel_id, {"content": "the table"})
    _ephemeral_answer(server, "alice", "alice's hand")
    _ephemeral_answer(server, "bob", "bob's hand")
    url = f"/page/channels/{server.channel_id}/messages"
    async with session.get(url, params={"user": "2"}) as response:
        shown = [m["content"] for m in await response.json()]
    assert shown == ["the table", "bob's hand"]


async def test_the_state_lists_users_with_their_language_channels_and_commands(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, session = served
    server.commands[None] = [{"name": "ping", "type": 1, "options": []}]
    async with session.get("/page/state", params={"user": "2"}) as response:
        state = await response.json()
    assert state["me"]["username"] == "bob" and state["me"]["locale"] == "fr"
    assert [u["number"] for u in state["users"]] == [1, 2, 3, 4]
    assert {c["name"] for c in state["channels"]} == {"cards", "general"}
    assert [c["name"] for c in state["commands"]] == ["ping"]
    assert state["connected"] is False


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "sentence"),
    [
        ("GET", "/page/state?user=9", None, 404, "There is no user 9: choose 1 to 4."),
        ("POST", "/page/interactions", {"type": "x"}, 400, "This request is not an interaction"),
        ("POST", "/page/users/1/locale", {"locale": "de"}, 400, "Choose a language"),
        (
            "POST",
            "/page/messages",
            {"user": 1, "channel_id": 1, "content": ""},
            400,
            "A message has 1 to 2000 characters.",
        ),
        (
            "POST",
            "/page/interactions",
            {"user": 1, "type": "command", "channel_id": 1, "name": "ping"},
            503,
            "The bot is not connected yet",
        ),
    ],
)
async def test_a_bad_request_gets_one_clear_sentence(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
    method: str,
    path: str,
    body: Any,
    status: int,
    sentence: str,
) -> None:
    _, session = served
    async with session.request(method, path, json=body) as response:
        assert response.status == status
        assert (await response.json())["error"].startswith(sentence)


async def test_switching_language_is_kept_for_the_user(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    _, session = served
    async with session.post("/page/users/1/locale", json={"locale": "fr"}) as response:
        assert (await response.json())["locale"] == "fr"
    async with session.get("/page/state", params={"user": "1"}) as response:
        assert (await response.json())["me"]["locale"] == "fr"


async def test_closing_the_activitys_frame_leaves_its_instance_for_that_user_only(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, session = served
    alice, bob = server.user("alice"), server.user("bob")
    running = server.activities.launch(alice, server.channel_id)
    server.activities.launch(bob, server.channel_id)
    number = list(server.users.values()).index(alice) + 1  # as the page numbers its users
    body = {"user": number, "instance": running.instance_id}
    async with session.post("/page/activity/leave", json=body) as response:
        assert await response.json() == {"left": True}
    assert running.users == [bob.id]
    body = {"user": number, "instance": "i-never-launched"}
    async with session.post("/page/activity/leave", json=body) as response:
        assert await response.json() == {"left": False}


async def test_the_page_and_its_scripts_are_served_from_the_package(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    _, session = served
    for path in ("/", "/static/app.js", "/static/app.css", "/static/markdown.js"):
        async with session.get(path) as response:
            assert response.status == 200, path
            text = await response.text()
            assert "http://" not in text and "https://" not in text  # nothing from the network
            # The page works for whatever games the bot registers: it names none of them.
            assert not {"dutch", "euchre", "dame"} & set(text.lower().split())


async def test_a_command_sent_by_the_page_reaches_the_bot_and_its_answer_is_listed(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, session = served
    async with running_client(tiny_bot()):
        command = {"user": 1, "type": "command", "channel_id": server.channel_id}
        async with session.post(
            "/page/interactions", json={**command, "name": "ping", "options": {"times": "2"}}
        ) as response:
            assert await response.json() == {"answered": True}
        async with session.post(
            "/page/interactions", json={**command, "name": "ping", "options": {"nope": "1"}}
        ) as response:
            assert response.status == 400
            assert (await response.json())["error"] == "/ping has no option nope."
        url = f"/page/channels/{server.channel_id}/messages"
        async with session.get(url, params={"user": "1"}) as response:
            alice_sees = [m["content"] for m in await response.json()]
        async with session.get(url, params={"user": "2"}) as response:
            bob_sees = [m["content"] for m in await response.json()]
    assert alice_sees == ["pong x2 for alice", "public table", "a secret followup"]
    assert bob_sees == ["public table"]


async def test_a_channel_shows_its_latest_hundred_messages(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, session = served
    for number in range(RECENT_MESSAGES + 5):
        server.new_message(server.channel_id, {"content": f"message {number}"})
    url = f"/page/channels/{server.channel_id}/messages"
    async with session.get(url, params={"user": "1"}) as response:
        shown = [m["content"] for m in await response.json()]
    assert len(shown) == RECENT_MESSAGES and shown[-1] == f"message {RECENT_MESSAGES + 4}"


def _with_picture(name: str, content: bytes) -> dict[str, Any]:
    """What discord.py sends for a message carrying a file that its embed shows."""
    return {
        "embeds": [{"title": "round over", "image": {"url": f"attachment://{name}"}}],
        "attachments": [{"id": 0, "filename": name}],
        "files": {name: content},
    }


async def test_a_message_s_file_is_served_to_the_users_who_see_the_message(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    """The round-end picture (`attachment://round-1.png`) has an address the page reads."""
    server, session = served
    public = server.new_message(server.channel_id, _with_picture("round-1.png", b"first"))
    address = public["attachments"][0]["url"]
    async with session.get(address, params={"user": "2"}) as response:
        assert response.status == 200 and await response.read() == b"first"
        assert response.content_type == "image/png"
    user = server.user("alice")
    interaction = LocalInteraction(
        id=server.new_id(), token="t", user=user, kind="button", data={}, channel_id=1
    )
    private = server.new_message(
        server.channel_id,
        _with_picture("hand.png", b"alice's"),
        flags=EPHEMERAL,
        interaction=interaction,
    )
    hidden = private["attachments"][0]["url"]
    async with session.get(hidden, params={"user": "2"}) as response:
        assert response.status == 404  # Bob never sees Alice's hand
    async with session.get(hidden, params={"user": "1"}) as response:
        assert await response.read() == b"alice's"


async def test_a_file_replaced_by_an_edit_has_a_new_address_and_the_old_one_is_gone(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, session = served
    message = server.new_message(server.channel_id, _with_picture("round-1.png", b"first"))
    old = message["attachments"][0]["url"]
    apply_message_data(message, _with_picture("round-1.png", b"second"), server.files)
    new = message["attachments"][0]["url"]
    assert new != old
    async with session.get(old, params={"user": "1"}) as response:
        assert response.status == 404
    async with session.get(new, params={"user": "1"}) as response:
        assert await response.read() == b"second"
    # an edit that keeps the file (discord.py sends it back as Discord described it) keeps it
    apply_message_data(message, {"attachments": [dict(message["attachments"][0])]}, server.files)
    async with session.get(new, params={"user": "1"}) as response:
        assert await response.read() == b"second"


async def test_a_file_that_is_no_picture_downloads_under_its_name_and_wants_the_run_s_secret(
    served: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    """A hand record: the page's link saves it as `euchre-1-1.hand`; a browser without the
    run's cookie (any other site's page) gets one sentence instead of the file."""
    server, session = served
    sent = {"content": "records", "attachments": [{"id": 0, "filename": "euchre-1-1.hand"}]}
    message = server.new_message(server.channel_id, {**sent, "files": {"euchre-1-1.hand": b"x"}})
    address = message["attachments"][0]["url"]
    async with session.get(address, params={"user": "1"}) as response:
        assert response.status == 200 and await response.read() == b"x"
        assert response.headers["Content-Disposition"] == 'attachment; filename="euchre-1-1.hand"'
        assert response.content_type == "text/plain" and response.charset == "utf-8"
    async with (
        aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as stranger,
        stranger.get(address, params={"user": "1"}) as response,
    ):
        assert response.status == 403
        assert "printed when it started" in (await response.json())["error"]


@pytest.mark.parametrize("step", ["prepare", "send_json"])
async def test_a_page_gone_while_its_socket_opens_is_no_error(
    monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """A page reloaded or closed while its event socket opens (the browser resets the
    connection) is let go quietly: no error in the log, no socket left behind."""

    async def reset(*_: Any, **__: Any) -> None:
        raise aiohttp.ClientConnectionResetError("Cannot write to closing transport")

    async def prepared(socket: Any, _request: Any) -> None:
        return None

    if step == "send_json":
        monkeypatch.setattr(aiohttp.web.WebSocketResponse, "prepare", prepared)
    monkeypatch.setattr(aiohttp.web.WebSocketResponse, step, reset)
    page = LocalPage.__new__(LocalPage)
    page._sockets = set()
    await page._events(object())  # type: ignore[arg-type]
    assert page._sockets == set()
