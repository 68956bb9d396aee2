"""The snapshot types load alone: plug-ins and renderers import them without the service."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What loading the service would bring: its package (the process pool among it) and the store.
HEAVY_PREFIXES = ("bot.service", "storage", "multiprocessing", "concurrent.futures.process")


def modules_loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter holds after importing `module` (and nothing else)."""
    script = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "module",
    ["bot.snapshots", "bot.games.dutch.plugin", "bot.games.euchre.plugin", "bot.games.dame.plugin"],
)
def test_importing_snapshot_types_loads_neither_service_nor_pool(module: str) -> None:
    loaded = modules_loaded_by(module)
    assert "bot.snapshots" in loaded
    heavy = [name for name in loaded if name.startswith(HEAVY_PREFIXES)]
    assert heavy == []


def test_snapshot_leaf_imports_nothing_of_the_bot() -> None:
    loaded = modules_loaded_by("bot.snapshots")
    assert [name for name in loaded if name.startswith("bot.")] == ["bot.snapshots"]


def test_the_former_players_name_is_the_one_the_store_writes() -> None:
    from bot.snapshots import FORMER_PLAYER
    from storage.privacy import FORMER_PLAYER as STORED

    assert FORMER_PLAYER == STORED
