"""How soon the bot's gateway comes back after Discord's does.

It sets the waits between attempts to reconnect (discord.py's exponential backoff with jitter,
capped at 8 s instead of 17 minutes), and the pause before an IDENTIFY (5 s after the previous
one, as Discord asks, not 5 s always).

discord.py draws each wait in [0, 2**n] s, n growing by one per failed attempt up to 10, and
forgets the failures only after 34 minutes of calm. After a minute of outage a wait is drawn
in [0, 128] s, so the bot came back up to two minutes after Discord did (and the same after
any later blip within the half hour): tables stuck although nothing was wrong any more. Capped
at 2**3 s, a bot reconnects within 8 s of the gateway's return, still jittered (many bots
reconnecting at once do not do so in step) and never more than once a few seconds while it
is down. `install` puts it where discord.py's reconnecting loops (the client's, each shard's)
make theirs.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

import discord.client
import discord.shard

MAX_EXPONENT = 3  # the longest wait: 2**3 = 8 s
RESET_AFTER = 2**11  # seconds of calm after which the waits start short again (discord.py's)
IDENTIFY_SPACING = 5.0  # seconds: Discord takes one IDENTIFY per 5 s of a bot (max_concurrency 1)


class ReconnectBackoff:
    """The delay before the next reconnection attempt (discord.py's `ExponentialBackoff`
    interface: `delay()`), drawn in [0, 2**n] s with n capped at `MAX_EXPONENT`."""

    def __init__(self, base: int = 1, *, integral: bool = False) -> None:
        self._base = base
        self._integral = integral
        self._exponent = 0
        self._last = time.monotonic()
        self._random = random.Random()

    def delay(self) -> float:
        now = time.monotonic()
        if now - self._last > self._base * RESET_AFTER:
            self._exponent = 0
        self._last = now
        self._exponent = min(self._exponent + 1, MAX_EXPONENT)
        longest = self._base * 2**self._exponent
        if self._integral:
            return float(self._random.randrange(0, longest))
        return self._random.uniform(0, longest)


class IdentifySpacing:
    """Keeps a bot's IDENTIFYs 5 s apart, as Discord's limit asks, and no further.

    discord.py sleeps 5 s before every IDENTIFY but the first, however long ago that was: a
    session Discord invalidates after an outage cost 5 s more on top of the reconnection.
    Here an IDENTIFY waits only what is left of 5 s since the previous one (shards starting
    one after the other still go 5 s apart)."""

    def __init__(
        self,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._now = now
        self._sleep = sleep
        self._last: float | None = None

    async def before_identify(self) -> None:
        if self._last is not None:
            left = self._last + IDENTIFY_SPACING - self._now()
            if left > 0:
                await self._sleep(left)
        self._last = self._now()


def install() -> None:
    """discord.py's reconnecting loops draw their waits from `ReconnectBackoff` from now on."""
    discord.client.ExponentialBackoff = ReconnectBackoff  # type: ignore[assignment,misc]
    discord.shard.ExponentialBackoff = ReconnectBackoff  # type: ignore[assignment,misc]
