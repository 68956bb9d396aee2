"""The end-to-end fixtures, and `toy`: the test-only game plugged in (tests/plugged)."""

from collections.abc import Iterator

import pytest

from tests.bot.e2e.conftest import harness, no_errors_logged
from tests.plugged import plugged

__all__ = ["harness", "no_errors_logged", "toy"]


@pytest.fixture
def toy() -> Iterator[str]:
    with plugged() as name:
        yield name
