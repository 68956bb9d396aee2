"""The bot's own measurements: histograms, recent clicks, the collector's pauses."""

from __future__ import annotations

import gc

from bot.telemetry import Histogram, Telemetry, percentile


def test_a_histogram_counts_each_value_in_its_bucket_cumulatively() -> None:
    h = Histogram((0.01, 0.1, 1.0))
    for value in (0.005, 0.01, 0.05, 2.0):
        h.observe(value)
    assert h.cumulative() == [("0.01", 2), ("0.1", 3), ("1.0", 3), ("+Inf", 4)]
    assert h.count == 4 and abs(h.total - 2.065) < 1e-9


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0 and percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) is None


def test_recent_clicks_are_those_of_the_window() -> None:
    now = [1000.0]
    t = Telemetry(clock=lambda: now[0])
    t.click("dutch", 0.002)
    now[0] += 200
    t.click("dutch", 0.004, "not_your_turn")
    t.click("euchre", 0.006)
    now[0] += 200  # the first click is now 400 s old
    assert t.recent_percentiles(300) == {"clicks": 2, "p50": 0.004, "p99": 0.006}
    assert t.clicks == {("dutch", "played"): 1, ("dutch", "refused"): 1, ("euchre", "played"): 1}
    assert t.refusals == {"not_your_turn": 1}
    assert t.uptime() == 400


def test_the_collectors_pauses_are_timed_by_generation() -> None:
    t = Telemetry()
    t.watch_gc()
    try:
        gc.collect()
    finally:
        t.unwatch_gc()
    seen = t.gc_pauses[2].count
    assert seen >= 1
    gc.collect()
    assert t.gc_pauses[2].count == seen  # unwatched: no more timing
