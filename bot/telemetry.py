"""What the bot measures about itself while it runs.

It counts clicks and their answer time, refusals by reason, store commits, bot players'
decisions, worker restarts, paced edits, Discord's 429s and the garbage collector's pauses.

Recording is a few additions in plain Python on the hot path (no lock, no I/O, no dependency):
counters in dicts and fixed-bucket histograms. `/admin status` reads the recent clicks from here;
the optional Prometheus endpoint (`bot/metrics.py`, `METRICS_PORT`) reads everything at scrape
time.
"""

from __future__ import annotations

import gc
import time
from bisect import bisect_left
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

# Seconds: from a fast click's answer (about a millisecond) to a stuck one (the 3 s Discord
# allows before an interaction fails).
LATENCY_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
)  # fmt: skip
RECENT_WINDOW = 300.0  # seconds of clicks kept for /admin status
RECENT_MAX = 100_000  # clicks kept at most in that window (1,000 clicks/s for 100 s)


class Histogram:
    """Counts per bucket (upper bounds, cumulative at read), their sum and count."""

    __slots__ = ("bounds", "count", "counts", "total")

    def __init__(self, bounds: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last one: above every bound
        self.total = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value
        self.count += 1

    def cumulative(self) -> list[tuple[str, int]]:
        """(upper bound as Prometheus writes it, observations at or under it), `+Inf` last."""
        running = 0
        buckets = []
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += count
            buckets.append(("+Inf" if bound == float("inf") else repr(bound), running))
        return buckets


def percentile(values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile of `values` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


class Telemetry:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.started = clock()
        self.clicks: Counter[tuple[str, str]] = Counter()  # (game, outcome) -> clicks
        self.refusals: Counter[str] = Counter()  # reason -> refused clicks
        self.click_seconds = Histogram()
        self.commit_seconds = Histogram()
        self.decisions: Counter[tuple[str, str]] = Counter()  # (game, how: searched/simple…)
        self.decision_seconds: dict[str, Histogram] = {}
        self.worker_restarts = 0
        self.edits: Counter[str] = Counter()  # sent / paced
        self.rate_limited: Counter[str] = Counter()  # by what was refused (route kind)
        self.gc_pauses: dict[int, Histogram] = {}
        self._recent: deque[tuple[float, float]] = deque(maxlen=RECENT_MAX)
        self._gc_started: float | None = None

    # -- recording (hot path) -------------------------------------------------------------
    def click(self, game: str, seconds: float, refusal: str | None = None) -> None:
        self.clicks[(game, "refused" if refusal else "played")] += 1
        if refusal:
            self.refusals[refusal] += 1
        self.click_seconds.observe(seconds)
        self._recent.append((self._clock(), seconds))

    def commit(self, seconds: float) -> None:
        self.commit_seconds.observe(seconds)

    def decision(self, game: str, seconds: float, how: str = "searched") -> None:
        self.decisions[(game, how)] += 1
        histogram = self.decision_seconds.get(game)
        if histogram is None:
            histogram = self.decision_seconds[game] = Histogram()
        histogram.observe(seconds)

    def worker_restarted(self) -> None:
        self.worker_restarts += 1

    def edit(self, paced: bool) -> None:
        self.edits["paced" if paced else "sent"] += 1

    def refused_by_discord(self, what: str) -> None:
        self.rate_limited[what] += 1

    # -- reading --------------------------------------------------------------------------
    def uptime(self) -> float:
        return self._clock() - self.started

    def recent_clicks(self, window: float = RECENT_WINDOW) -> list[float]:
        """The answer times of the clicks of the last `window` seconds."""
        since = self._clock() - window
        return [seconds for at, seconds in self._recent if at >= since]

    def recent_percentiles(self, window: float = RECENT_WINDOW) -> dict[str, Any]:
        recent = self.recent_clicks(window)
        return {
            "clicks": len(recent),
            "p50": percentile(recent, 0.50),
            "p99": percentile(recent, 0.99),
        }

    # -- the garbage collector's pauses ---------------------------------------------------
    def watch_gc(self) -> None:
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)

    def unwatch_gc(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_started = now
        elif self._gc_started is not None:
            generation = info.get("generation", 0)
            histogram = self.gc_pauses.get(generation)
            if histogram is None:
                histogram = self.gc_pauses[generation] = Histogram()
            histogram.observe(now - self._gc_started)
            self._gc_started = None
