"""Card pictures on messages: drawn off the event loop and once, reused while unchanged, and a
click's answer never waits for one."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from concurrent.futures.process import BrokenProcessPool

import discord
import pytest

from bot.pictures.layout import CardPicture, CardRow
from bot.render.table import RenderedMessage, with_cards
from bot.ui import message_pictures as ui_pictures
from bot.ui.message_pictures import CardPictures, _Drawers, in_drawing_process

HAND = (CardRow("Ann", ("QH", None)),)


def rendered(rows: tuple[CardRow, ...] = HAND) -> RenderedMessage:
    embed = discord.Embed(title="My cards")
    return RenderedMessage(embed, (), cards=with_cards(embed, "hand", rows))


async def test_a_picture_is_drawn_in_a_drawing_process_once_and_then_reused() -> None:
    pictures = CardPictures()
    pictures.deadline = float("inf")  # a loaded machine may start its drawing slowly
    assert pictures._draw is ui_pictures._in_process  # the bot's pictures: never in its process
    first = rendered()
    assert first.cards is not None
    prepared = await pictures.complete(1, first)
    # the drawing processes are others than the bot's, and yield the CPU to it
    assert await in_drawing_process(os.getpid) != os.getpid()
    theirs = await in_drawing_process(os.getpriority, os.PRIO_PROCESS, 0)
    assert theirs > os.getpriority(os.PRIO_PROCESS, 0)
    assert prepared.attachments is not None and len(prepared.attachments) == 1
    assert prepared.embed.image.url == f"attachment://{first.cards.filename}"
    # the same picture on the same message again: kept, not uploaded again
    again = await pictures.complete(1, rendered())
    assert again.attachments is None and again.embed.image.url == prepared.embed.image.url
    # another message showing it: uploaded, but not drawn again
    other = await pictures.complete(2, rendered())
    assert other.attachments is not None
    assert pictures.draws == 1 and pictures.uploads == 2 and pictures.kept == 1
    # a changed hand: a new file replaces the old one
    changed = await pictures.complete(1, rendered((CardRow("Ann", ("QH", "7D")),)))
    assert changed.attachments is not None and pictures.draws == 2
    # no picture any more (a lobby, the round's end): the old file leaves the message
    gone = pictures.answer(1, RenderedMessage(discord.Embed(), ()))
    assert gone.attachments == []


async def test_a_click_s_answer_goes_out_without_a_picture_not_yet_drawn_and_it_follows() -> None:
    gate = asyncio.Event()

    async def slow(picture: CardPicture) -> bytes:
        await gate.wait()
        return picture.png()

    pictures = CardPictures(draw=slow)
    answer = pictures.answer(7, rendered())
    assert answer.waiting is not None and answer.embed.image.url is None
    assert answer.attachments is None
    edits: list[tuple[str | None, list[str]]] = []

    async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
        edits.append((latest.embed.image.url, [f.filename for f in files]))

    following = asyncio.create_task(pictures.follow_up(7, answer.waiting, edit))
    await asyncio.sleep(0)
    assert edits == []  # still drawing: the answer was not held up
    gate.set()
    await following
    filename = answer.waiting.filename
    assert edits == [(f"attachment://{filename}", [filename])]


async def test_a_picture_an_answer_replaced_meanwhile_is_not_edited_in() -> None:
    gate = asyncio.Event()

    async def slow(picture: CardPicture) -> bytes:
        await gate.wait()
        return picture.png()

    pictures = CardPictures(draw=slow)
    old = pictures.answer(7, rendered())
    pictures.answer(7, rendered((CardRow("Ann", ("QH", "7D")),)))  # the next click's answer
    edits: list[object] = []

    async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
        edits.append(files)

    gate.set()
    assert old.waiting is not None
    await pictures.follow_up(7, old.waiting, edit)
    assert edits == []


async def test_a_click_s_answer_s_picture_is_drawn_before_the_table_pictures_waiting() -> None:
    """Under load the player who clicked is looking at their message: their hand comes first."""
    started: list[str] = []
    gates: dict[str, asyncio.Event] = {}
    both_drawing, a_table_drawing = asyncio.Event(), asyncio.Event()

    async def gated(picture: CardPicture) -> bytes:
        label = picture.rows[0].label
        started.append(label)
        if len(started) == 2:
            both_drawing.set()
        if label.startswith("table"):
            a_table_drawing.set()
        gate = gates.setdefault(label, asyncio.Event())
        await gate.wait()
        return picture.png()

    def table(label: str) -> RenderedMessage:
        return rendered((CardRow(label, ("7D",)),))

    pictures = CardPictures(draw=gated)
    busy = [asyncio.create_task(pictures.complete(n, table(f"busy{n}"))) for n in range(2)]
    waiting = [asyncio.create_task(pictures.complete(10 + n, table(f"table{n}"))) for n in range(2)]
    answer = pictures.answer(7, rendered())
    assert answer.waiting is not None
    edited = asyncio.Event()

    async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
        edited.set()

    follow = asyncio.create_task(pictures.follow_up(7, answer.waiting, edit))
    await both_drawing.wait()  # both drawers taken; two table pictures, then the hand, wait
    for label in ("busy0", "busy1", "table0", "table1", "Ann"):
        gates.setdefault(label, asyncio.Event())
    gates["busy0"].set()
    gates["Ann"].set()
    either = [asyncio.create_task(e.wait()) for e in (edited, a_table_drawing)]
    await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    assert started[:3] == ["busy0", "busy1", "Ann"]  # the hand went ahead of the tables
    for gate in gates.values():
        gate.set()
    await asyncio.gather(*busy, *waiting, follow, *either)
    assert sorted(started) == ["Ann", "busy0", "busy1", "table0", "table1"]


async def test_a_drawing_given_up_while_it_waits_leaves_its_place_to_the_next() -> None:
    drawers = _Drawers(1)
    await drawers.acquire(False)
    given_up = asyncio.create_task(drawers.acquire(True))
    handed = asyncio.create_task(drawers.acquire(False))
    await asyncio.sleep(0)  # both queued behind the one drawing
    given_up.cancel()
    drawers.release()  # the place passes over the cancelled one
    await handed
    drawers.release()
    assert drawers._free == 1  # free again: the next drawing starts at once


async def test_a_drawing_process_that_dies_loses_its_picture_only_and_is_replaced() -> None:
    with pytest.raises(BrokenProcessPool):  # a process dies in the middle of a drawing
        await in_drawing_process(os._exit, 1)
    pictures = CardPictures()  # the next picture is drawn by new processes
    pictures.deadline = float("inf")  # new processes may start slowly on a loaded machine
    assert await pictures.draw(CardPicture("hand", HAND)) is not None


async def test_an_edit_of_a_message_carrying_its_picture_draws_nothing_once_it_left_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[str] = []

    async def draw(picture: CardPicture) -> bytes:
        drawn.append(picture.filename)
        return b"png"

    monkeypatch.setattr(ui_pictures, "DRAWN", 1)  # one picture kept drawn
    pictures = CardPictures(draw=draw)
    first = await pictures.complete(1, rendered())
    assert first.attachments is not None and len(drawn) == 1
    other = await pictures.complete(2, rendered((CardRow("Bob", ("7D",)),)))  # takes its place
    assert other.attachments is not None and len(drawn) == 2
    # message 1 still carries its picture: the edit keeps it, and nothing is drawn for it
    again = await pictures.complete(1, rendered())
    assert again.attachments is None and len(drawn) == 2 and pictures.kept == 1
    # another message showing it needs the file: drawn anew, uploaded
    shown = await pictures.complete(3, rendered())
    assert shown.attachments is not None and len(drawn) == 3


async def test_a_table_message_waits_no_longer_than_the_deadline_for_a_hung_drawing() -> None:
    """Both drawing processes stopped (SIGSTOP): an edit off the click's path goes at the
    picture's deadline with its text alone, and no picture waits for them."""
    processes = ui_pictures.drawing_processes()
    try:
        await asyncio.gather(in_drawing_process(os.getpid), in_drawing_process(os.getpid))
        assert len(processes.pids()) == ui_pictures.DRAWERS
        for pid in processes.pids():
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)
        pictures = CardPictures()
        pictures.deadline = 0.2
        table = rendered((CardRow("Table", ("7D", "8D")),))
        prepared = await pictures.complete(1, table)
        assert prepared.attachments is None and prepared.waiting == table.cards  # drawn on
        assert prepared.embed.image.url is None  # the text alone
        assert pictures.late == 1 and pictures.draws == 0
    finally:
        processes.close()  # the stopped ones are killed: the drawing fails
    assert await pictures.draw(table.cards, patient=True) is None
    assert pictures.draws == 0


async def test_a_picture_late_for_a_table_edit_is_drawn_on_and_the_next_edit_carries_it() -> None:
    """The edit goes with its text alone at the deadline; the drawing is not dropped (nor
    started again): once drawn, `when_drawn` says so, and the next edit carries it."""
    gate = asyncio.Event()
    started: list[str] = []

    async def slow(picture: CardPicture) -> bytes:
        started.append(picture.filename)
        await gate.wait()
        return picture.png()

    pictures = CardPictures(draw=slow)
    pictures.deadline = 0.05  # the production deadline, shorter for the test
    table = rendered((CardRow("Table", ("7D", "8D")),))
    late = await pictures.complete(1, table)
    assert late.waiting == table.cards and late.embed.image.url is None
    assert late.attachments is None and pictures.late == 1
    drawn = asyncio.Event()
    pictures.when_drawn(table.cards, drawn.set)
    assert (await pictures.complete(1, table)).waiting == table.cards  # late again, same drawing
    gate.set()
    await drawn.wait()
    again = await pictures.complete(1, table)
    assert again.attachments is not None and again.embed.image.url is not None
    assert started == [table.cards.filename] and pictures.draws == 1
    told: list[str] = []  # asked once it is drawn: told at once
    pictures.when_drawn(table.cards, lambda: told.append("drawn"))
    await asyncio.sleep(0)  # the callback's turn of the loop, not a wait for time
    assert told == ["drawn"]


async def test_a_hand_s_picture_late_for_its_edit_follows_in_place() -> None:
    """A followed hand's edit went without its picture at the deadline: the picture is
    edited in once drawn, with what the message shows by then."""
    gate = asyncio.Event()

    async def slow(picture: CardPicture) -> bytes:
        await gate.wait()
        return picture.png()

    pictures = CardPictures(draw=slow)
    pictures.deadline = 0.05
    hand = rendered()
    late = await pictures.complete(7, hand)
    assert late.waiting is not None
    edits: list[list[str]] = []

    async def edit(latest: RenderedMessage, files: list[discord.File]) -> None:
        edits.append([f.filename for f in files])

    pictures.deadline = 0.0  # the follow-up waits for the drawing itself, not a deadline
    following = asyncio.create_task(pictures.follow_up(7, late.waiting, edit))
    await asyncio.sleep(0)
    assert edits == []
    gate.set()
    await following
    assert edits == [[late.waiting.filename]]


def test_an_edit_sends_files_only_when_there_are_new_ones() -> None:
    """`attachments=` replaces a message's files: left out, the message keeps its picture."""
    embed = discord.Embed(title="t")
    assert ui_pictures.Prepared(embed, None).edit_files() == {}
    files = [discord.File(io.BytesIO(b"png"), filename="cards.png")]
    assert ui_pictures.Prepared(embed, files).edit_files() == {"attachments": files}
    assert ui_pictures.Prepared(embed, []).edit_files() == {"attachments": []}  # drops them
