"""Fixtures shared by the bot's tests that run discord.py against the local Discord server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.local.server import LocalDiscord, running_local_discord


@pytest.fixture
async def fake_discord() -> AsyncIterator[LocalDiscord]:
    """A Discord-compatible server on 127.0.0.1 that fails the test on a route it lacks."""
    async with running_local_discord() as fake:
        yield fake
        assert not fake.unknown_routes, (
            f"the client called routes the fake lacks: {fake.unknown_routes}"
        )
