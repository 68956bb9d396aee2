"""The cogs' tests' bot: the real one, offline, its notifier recording."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import CardTableBot
from bot.service import RecordingNotifier
from tests.bot.bots import offline_bot


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    async with offline_bot(tmp_path) as made:
        made.service.notifier = RecordingNotifier()
        yield made
