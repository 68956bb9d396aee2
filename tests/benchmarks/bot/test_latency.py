"""The benchmarks' latency figures: nearest-rank percentiles and the printed line."""

from __future__ import annotations

from benchmarks.bot.latency import latency_line, percentile


def test_percentile_is_the_nearest_rank_of_sorted_samples() -> None:
    ordered = [i / 1000 for i in range(1, 101)]  # 1 ms .. 100 ms
    assert percentile(ordered, 0.5) == 0.051
    assert percentile(ordered, 0.99) == 0.1
    assert percentile([], 0.99) == 0.0


def test_latency_line_prints_p50_p99_and_max_in_milliseconds() -> None:
    line = latency_line("answer", [0.003, 0.001, 0.002], 8)
    assert line == "  answer   p50     2.0 ms   p99     3.0 ms   max     3.0 ms"
