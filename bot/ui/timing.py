"""Answering within Discord's 3 seconds: run the work, and defer only if it runs late."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3


async def within_deadline(
    work: Awaitable[T], defer: Callable[[], Awaitable[object]], *, after: float = DEFER_AFTER
) -> T:
    """Await `work`; if it is not done after `after` seconds, `defer()` first, then wait."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=after)
    if not done:
        await defer()
    return await task
