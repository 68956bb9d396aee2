"""/history reads as finished: a stopped match says so, and entries of one day tell their
tables apart."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.cogs.history import _entry_line, history_page
from storage.history import HandSummary, HistoryEntry


def entry(table_id: int, *, finished: bool, stopped: bool, minute: int = 0) -> HistoryEntry:
    return HistoryEntry(
        table_id=table_id,
        match_no=0,
        game="dutch",
        seat=0,
        n_seats=2,
        players=["Ann", "Bob"],
        at=datetime(2026, 12, 5, 9, minute, tzinfo=UTC),
        finished=finished,
        won=None if not finished else True,
        stopped=stopped,
        final_totals=[18, 1],
        hands=[HandSummary(round_no=0, points=[18, 1])],
    )


def test_a_stopped_match_reads_as_stopped_not_in_play() -> None:
    line = _entry_line("en", entry(4, finished=False, stopped=True))
    assert "stopped at 18 – 1" in line and "in play" not in line
    assert "in play, so far 18 – 1" in _entry_line("en", entry(4, finished=False, stopped=False))
    assert "arrêtée à 18 – 1" in _entry_line("fr", entry(4, finished=False, stopped=True))


def test_replays_of_two_tables_on_one_day_read_apart() -> None:
    entries = [
        entry(3, finished=True, stopped=False),
        entry(7, finished=True, stopped=False, minute=40),
    ]
    embed, view = history_page("en", "Ann", 1, None, 0, entries, more=False)
    assert "**Dutch**, table #3" in str(embed.description)
    (select,) = [item for item in view.children if getattr(item, "options", None)]
    shown = [(o.label, o.description) for o in select.options]  # type: ignore[attr-defined]
    assert shown == [
        ("Replay: Dutch, table #3, hand 1", "2026-12-05 09:00 UTC"),
        ("Replay: Dutch, table #7, hand 1", "2026-12-05 09:40 UTC"),
    ]
