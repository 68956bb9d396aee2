from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.bot.e2e.fake_discord import FakeDiscord, running_fake_discord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with running_fake_discord() as fake:
        yield fake
        assert not fake.unknown_routes, (
            f"the client called routes the fake lacks: {fake.unknown_routes}"
        )
