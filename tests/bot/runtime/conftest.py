"""The runtime's tests share the service tests' store, fake clock and seeds (some run a table
to see the runtime play its bots)."""

from __future__ import annotations

from tests.bot.service.conftest import clock, db_path, notifier, seeds, store

__all__ = ["clock", "db_path", "notifier", "seeds", "store"]
