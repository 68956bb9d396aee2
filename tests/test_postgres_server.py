"""Without PostgreSQL's binaries a PostgreSQL test skips, unless they are required (CI)."""

from __future__ import annotations

import pytest

from tests import postgres_server


def test_missing_binaries_fail_a_test_when_required_and_skip_it_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(postgres_server, "find_binaries", lambda: None)
    monkeypatch.setenv(postgres_server.REQUIRE_POSTGRES, "1")
    with pytest.raises(pytest.fail.Exception, match="no PostgreSQL binaries"):
        postgres_server.binaries_or_skip()
    monkeypatch.delenv(postgres_server.REQUIRE_POSTGRES)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL tests skipped"):
        postgres_server.binaries_or_skip()
