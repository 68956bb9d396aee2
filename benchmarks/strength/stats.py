"""Intervals and parallel runs shared by the strength scripts."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: int, trials: int) -> tuple[float, float, float]:
    """(rate, low, high): the Wilson 95% interval of a proportion."""
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return p, centre - half, centre + half


def mean_interval(values: list[float]) -> tuple[float, float]:
    """(mean, half width of its 95% normal interval)."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, Z95 * math.sqrt(variance / n)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_parallel(work: Callable[[T], R], items: Iterable[T], jobs: int) -> list[R]:
    """`work` over `items` in `jobs` processes (in order); one job runs in this process."""
    if jobs <= 1:
        return [work(item) for item in items]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(work, items, chunksize=8))


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
