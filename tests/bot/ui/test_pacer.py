"""Table messages keep up within Discord's per-channel edit limit: with a thousand tables
refreshed after a restart in one channel, the table being played is edited at once, and no
window of the channel ever holds more edits than Discord allows (no 429)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.app import CardTableBot
from bot.service import FakeClock, PlayerRef
from bot.ui.pacer import ChannelPacer
from tests.bot.bots import offline_bot
from tests.bot.ui.test_notifier import http_error

GUILD, CHANNEL = 1, 10
RESTORED = 1_000
EDITS, PER = 5, 5.0


class RateLimitedChannel:
    """One Discord channel: sends, and edits limited to EDITS per PER seconds of the clock
    (a 429 past it), each edit noted with its time and table message."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.edits: list[tuple[float, int]] = []  # (time, message id)
        self.refused = 0
        self.edited = asyncio.Event()
        self._ids = iter(range(50_000, 10**9))

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        return SimpleNamespace(id=next(self._ids))

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
                return None

        return Partial()


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    async with offline_bot(tmp_path, edit_delay=0.0) as made:
        channel = RateLimitedChannel(made.clock)  # type: ignore[arg-type]
        made.get_partial_messageable = lambda channel_id, **_: channel  # type: ignore[method-assign]
        made.channel = channel  # type: ignore[attr-defined]
        made.notifier.pacer = ChannelPacer(made.clock, edits=EDITS, per=PER)
        yield made


async def run_ready(rounds: int = 30) -> None:
    """Let every task woken so far run its (I/O-free) course."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def test_the_table_in_play_is_edited_at_once_among_a_thousand_refreshes(
    bot: CardTableBot,
) -> None:
    channel: RateLimitedChannel = bot.channel  # type: ignore[attr-defined]
    clock: FakeClock = bot.clock  # type: ignore[assignment]
    played = (await bot.service.open_table(GUILD, CHANNEL, PlayerRef(1, "Ann"), "dutch")).table_id
    await bot.service.join(played, PlayerRef(2, "Bob"))
    await bot.service.start(played, 1)
    opened = await asyncio.gather(
        *(
            bot.service.open_table(GUILD, CHANNEL, PlayerRef(100 + user, "P"), "dutch")
            for user in range(RESTORED)
        )
    )
    restored = [snapshot.table_id for snapshot in opened]
    messages = {table_id: 10_000 + table_id for table_id in [played, *restored]}
    await asyncio.gather(*(bot.locations.set_message(t, m) for t, m in messages.items()))
    await bot.notifier.drain()
    channel.edits.clear()

    for table_id in restored:  # what the start-up does for every restored table
        bot.notifier.refresh(table_id)
    await run_ready()
    assert 0 < len(channel.edits) < EDITS  # one edit of each window is kept for play

    lags = []
    for step in range(40):
        if step % 8 == 0:  # a player acts: their table's message must follow at once
            snapshot = bot.service.public_snapshot(played)
            seat = snapshot.to_act[0]
            user = snapshot.seats[seat].user_id
            assert user is not None
            legal = (await bot.service.private_view(played, user)).legal
            clicked_at = clock.now()
            await bot.service.act(played, user, snapshot.round_no or 0, legal[0])
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
