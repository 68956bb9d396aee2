from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.app import CardTableBot
from bot.local.records import iter_components
from bot.runtime.priority import in_background
from bot.service import PlayerRef, TableError
from bot.snapshots import ROUND_OVER
from bot.ui.coalescer import RetryLater
from bot.ui.layout import shown_as
from tests.bot.bots import offline_bot
from tests.bot.service.conftest import StallingStore, end_round_quickly

GUILD, CHANNEL, HOST = 1, 10, 101


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(response, {"code": code, "message": "refused"})  # type: ignore[arg-type]


def shown(sent: dict[str, Any]) -> str:
    """What a send or an edit shows, as text: its embed, or its Components V2 layout."""
    if sent.get("embed") is not None:
        return json.dumps(sent["embed"].to_dict(), ensure_ascii=False)
    return json.dumps(sent["view"].to_components(), ensure_ascii=False)


def buttons(sent: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons and menus a send or an edit shows, wherever they are nested."""
    every = iter_components({"components": sent["view"].to_components()})
    return [c for c in every if c.get("type") in (2, 3)]


class FakeChannel:
    """Records sends and edits; raises the queued errors first."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.edits: list[tuple[int, dict[str, Any]]] = []
        self.edit_errors: list[discord.HTTPException] = []
        self.deleted: list[int] = []
        self._ids = itertools.count(5000)

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        message = SimpleNamespace(id=next(self._ids))
        self.sent.append({"content": content, **kwargs, "id": message.id})
        return message

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                if channel.edit_errors:
                    raise channel.edit_errors.pop(0)
                channel.edits.append((message_id, kwargs))

            async def delete(self) -> None:
                channel.deleted.append(message_id)

        return Partial()


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    async with offline_bot(tmp_path, edit_delay=0.2) as made:
        channel = FakeChannel()
        made.get_partial_messageable = lambda channel_id, **_: channel  # type: ignore[method-assign]
        made.channel = channel  # type: ignore[attr-defined]
        yield made
        await made.notifier.drain()


async def lobby(bot: CardTableBot) -> int:
    snapshot = await bot.service.seating.open_table(
        GUILD, CHANNEL, PlayerRef(HOST, "Host"), "dutch"
    )
    await bot.notifier.post(snapshot.table_id, CHANNEL)
    return snapshot.table_id


async def test_a_burst_of_service_changes_makes_one_edit(bot: CardTableBot) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    for user in range(3):
        await bot.service.seating.join(table_id, PlayerRef(200 + user, f"P{user}"))
    await bot.notifier.drain()
    assert len(channel.edits) == 1
    assert "P2" in shown(channel.edits[0][1])


async def test_an_unchanged_table_is_not_edited(bot: CardTableBot) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.notifier.table_changed(table_id)
    await bot.notifier.drain()
    assert channel.edits == []


async def test_a_rate_limited_edit_is_retried_until_the_message_converges(
    bot: CardTableBot,
) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    channel.edit_errors = [http_error(429)]
    bot.notifier.coalescer._retry_delay = 0.0  # retry at once in this test
    await bot.service.seating.join(table_id, PlayerRef(201, "Late"))
    await bot.notifier.drain()
    assert len(channel.edits) == 1 and "Late" in shown(channel.edits[0][1])


async def test_a_server_error_asks_to_retry_later(bot: CardTableBot) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Late"))
    bot.notifier.coalescer.forget(table_id)
    channel.edit_errors = [http_error(503)]
    with pytest.raises(RetryLater):
        await bot.notifier._edit_now(table_id)


async def test_a_message_too_old_to_edit_is_posted_anew(bot: CardTableBot) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    first = (await bot.locations.get(table_id)).message_id
    channel.edit_errors = [http_error(400, code=30046)]
    await bot.service.seating.join(table_id, PlayerRef(201, "Late"))
    await bot.notifier.drain()
    assert len(channel.sent) == 2
    location = await bot.locations.get(table_id)
    assert location.message_id == channel.sent[-1]["id"] != first
    assert (await bot.store.get_table(table_id)).message_id == location.message_id
    assert channel.deleted == [first]  # one live message per table


async def test_the_lobby_message_becomes_the_table_message_and_every_round_shows_in_it(
    bot: CardTableBot,
) -> None:
    """One live message per table: no message is posted at the start or at a new round."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.notifier.drain()
    lobby_message = (await bot.locations.get(table_id)).message_id
    await bot.service.seating.start(table_id, HOST)
    await bot.notifier.drain()
    await end_round_quickly(bot.service, table_id)
    await bot.notifier.drain()
    assert bot.service.public_snapshot(table_id).status == ROUND_OVER
    await bot.service.play.next_round(table_id, HOST)
    await bot.notifier.drain()
    assert bot.service.public_snapshot(table_id).round_no == 1
    assert [sent["id"] for sent in channel.sent if sent["content"] is None] == [lobby_message]
    assert (await bot.locations.get(table_id)).message_id == lobby_message
    assert {message_id for message_id, _ in channel.edits} == {lobby_message}
    assert "Round 2" in shown(channel.edits[-1][1])
    assert lobby_message not in channel.deleted


async def test_a_turn_reminder_mentions_only_that_player(bot: CardTableBot) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.notifier.turn_reminder(table_id, 0)  # nobody is to play in the lobby: no reminder
    await bot.notifier.drain()
    assert all(sent["content"] is None for sent in channel.sent)
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    await bot.notifier.turn_reminder(table_id, 0)
    await bot.notifier.drain()
    reminder = channel.sent[-1]
    assert f"<@{HOST}>" in reminder["content"]
    assert [u.id for u in reminder["allowed_mentions"].users] == [HOST]
    # sent during the simultaneous peek as well, so it never claims it is one player's turn
    assert "turn" not in reminder["content"].lower()


async def test_a_cancelled_table_shows_closed_without_buttons(bot: CardTableBot) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.cancel(table_id, HOST)
    await bot.notifier.drain()
    message_id, last_edit = channel.edits[-1]
    assert message_id == channel.sent[0]["id"]
    assert "closed" in shown(last_edit)
    assert buttons(last_edit) == []


async def test_a_table_edit_during_a_stalled_write_shows_only_what_is_stored(
    bot: CardTableBot,
) -> None:
    """A player discards the card they drew while the database is locked; the delayed table
    edit runs meanwhile, then the write fails: no message ever shows the discard."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    for user in (HOST, 201):
        await bot.service.play.act(table_id, user, 0, "peek 3 4")
    snapshot = bot.service.public_snapshot(table_id)
    player = snapshot.seats[snapshot.to_act[0]].user_id
    assert player is not None
    await bot.service.play.act(table_id, player, 0, "draw")
    await bot.notifier.drain()
    stored = await _shown(bot, table_id)
    edits_before = len(channel.edits)

    stalling = StallingStore(bot.store, "record_action")
    bot.service.store = stalling  # type: ignore[assignment]
    stalling.arm()
    click = asyncio.create_task(bot.service.play.act(table_id, player, 0, "discard"))
    await stalling.entered.wait()
    bot.notifier.coalescer.mark(table_id)  # some other change asks for an edit meanwhile
    await bot.notifier.coalescer.drain()
    assert await _shown(bot, table_id) == stored
    stalling.release(fail=True)
    with pytest.raises(TableError):
        await click
    await bot.notifier.drain()
    assert await _shown(bot, table_id) == stored
    edited = [kw["view"].to_components() for _, kw in channel.edits[edits_before:] if "view" in kw]
    assert all(components == stored for components in edited)


async def _shown(bot: CardTableBot, table_id: int) -> list[dict[str, Any]]:
    rendered = await bot.notifier.render(table_id)
    assert rendered is not None
    return list(shown_as(rendered)["view"].to_components())


async def test_the_round_end_picture_is_drawn_in_a_drawing_thread_below_the_loop_s_priority(
    bot: CardTableBot,
) -> None:
    """As the hands and tables: not in the threads other work is sent to (asyncio.to_thread),
    and never on the event loop."""
    loop_thread = threading.get_ident()
    seen: list[tuple[int, str, int]] = []

    class Picture:
        filename = "round-1.png"

        def png(self) -> bytes:
            thread = threading.current_thread()
            priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
            seen.append((thread.ident or 0, thread.name, priority))
            return b"png"

    rendered = SimpleNamespace(picture=Picture())
    files = await bot.notifier._picture_files(1, None, rendered)  # type: ignore[arg-type]
    assert [f.filename for f in files] == ["round-1.png"]
    ((ident, name, priority),) = seen
    assert ident != loop_thread and name.startswith("card-pictures")
    assert priority > os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


async def test_what_a_change_shows_others_is_background_work(bot: CardTableBot) -> None:
    """A reminder, a ping, an edit: on the bot's event loop the click's own answer goes first."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    await bot.notifier.drain()
    seen: list[bool] = []
    send = channel.send

    async def noted(content: str | None = None, **kwargs: Any) -> Any:
        seen.append(in_background())
        return await send(content, **kwargs)

    channel.send = noted  # type: ignore[method-assign]
    assert not in_background()
    await bot.notifier.turn_reminder(table_id, 0)
    await bot.notifier.drain()
    assert seen == [True]


async def test_a_change_within_the_mentioned_turn_starts_no_mention_pass(
    bot: CardTableBot,
) -> None:
    """A mention pass runs only for a change that may move the mentioned turn: a move within
    the turn (a Dutch draw, before its discard) leaves the mention alone, and the move that
    ends the turn has the next player mentioned."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    rng = random.Random(1)

    def turn() -> tuple[int, ...]:
        return bot.service.public_snapshot(table_id).to_act

    async def play(seat: int) -> None:
        user_id = bot.service.public_snapshot(table_id).seats[seat].user_id
        assert user_id is not None
        notation = bot.service.bot_choice(table_id, user_id, rng)
        assert notation is not None
        round_no = bot.service.public_snapshot(table_id).round_no
        assert round_no is not None
        await bot.service.play.act(table_id, user_id, round_no, notation)

    def mentions() -> list[dict[str, Any]]:
        return [s for s in channel.sent if s["content"] and "turn" in s["content"]]

    while bot.service.public_snapshot(table_id).view.phase == "peek":  # nobody's turn yet
        await play(turn()[0])
    await bot.notifier.drain()
    (seat,) = turn()
    (first,) = mentions()
    await play(seat)  # the draw: still this player's turn
    assert turn() == (seat,)
    assert table_id not in bot.notifier._ping_pending  # nothing for a pass to do
    while turn() == (seat,):
        await play(seat)
    assert table_id in bot.notifier._ping_pending  # the turn moved: a pass mentions the next
    await bot.notifier.drain()
    assert mentions()[0] == first and channel.deleted == [first["id"]]
    (after,) = turn()
    user_id = bot.service.public_snapshot(table_id).seats[after].user_id
    (_, second) = mentions()
    assert f"<@{user_id}>" in second["content"]


async def test_a_clicked_table_s_move_is_edited_without_the_coalescing_delay(
    bot: CardTableBot,
) -> None:
    """A player's "My cards" follows each move at once: the table message of a table being
    played must not lag a coalescing delay behind it (it showed a card already taken)."""
    table_id = await lobby(bot)
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    for user in (HOST, 201):
        await bot.service.play.act(table_id, user, 0, "peek 3 4")
    await bot.notifier.drain()
    delays: list[float] = []

    async def noted(seconds: float) -> None:
        delays.append(seconds)

    bot.notifier.coalescer._sleep = noted
    snapshot = bot.service.public_snapshot(table_id)
    player = snapshot.seats[snapshot.to_act[0]].user_id
    assert player is not None
    await bot.service.play.act(table_id, player, 0, "draw")  # nobody clicked: a timer, say
    await bot.notifier.drain()
    assert delays == [0.2]
    bot.notifier.clicked(table_id)
    await bot.service.play.act(table_id, player, 0, "discard")
    await bot.notifier.drain()
    assert delays == [0.2]
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    assert "discarded" in shown(channel.edits[-1][1])


async def test_a_click_answered_on_the_table_message_is_not_edited_twice(
    bot: CardTableBot,
) -> None:
    """Joining answers with the table message itself: no second edit shows the same."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    bot.notifier.clicked(table_id)
    with bot.notifier.answering_on_message(table_id):
        await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    rendered = await bot.notifier.render(table_id)
    assert rendered is not None
    bot.notifier.note_sent(table_id, rendered)  # what the click's answer does
    await bot.notifier.drain()
    assert channel.edits == []


async def test_no_turn_is_mentioned_while_everyone_peeks_at_once(bot: CardTableBot) -> None:
    """The Dutch peek is everyone's at once: the player left to peek is not told it is their
    turn; the first turn after the peek is mentioned."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    await bot.service.play.act(table_id, HOST, 0, "peek 3 4")
    await bot.notifier.drain()
    assert bot.service.public_snapshot(table_id).to_act == (1,)  # only the guest peeks now
    assert [s for s in channel.sent if s["content"]] == []
    await bot.service.play.act(table_id, 201, 0, "peek 3 4")
    await bot.notifier.drain()
    snapshot = bot.service.public_snapshot(table_id)
    (seat,) = snapshot.to_act
    (mention,) = [s["content"] for s in channel.sent if s["content"]]
    assert mention == f"<@{snapshot.seats[seat].user_id}>, your turn at table #{table_id}."


def hand_interaction(user_id: int) -> Any:
    """The interaction of a player's "My cards" message (edits of it are not looked at)."""

    async def nothing(**_: Any) -> Any:
        return SimpleNamespace(id=9_000 + user_id, edit=nothing, delete=nothing)

    return SimpleNamespace(
        id=8_000 + user_id,
        user=SimpleNamespace(id=user_id),
        edit_original_response=nothing,
        delete_original_response=nothing,
        followup=SimpleNamespace(send=nothing),
    )


async def test_a_turn_reminder_says_press_my_cards_only_to_a_player_whose_hand_is_not_open(
    bot: CardTableBot,
) -> None:
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    await bot.notifier.turn_reminder(table_id, 0)
    await bot.notifier.drain()
    assert channel.sent[-1]["content"].endswith("press **My cards**.")
    private = await bot.service.play.private_view(table_id, HOST)
    bot.tables.follower.note(hand_interaction(HOST), 1, private, "en")
    await bot.notifier.turn_reminder(table_id, 0)
    await bot.notifier.drain()
    reminder = channel.sent[-1]["content"]
    assert f"<@{HOST}>" in reminder and "press" not in reminder
    assert reminder.endswith("it is in your **My cards** message.")


async def test_a_turn_its_own_player_s_click_started_is_not_mentioned_below_their_hand(
    bot: CardTableBot,
) -> None:
    """The last to peek is the first to play: their click's answer shows their moves where
    they look, and a mention posted after it would land below their hand. Nobody else's
    turn loses its mention."""
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    snapshot = bot.service.public_snapshot(table_id)
    seat = snapshot.view.first_player
    first = snapshot.seats[seat].user_id
    other = 201 if first == HOST else HOST
    assert first is not None
    await bot.service.play.act(table_id, other, 0, "peek 3 4")
    with bot.tables.follower.answering(table_id, first):
        await bot.service.play.act(table_id, first, 0, "peek 3 4")
        await bot.notifier.drain()
    assert bot.service.public_snapshot(table_id).to_act == (seat,)
    assert [s for s in channel.sent if s["content"]] == []

    async def whole_turn(user_id: int) -> None:
        turn = bot.service.public_snapshot(table_id).to_act
        while bot.service.public_snapshot(table_id).to_act == turn:
            legal = (await bot.service.play.private_view(table_id, user_id)).legal
            move = next((m for m in ("draw", "discard", "skip") if m in legal), legal[0])
            await bot.service.play.act(table_id, user_id, 0, move)

    await whole_turn(first)
    await bot.notifier.drain()
    (mention,) = [s["content"] for s in channel.sent if s["content"]]
    assert mention.startswith(f"<@{other}>, your turn")
    await whole_turn(other)
    await bot.notifier.drain()
    assert [s["content"] for s in channel.sent if s["content"]][-1].startswith(f"<@{first}>")


async def test_the_next_round_drops_the_round_end_picture_from_the_one_message(
    bot: CardTableBot,
) -> None:
    """The round's end is shown with its picture in the table's one message; the next round,
    shown in the same message, no longer carries it (cards as text: nothing replaces it)."""
    bot.pictures.enabled = False
    table_id = await lobby(bot)
    channel: FakeChannel = bot.channel  # type: ignore[attr-defined]
    await bot.service.seating.join(table_id, PlayerRef(201, "Guest"))
    await bot.service.seating.start(table_id, HOST)
    await end_round_quickly(bot.service, table_id)
    await bot.notifier.drain()
    message_id = (await bot.locations.get(table_id)).message_id
    (attached,) = [kw["attachments"] for _, kw in channel.edits if kw.get("attachments")]
    assert [f.filename for f in attached] == [bot.notifier._pictured[table_id][1]]
    edits_before = len(channel.edits)
    await bot.service.play.next_round(table_id, HOST)
    await bot.notifier.drain()
    (next_round,) = channel.edits[edits_before:]
    assert next_round[0] == message_id
    assert next_round[1]["attachments"] == []
    assert "attachment://" not in shown(next_round[1])
