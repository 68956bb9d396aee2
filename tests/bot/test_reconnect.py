"""The bot's gateway reconnects within 8 s of Discord's return, however long it was away."""

from __future__ import annotations

import asyncio

import discord.client
import discord.shard
import pytest

from bot.app import create_bot
from bot.reconnect import IDENTIFY_SPACING, MAX_EXPONENT, IdentifySpacing
from bot.settings import Settings

ATTEMPTS_IN_A_LONG_OUTAGE = 60  # discord.py's own waits would reach minutes by then


def test_after_many_failed_reconnections_the_next_wait_stays_under_eight_seconds() -> None:
    create_bot(Settings(_env_file=None, DISCORD_TOKEN="t"))  # type: ignore[call-arg]
    for module in (discord.client, discord.shard):  # the client's loop and each shard's
        backoff = module.ExponentialBackoff()  # type: ignore[attr-defined]
        waits = [backoff.delay() for _ in range(ATTEMPTS_IN_A_LONG_OUTAGE)]
        assert max(waits) <= 2**MAX_EXPONENT == 8
        assert min(waits) >= 0 and len(set(waits)) > 1  # still drawn at random: jitter


class FakeTime:
    """A monotonic clock the test moves, and the sleeps asked of it (never slept)."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.slept: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_an_identify_long_after_the_previous_one_does_not_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = create_bot(Settings(_env_file=None, DISCORD_TOKEN="t"))  # type: ignore[call-arg]
    time = FakeTime()
    bot.identify_spacing = IdentifySpacing(now=lambda: time.now, sleep=time.sleep)
    monkeypatch.setattr(asyncio, "sleep", time.sleep)  # discord.py's own wait, recorded too
    await bot.before_identify_hook(None, initial=True)
    time.now += 600  # the session lived ten minutes, then Discord invalidated it
    await bot.before_identify_hook(None, initial=False)
    assert time.slept == []


async def test_identifies_stay_five_seconds_apart_as_discord_asks() -> None:
    time = FakeTime()
    spacing = IdentifySpacing(now=lambda: time.now, sleep=time.sleep)
    await spacing.before_identify()
    time.now += 1.5
    await spacing.before_identify()  # a second shard, or a session invalidated at once
    await spacing.before_identify()
    assert time.slept == [IDENTIFY_SPACING - 1.5, IDENTIFY_SPACING]
