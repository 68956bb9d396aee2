"""The Activity's entry point command: written among the global commands when they are synced
(Discord refuses a bulk update of an Activity's commands without it), in both languages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import CardTableBot
from bot.i18n import text
from bot.ui.entry_point import APP_HANDLER, PRIMARY_ENTRY_POINT, definition, sync_with_entry_point
from tests.bot.bots import offline_bot


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardTableBot]:
    async with offline_bot(tmp_path) as made:
        yield made


async def test_the_global_sync_writes_every_command_and_the_entry_point(
    bot: CardTableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[list[dict[str, Any]]] = []

    async def bulk_upsert(application_id: int, payload: list[dict[str, Any]]) -> list[Any]:
        assert application_id == 42
        written.append(payload)
        return []

    bot._connection.application_id = 42
    monkeypatch.setattr(bot.http, "bulk_upsert_global_commands", bulk_upsert)
    await sync_with_entry_point(bot, bot.tree)
    (payload,) = written
    names = [c["name"] for c in payload]
    assert set(names) >= {c.name for c in bot.tree.get_commands()} and "launch" in names
    (entry,) = [c for c in payload if c.get("type") == PRIMARY_ENTRY_POINT]
    assert entry == definition()
    stats = next(c for c in payload if c["name"] == "stats")
    assert stats["description_localizations"]["fr"] == text("fr", "cmd.stats.desc")


def test_the_entry_point_is_the_bots_to_answer_in_both_languages() -> None:
    entry = definition()
    assert entry["handler"] == APP_HANDLER and entry["type"] == PRIMARY_ENTRY_POINT
    assert entry["name"] == "launch" and entry["name_localizations"] == {"fr": "ouvrir"}
    assert entry["description"] == text("en", "cmd.launch.desc")
    assert entry["description_localizations"] == {"fr": text("fr", "cmd.launch.desc")}
    assert len(entry["description"]) <= 100  # Discord's limit
    assert all(len(d) <= 100 for d in entry["description_localizations"].values())
