"""Table messages keep up within Discord's per-channel edit limit: with a thousand tables
refreshed after a restart in one channel, the table being played is edited at once, and no
window of the channel ever holds more edits than Discord allows (no 429)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.app import CardTableBot
from bot.service import FakeClock, PlayerRef
from bot.ui.discord_notifier import turn_of
from bot.ui.pacer import ChannelPacer
from storage import TurnMention
from tests.bot.bots import offline_bot
from tests.bot.ui.test_discord_notifier import http_error

GUILD, CHANNEL = 1, 10
RESTORED = 1_000
EDITS, PER = 5, 5.0


class RateLimitedChannel:
    """One Discord channel: edits limited to EDITS per PER seconds of the clock (a 429 past
    it), each noted with its time and table message; posts and deletes limited the same way
    (counted together), each post noted with its time, id and words."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.edits: list[tuple[float, int]] = []  # (time, message id)
        self.refused = 0
        self.posts: list[tuple[float, int, str | None]] = []  # (time, message id, content)
        self.deleted: list[tuple[float, int]] = []  # (time, message id)
        self.refused_posts = 0
        self.edited = asyncio.Event()
        self._ids = iter(range(50_000, 10**9))

    def _post_refused(self) -> bool:
        now = self.clock.now()
        done = [t for t, *_ in self.posts] + [t for t, _ in self.deleted]
        if sum(1 for t in done if t > now - PER) >= EDITS:
            self.refused_posts += 1
            return True
        return False

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        if self._post_refused():
            raise http_error(429)
        message_id = next(self._ids)
        self.posts.append((self.clock.now(), message_id, content))
        return SimpleNamespace(id=message_id)

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                now = channel.clock.now()
                recent = [t for t, _ in channel.edits if t > now - PER]
                if len(recent) >= EDITS:
                    channel.refused += 1
                    raise http_error(429)
                channel.edits.append((now, message_id))
                channel.edited.set()

            async def delete(self) -> None:  # a turn mention, once played: not an edit
                if channel._post_refused():
                    raise http_error(429)
                channel.deleted.append((channel.clock.now(), message_id))

        return Partial()


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    async with offline_bot(tmp_path, edit_delay=0.0) as made:
        channel = RateLimitedChannel(made.clock)  # type: ignore[arg-type]
        made.get_partial_messageable = lambda channel_id, **_: channel  # type: ignore[method-assign]
        made.channel = channel  # type: ignore[attr-defined]
        made.notifier.pacer = ChannelPacer(made.clock, edits=EDITS, per=PER)
        made.notifier.posts = ChannelPacer(made.clock, edits=EDITS, per=PER)
        yield made


async def run_ready(rounds: int = 30) -> None:
    """Let every task woken so far run its (I/O-free) course."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def test_the_clicked_table_is_edited_at_once_among_a_thousand_refreshes(
    bot: CardTableBot,
) -> None:
    channel: RateLimitedChannel = bot.channel  # type: ignore[attr-defined]
    clock: FakeClock = bot.clock  # type: ignore[assignment]
    played = (
        await bot.service.seating.open_table(GUILD, CHANNEL, PlayerRef(1, "Ann"), "dutch")
    ).table_id
    bot.notifier.clicked(played)  # joined and started by clicks
    await bot.service.seating.join(played, PlayerRef(2, "Bob"))
    await bot.service.seating.start(played, 1)
    opened = await asyncio.gather(
        *(
            bot.service.seating.open_table(GUILD, CHANNEL, PlayerRef(100 + user, "P"), "dutch")
            for user in range(RESTORED)
        )
    )
    restored = [snapshot.table_id for snapshot in opened]
    messages = {table_id: 10_000 + table_id for table_id in [played, *restored]}
    await asyncio.gather(*(bot.locations.set_message(t, m) for t, m in messages.items()))
    await bot.notifier.drain()
    channel.edits.clear()
    channel.posts.clear()

    for table_id in restored:  # what the start-up does for every restored table
        bot.notifier.refresh(table_id)
    await run_ready()
    assert len(channel.edits) < EDITS  # one edit of each window is kept for clicks

    lags = []
    for step in range(40):
        if step % 8 == 0:  # a player acts: their table's message must follow at once
            snapshot = bot.service.public_snapshot(played)
            seat = snapshot.to_act[0]
            user = snapshot.seats[seat].user_id
            assert user is not None
            legal = (await bot.service.play.private_view(played, user)).legal
            clicked_at = clock.now()
            bot.notifier.clicked(played)  # as the controller says at every click
            await bot.service.play.act(played, user, snapshot.round_no or 0, legal[0])
            await run_ready()
            shown = [t for t, m in channel.edits if m == messages[played] and t >= clicked_at]
            assert shown, f"the table in play waited (step {step})"
            lags.append(shown[0] - clicked_at)
        await clock.advance(1.0)
        await run_ready()

    assert channel.refused == 0
    assert max(lags) < 1.0
    times = [t for t, _ in channel.edits]
    assert all(sum(1 for u in times if t <= u < t + PER) <= EDITS for t in times)
    refreshed = {m for _, m in channel.edits} - {messages[played]}
    assert len(refreshed) >= 2 * 40 // PER - EDITS  # the refreshes go on meanwhile
    assert all(sum(1 for _, m in channel.edits if m == message) == 1 for message in refreshed), (
        "a refresh was sent twice"
    )


async def take_turns(pacer: ChannelPacer, clock: FakeClock, tables: list[int]) -> list[int]:
    """Each table asks for a turn in one channel, in this order; the order they get them in,
    the clock moving on a second at a time."""
    served: list[int] = []

    async def edit(table_id: int) -> None:
        async with pacer.turn(CHANNEL, table_id):
            served.append(table_id)

    tasks = [asyncio.create_task(edit(table_id)) for table_id in tables]
    await run_ready()
    for _ in range(60):
        if all(task.done() for task in tasks):
            break
        await clock.advance(1.0)
        await run_ready()
    await asyncio.gather(*tasks)
    return served


async def test_clicked_tables_go_first_then_changed_ones_then_refreshes() -> None:
    clock = FakeClock()
    pacer = ChannelPacer(clock, edits=EDITS, per=PER)
    pacer.clicked(99)
    assert await take_turns(pacer, clock, [99] * EDITS) == [99] * EDITS  # the window is full
    pacer.changed(3)
    pacer.clicked(4)
    pacer.changed(4)  # a clicked table stays first
    waiting = asyncio.create_task(take_turns(pacer, clock, [1, 2, 3, 4, 5]))
    await run_ready()
    pacer.clicked(5)  # clicked while its refresh waits: it moves up
    assert await waiting == [4, 5, 3, 1, 2]


async def test_the_others_turns_are_spread_over_the_window_so_a_click_finds_one_soon() -> None:
    clock = FakeClock()
    pacer = ChannelPacer(clock, edits=EDITS, per=PER)
    times: list[float] = []

    async def refresh(table_id: int) -> None:
        async with pacer.turn(CHANNEL, table_id):
            times.append(clock.now())

    refreshes = [asyncio.create_task(refresh(table_id)) for table_id in range(100, 110)]
    await run_ready()
    for _ in range(4):
        await clock.advance(PER / (EDITS - 1))
        await run_ready()
    assert len(times) == EDITS  # the first at once, then one each quarter window
    assert all(b - a >= PER / (EDITS - 1) for a, b in itertools.pairwise(times))
    for moves in range(3):  # a table is played: each move is served within a second or two
        clicked_at = clock.now()
        pacer.clicked(1)
        served = asyncio.create_task(take_turns(pacer, clock, [1]))
        await run_ready()
        while not served.done():
            await clock.advance(0.25)
            await run_ready()
        assert clock.now() - clicked_at <= PER / (EDITS - 1), f"move {moves} waited"
        await clock.advance(1.5)
        await run_ready()
    for task in refreshes:
        task.cancel()
    await asyncio.gather(*refreshes, return_exceptions=True)


async def test_a_turn_holds_its_place_until_done_so_slow_requests_never_arrive_together() -> None:
    """A request may reach Discord long after its turn was granted (its picture is drawn
    first): the window counts it until it is done, however long that takes."""
    clock = FakeClock()
    pacer = ChannelPacer(clock, edits=EDITS, per=PER)
    drawn = asyncio.Event()
    arrivals: list[float] = []

    async def slow_edit(table_id: int) -> None:
        async with pacer.turn(CHANNEL, table_id):
            await drawn.wait()
            arrivals.append(clock.now())

    pacer.clicked(1)
    tables = [1, 1, *range(100, 110)]
    edits = [asyncio.create_task(slow_edit(table_id)) for table_id in tables]
    for _ in range(12):  # long past every grant's window, nothing done yet
        await run_ready()
        await clock.advance(PER)
    drawn.set()
    for _ in range(60):
        await run_ready()
        if all(edit.done() for edit in edits):
            break
        await clock.advance(0.5)
    assert all(edit.done() for edit in edits)
    assert len(arrivals) == len(tables)
    assert max(sum(1 for t in arrivals if start <= t < start + PER) for start in arrivals) <= EDITS


async def test_a_turn_granted_then_cancelled_gives_its_place_back() -> None:
    clock = FakeClock()
    pacer = ChannelPacer(clock, edits=1, per=PER)
    entered: list[int] = []

    async def edit(table_id: int) -> None:
        async with pacer.turn(CHANNEL, table_id):
            entered.append(table_id)

    pacer.clicked(1)
    pacer.clicked(2)
    first = asyncio.create_task(edit(1))
    while CHANNEL not in pacer._channels or not pacer._channels[CHANNEL].flying:
        await asyncio.sleep(0)  # until the turn is granted (the edit not yet resumed)
    assert not entered
    first.cancel()
    await asyncio.gather(first, return_exceptions=True)
    assert entered == []
    second = asyncio.create_task(edit(2))
    await run_ready()
    assert second.done() and entered == [2]  # at once: the cancelled turn sent nothing


MENTIONED = 12  # tables whose turn moves to one player at once, in one channel


async def act_first(bot: CardTableBot, table_id: int) -> None:
    """The first seat to act plays its first legal action."""
    snapshot = bot.service.public_snapshot(table_id)
    user = snapshot.seats[snapshot.to_act[0]].user_id
    assert user is not None
    legal = (await bot.service.play.private_view(table_id, user)).legal
    await bot.service.play.act(table_id, user, snapshot.round_no or 0, legal[0])


async def test_turn_mentions_are_paced_in_their_channel_and_a_turn_over_is_not_mentioned(
    bot: CardTableBot,
) -> None:
    channel: RateLimitedChannel = bot.channel  # type: ignore[attr-defined]
    clock: FakeClock = bot.clock  # type: ignore[assignment]
    tables = []
    for n in range(MENTIONED):
        host, guest = PlayerRef(1_000 + 2 * n, "Ann"), PlayerRef(1_001 + 2 * n, "Bob")
        table_id = (await bot.service.seating.open_table(GUILD, CHANNEL, host, "dutch")).table_id
        await bot.locations.set_message(table_id, 10_000 + table_id)
        await bot.service.seating.join(table_id, guest)
        await bot.service.seating.start(table_id, host.user_id)
        tables.append(table_id)
    for table_id in tables:  # everyone peeks, then one player's turn starts at every table
        while bot.service.public_snapshot(table_id).view.phase == "peek":
            await act_first(bot, table_id)
    await run_ready()
    last = tables[-1]
    first_turn = turn_of(bot.service.public_snapshot(last))
    assert first_turn is not None
    while turn_of(bot.service.public_snapshot(last)) == first_turn:  # over before its mention
        await act_first(bot, last)
    for _ in range(40):  # each round's new table message, then the mentions (no reminder yet)
        mentioned = [content or "" for _, _, content in channel.posts]
        if sum("your turn" in words for words in mentioned) == MENTIONED:
            break
        await clock.advance(1.0)
        await run_ready()

    assert channel.refused_posts == 0
    times = [t for t, *_ in channel.posts] + [t for t, _ in channel.deleted]
    assert all(sum(1 for u in times if t <= u < t + PER) <= EDITS for t in times)
    mentioned = [content or "" for _, _, content in channel.posts]
    for table_id in tables:
        snapshot = bot.service.public_snapshot(table_id)
        turn = turn_of(snapshot)
        assert turn is not None
        user = snapshot.seats[turn[0]].user_id
        assert sum(f"<@{user}>" in words for words in mentioned) == 1, table_id
    left_behind = bot.service.public_snapshot(last).seats[first_turn[0]].user_id
    assert not any(f"<@{left_behind}>" in words for words in mentioned)


async def test_a_turn_says_whether_it_was_held_back_for_the_channels_window() -> None:
    clock = FakeClock()
    pacer = ChannelPacer(clock, edits=1, per=PER)
    waited = []

    async def edit(table_id: int) -> None:
        async with pacer.turn(CHANNEL, table_id) as turn:
            waited.append(turn.waited)

    first = asyncio.create_task(edit(1))
    await run_ready()
    second = asyncio.create_task(edit(2))
    await run_ready()
    await clock.advance(PER)
    await run_ready()
    await asyncio.gather(first, second)
    assert waited == [False, True]  # the second waited for the window: paced


async def test_a_closing_edit_waits_for_its_turn_in_a_full_window(bot: CardTableBot) -> None:
    channel: RateLimitedChannel = bot.channel  # type: ignore[attr-defined]
    clock: FakeClock = bot.clock  # type: ignore[assignment]
    table_id = (
        await bot.service.seating.open_table(GUILD, CHANNEL, PlayerRef(1, "Ann"), "dutch")
    ).table_id
    message_id = 10_000 + table_id
    await bot.locations.set_message(table_id, message_id)
    await bot.notifier.render(table_id)  # as its message shows it
    bot.notifier.clicked(99)
    for _ in range(EDITS):  # another table's edits fill the channel's window
        async with bot.notifier.pacer.turn(CHANNEL, 99):
            await channel.get_partial_message(99).edit()
    await bot.service.seating.cancel(table_id, 1)
    await run_ready()
    assert channel.refused == 0  # it waits rather than meet a 429
    for _ in range(int(PER) + 1):
        await clock.advance(1.0)
        await run_ready()
    assert channel.refused == 0
    assert [m for _, m in channel.edits].count(message_id) == 1  # shown closed, once


async def test_a_table_that_cannot_be_restored_has_its_kept_mention_deleted(
    bot: CardTableBot,
) -> None:
    channel: RateLimitedChannel = bot.channel  # type: ignore[attr-defined]
    table_id = (
        await bot.service.seating.open_table(GUILD, CHANNEL, PlayerRef(1, "Ann"), "dutch")
    ).table_id
    kept = TurnMention(table_id=table_id, channel_id=CHANNEL, message_id=777, seat=0, round_no=0)
    await bot.store.save_turn_mention(kept)
    bot.notifier.adopt_mentions(await bot.store.turn_mentions())  # as the start does
    bot.notifier.table_lost(table_id)  # found broken by the restore
    await bot.notifier.drain()
    assert [message for _, message in channel.deleted] == [777]
    assert await bot.store.turn_mentions() == []
