"""A whole bot for tests that need no Discord: a real store in a temp folder, a fake clock,
no command sync."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.app import CardTableBot, create_bot
from bot.runtime.runner import InlinePolicyRunner
from bot.service import FakeClock
from bot.settings import Settings
from storage import Store

# Tests that do not look at pacing edit as fast as they like (Discord's limit is on real time).
UNPACED = (100_000, 1.0)


@asynccontextmanager
async def offline_bot(tmp_path: Path, **options: Any) -> AsyncIterator[CardTableBot]:
    """`options` go to `create_bot` (a seed source, an edit delay...)."""
    store = await Store.open(tmp_path / "bot.sqlite3", synchronous="NORMAL")
    settings = Settings(_env_file=None, DISCORD_TOKEN="t")  # type: ignore[call-arg]
    options.setdefault("channel_edits", UNPACED)
    options.setdefault("policy_runner", InlinePolicyRunner())  # seeded bot moves, no process
    options.setdefault("card_pictures", False)  # cards as text, no picture to draw
    made = create_bot(settings, store=store, clock=FakeClock(), sync_commands=False, **options)
    await made.setup_hook()
    try:
        yield made
    finally:
        await made.stop_background()
        await made.tables.close()
        await made.notifier.close()
        await store.close()
