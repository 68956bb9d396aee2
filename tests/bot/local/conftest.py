from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.bot.local.browser import chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a module's tests (each player gets a browser context of its own)."""
    with chromium() as launched:
        yield launched
