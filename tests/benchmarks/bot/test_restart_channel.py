"""The short run of `python -m benchmarks.bot.restart_channel`: a restart with many tables in one
channel under Discord's per-channel limits (the figures are the script's to print)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bot.restart_channel import SHORT, print_report, run


async def test_a_restart_in_one_busy_channel_mentions_no_turn_again_and_meets_no_429(
    tmp_path: Path, capsys: object
) -> None:
    tables, moves, think, per, edit_delay = SHORT
    report = await run(tables, moves, think, per, tmp_path / "bench.sqlite3", edit_delay)
    print_report(report, tables, per)
    assert len(report.shown) == moves  # every move showed on its table message
    assert report.mentions_of_restored_turns == 0
    assert report.old_mentions_deleted == 0
    assert report.refused == 0
