"""How the benchmarks report latencies: a percentile of sorted samples, and one printed line."""

from __future__ import annotations


def percentile(ordered: list[float], q: float) -> float:
    """The `q` quantile (0 to 1) of samples sorted ascending (nearest rank; 0 when empty)."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def latency_line(name: str, samples: list[float], width: int) -> str:
    """`name  p50 … ms   p99 … ms   max … ms` for samples in seconds (at least one)."""
    ordered = sorted(samples)
    return (
        f"  {name:<{width}} p50 {percentile(ordered, 0.5) * 1e3:7.1f} ms   p99 "
        f"{percentile(ordered, 0.99) * 1e3:7.1f} ms   max {ordered[-1] * 1e3:7.1f} ms"
    )
