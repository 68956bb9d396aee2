"""The bridge between the bot and the Activity's own process: the snapshots it carries build the
very frames the bot would build (so the leak checks on those hold there too), a broken message
breaks it, and a question it does not know is refused."""

from __future__ import annotations

import asyncio
import pickle
import socket
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from types import SimpleNamespace

import pytest

from bot.activity.bridge import (
    HEADER,
    MAX_MESSAGE,
    BridgeBroken,
    Message,
    ProcessSettings,
    receive,
    send,
)
from bot.activity.changes import Trimmed, log_kept, restored, trimmed
from bot.activity.process import ActivityProcess
from bot.activity.remote import Changed, RemoteTables, _handle
from bot.activity.tables import ActivityTables
from bot.runtime.long_lived import LongLived
from bot.service.errors import TableError
from bot.snapshots import LogEntry, SeatInfo
from tests.bot.activity.conftest import ActivityRig, all_read
from tests.bot.activity.test_server import open_table
from tests.bot.render.snapshots import public

# the process is not started in these tests: its settings are never read
SEAT = SeatInfo(0, 7, "Ann", is_bot=False)
SETTINGS = ProcessSettings("http://127.0.0.1:9", "1", "secret", None, "INFO", "text")
Ends = tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.StreamReader, asyncio.StreamWriter]


@asynccontextmanager
async def bridge() -> AsyncIterator[Ends]:
    """Both ends of a bridge: the bot's reader and writer, then the process's."""
    ours, theirs = socket.socketpair()
    bot_reader, bot_writer = await asyncio.open_connection(sock=ours)
    reader, writer = await asyncio.open_connection(sock=theirs)
    try:
        yield bot_reader, bot_writer, reader, writer
    finally:
        bot_writer.close()
        writer.close()


async def test_frames_built_from_snapshots_sent_over_the_bridge_are_the_bots_frames(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dame", ("alice", "bob", "carol", "dave"))
    users = [rig.player(name).user_id for name in ("alice", "bob", "carol", "erin")]
    viewers = [(user, language) for user in users for language in ("en", "fr")]
    tables = ActivityTables(rig.service)
    async with bridge() as (_bot_reader, bot_writer, reader, writer):
        public, privates = tables.seen_now(table_id, users)
        assert public is not None and public.options  # read-only options, sent as they are
        send(bot_writer, ("changed", table_id, Trimmed(public, 0, ()), privates))
        message = await receive(reader)
        assert message is not None
        remote = RemoteTables(writer)
        remote.page_opened(table_id, users[0])
        remote.changed(table_id, message[2], message[3])
        assert all_read(remote.frames_now(table_id, viewers)) == all_read(
            tables.frames_now(table_id, viewers)
        )


async def test_a_table_not_sent_is_asked_of_the_bot_page_by_page(rig: ActivityRig) -> None:
    async with bridge() as (_bot_reader, _bot_writer, _reader, writer):
        assert RemoteTables(writer).frames_now(1, [(5, "en")]) == {(5, "en"): None}


async def test_a_refusal_over_the_bridge_is_the_services_refusal(rig: ActivityRig) -> None:
    async with bridge() as (bot_reader, _bot_writer, _reader, writer):
        remote = RemoteTables(writer)
        asked = asyncio.ensure_future(remote.at_channel(3, 4))
        call = await receive(bot_reader)
        assert call is not None and call[0] == "call" and call[2:] == ("at_channel", (3, 4))
        remote.answered(call[1], False, ("not_seated", {}))
        with pytest.raises(TableError) as refused:
            await asked
        assert refused.value.key == "not_seated"


async def test_a_question_the_bridge_does_not_know_is_refused(rig: ActivityRig) -> None:
    process = ActivityProcess(ActivityTables(rig.service), SETTINGS)
    async with bridge() as (bot_reader, bot_writer, reader, writer):
        process._writer = bot_writer  # the bot's end, as once the process started
        send(writer, ("call", 7, "close_table", (1,)))
        writer.write_eof()
        await process._serve(bot_reader)
        await asyncio.gather(*process._answers)
        assert await receive(reader) == ("reply", 7, False, ("bad_button", {}))


async def test_a_message_too_long_or_not_a_message_breaks_the_bridge() -> None:
    async with bridge() as (_bot_reader, bot_writer, reader, _writer):
        bot_writer.write(HEADER.pack(MAX_MESSAGE + 1))
        with pytest.raises(BridgeBroken):
            await receive(reader)
    async with bridge() as (_bot_reader, bot_writer, reader, _writer):
        body = pickle.dumps(["not", "a", "tuple"])
        bot_writer.write(HEADER.pack(len(body)) + body)
        with pytest.raises(BridgeBroken):
            await receive(reader)
    async with bridge() as (_bot_reader, bot_writer, reader, _writer):
        bot_writer.write_eof()
        assert await receive(reader) is None  # the other end closed: no message, no error


async def one_change(reader: asyncio.StreamReader) -> Message:
    """The next batch of changes from the bot, which holds one change: that change."""
    message = await receive(reader)
    assert message is not None and message[0] == "changes" and len(message[1]) == 1
    return tuple(message[1][0])


async def test_changes_close_together_go_in_one_message_before_any_other(
    rig: ActivityRig,
) -> None:
    """The changes of a few milliseconds go as one message (one pickle, one write); a message
    of another kind sends those waiting first, so the process reads all in order."""
    first = await open_table(rig, "dutch", ("alice", "bob"))
    second = await open_table(rig, "euchre", ("carol", "dave"))
    process = ActivityProcess(ActivityTables(rig.service), SETTINGS)
    for table_id, name in ((first, "alice"), (second, "carol")):
        process.viewers[table_id] = Counter({rig.player(name).user_id: 1})
    async with bridge() as (_bot_reader, bot_writer, reader, _writer):
        process._writer = bot_writer
        process.changed(first)
        process.changed(second)
        process.changed(first)
        process.launched(10, 7, first)
        batch = await receive(reader)
        assert batch is not None and batch[0] == "changes"
        assert [change[1] for change in batch[1]] == [first, second, first]
        assert await receive(reader) == ("launched", 10, 7, first)
        process.changed(second)
        change = await one_change(reader)  # sent once its batch is due
        assert change[1] == second


async def test_a_change_sends_only_the_log_entries_and_fields_the_process_does_not_have(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dutch", ("alice", "bob"))
    alice, bob = (rig.player(name).user_id for name in ("alice", "bob"))
    viewers = [(alice, "en"), (bob, "fr")]
    tables = ActivityTables(rig.service)
    process = ActivityProcess(tables, SETTINGS)
    process.viewers[table_id] = Counter({alice: 1, bob: 1})
    async with bridge() as (_bot_reader, bot_writer, reader, writer):
        process._writer = bot_writer  # the bot's end, as once the process started
        remote = RemoteTables(writer)
        remote.page_opened(table_id, alice)
        process.changed(table_id)
        process.flush()  # not waiting for a batch
        first = await one_change(reader)
        assert first[2] == Trimmed(first[2].public, 0, ())  # all of it
        remote.changed(table_id, *first[2:])
        round_no = rig.service.public_snapshot(table_id).round_no
        assert round_no is not None
        await rig.service.play.act(table_id, alice, round_no, "peek 1 2")
        await rig.service.followup.settle(table_id)
        process.changed(table_id)
        process.flush()
        second = await one_change(reader)
        full = rig.service.public_snapshot(table_id).log
        sent = second[2]
        assert sent.kept > 0 and len(sent.public.log) == len(full) - sent.kept  # the new ones
        assert set(sent.same) == {"options", "seats", "last_round"}  # unchanged: left out
        assert sent.public.options is None and sent.public.seats is None
        remote.changed(table_id, *second[2:])
        public, _privates = remote.latest[table_id]
        assert public == rig.service.public_snapshot(table_id)  # made whole again
        assert all_read(remote.frames_now(table_id, viewers)) == all_read(
            tables.frames_now(table_id, viewers)
        )


def test_the_log_kept_is_the_old_logs_end_where_the_new_one_begins() -> None:
    a, b, c, d = (LogEntry(kind) for kind in "abcd")
    assert log_kept((a, b, c), (b, c, d)) == 2
    assert log_kept((a, b, c), (a, b, c, d)) == 3
    assert log_kept((a, b), (c, d)) == 0  # nothing in common: all of it is sent
    assert log_kept((a, b, c), (b, d)) == 0  # not the old log's end: all of it is sent
    assert log_kept((a, b, c), (LogEntry("b"), c)) == 0  # equal is not the same entry
    assert log_kept((), (a,)) == 0 and log_kept((a,), ()) == 0


def test_a_change_leaves_out_only_what_is_the_same_object_as_before() -> None:
    a, b, c = (LogEntry(kind) for kind in "abc")
    before = replace(public(None, seated=(SEAT,)), log=(a, b), options={"target": 100})
    now = replace(before, log=(a, b, c), seats=(SEAT,), options={"target": 100}, version=2)
    sent = trimmed(before, now)
    # a new tuple of the same seats is the same; equal options that are another dict are not
    assert sent.kept == 2 and sent.public.log == (c,) and sent.same == ("seats", "last_round")
    assert restored(before, sent) == now
    assert restored(None, sent) is None  # the process lacks the one before: its pages ask
    assert restored(None, trimmed(None, now)) == now  # the first change: sent whole


async def test_changes_read_together_are_pushed_once_per_table() -> None:
    pushed: list[int] = []
    server = SimpleNamespace(hub=SimpleNamespace(changed=pushed.append))
    changed = Changed(server)  # type: ignore[arg-type]
    for table_id in (1, 2, 1, 1):  # read from the bridge without waiting between them
        changed.add(table_id)
    assert pushed == []  # not while the reader still reads
    await asyncio.sleep(0)  # the reader waits for the next message: the loop runs the push
    assert pushed == [1, 2]
    changed.add(2)
    await asyncio.sleep(0)
    assert pushed == [1, 2, 2]


async def test_the_process_freezes_what_the_changes_leave_alive_every_so_many_changes() -> None:
    """The tables' snapshots the process keeps are frozen out of the cycle collector's way
    every `moves` changes, as the bot freezes its tables (its full collections took a third
    of the process with a thousand pages)."""
    pushed: list[int] = []
    server = SimpleNamespace(hub=SimpleNamespace(changed=pushed.append))
    long_lived = LongLived(moves=3)
    async with bridge() as (_bot_reader, _bot_writer, _reader, writer):
        tables = RemoteTables(writer)
        for table_id in range(5):
            message = ("changes", [("changed", table_id, None, {})])
            assert _handle(message, tables, server, Changed(server), long_lived)  # type: ignore[arg-type]
    assert long_lived.freezes == 1
