"""`python -m benchmarks.strength euchre --positions N`: every version decides at the same positions
and each prints its CPU and deals per decision."""

from __future__ import annotations

import pytest

from benchmarks.strength.__main__ import main


def test_every_version_decides_at_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["euchre", "--positions", "1", "--versions", "sequential,reused"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("euchre: the same positions for every version, 1 hands")
    counts = {line.split(":")[0]: line.split(" decisions")[0].split(": ")[1] for line in lines[1:]}
    assert set(counts) == {"sequential", "reused"}
    assert len(set(counts.values())) == 1  # as many decisions for each: the same positions
    assert "carried" in lines[2]
