"""A soak through the whole bot (service, notifier, locations, controller, coalescer, store):
matches that end in every way a table can leave memory, and every per-table map of every layer
back to its starting size."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bot.soak import ENDINGS, run_soak

MATCHES = 1_000  # 200 of each ending; `python -m benchmarks.bot.soak` plays 20,000


async def test_every_way_a_table_leaves_memory_frees_what_each_layer_kept(
    tmp_path: Path,
) -> None:
    report = await run_soak(
        tmp_path / "soak.sqlite3", MATCHES, restart_every=400, checkpoints=2, echo=lambda _: None
    )
    assert report.endings == dict.fromkeys(ENDINGS, MATCHES // len(ENDINGS))
    start, *later = report.sizes
    assert set(start.values()) == {0}
    assert later and all(sizes == start for sizes in later)
