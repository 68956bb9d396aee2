"""The optional operations endpoint: `/metrics` and `/health`.

It listens on `METRICS_PORT` (off by default), on 127.0.0.1 unless `METRICS_HOST` says
otherwise. `/metrics` is in Prometheus's text format (the standard client library,
`prometheus_client`, writes it); `/health` answers 200 when healthy and 503 when not.

Unhealthy means one of: the store cannot write (a real write every `PROBE_EVERY` seconds), the
gateway has been down for more than `GATEWAY_GRACE` seconds, or the bot players' worker did not
answer a ping within `WORKER_DEADLINE` seconds. Metric values are read at scrape time from
`bot.telemetry.Telemetry` and the running bot, so nothing here is on a click's path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.telemetry import Histogram, Telemetry

if TYPE_CHECKING:
    from prometheus_client.registry import CollectorRegistry

log = logging.getLogger(__name__)

PROBE_EVERY = 15.0  # seconds between health probes of the store and the worker
GATEWAY_GRACE = 60.0  # seconds the gateway may be down before the bot is unhealthy
WORKER_DEADLINE = 5.0  # seconds the worker has to answer a ping


@dataclass
class HealthCheck:
    """The bot's health as last probed."""

    clock: Callable[[], float] = time.monotonic
    store_error: str | None = None
    worker_error: str | None = None
    gateway_down_since: float | None = field(default=None)
    probed_at: float | None = None

    def __post_init__(self) -> None:
        if self.gateway_down_since is None:
            self.gateway_down_since = self.clock()  # not connected yet: the grace runs

    def gateway_up(self) -> None:
        self.gateway_down_since = None

    def gateway_down(self) -> None:
        if self.gateway_down_since is None:
            self.gateway_down_since = self.clock()

    def problems(self) -> list[str]:
        found = []
        if self.store_error is not None:
            found.append(f"store cannot write: {self.store_error}")
        down = self.gateway_down_since
        if down is not None and self.clock() - down > GATEWAY_GRACE:
            found.append(f"gateway down for {self.clock() - down:.0f} s")
        if self.worker_error is not None:
            found.append(f"bot players' worker: {self.worker_error}")
        return found

    async def probe(
        self,
        write: Callable[[], Awaitable[None]],
        ping_worker: Callable[[], Awaitable[None]] | None,
    ) -> None:
        try:
            await asyncio.wait_for(write(), WORKER_DEADLINE)
            self.store_error = None
        except Exception as error:  # any failure to write is the news here
            self.store_error = str(error) or type(error).__name__
        if ping_worker is not None:
            try:
                await asyncio.wait_for(ping_worker(), WORKER_DEADLINE)
                self.worker_error = None
            except TimeoutError:
                self.worker_error = f"no answer within {WORKER_DEADLINE:.0f} s"
            except Exception as error:
                self.worker_error = str(error) or type(error).__name__
        self.probed_at = self.clock()


@dataclass
class BotReadings:
    """What the running bot is asked at scrape time (kept apart so tests pass their own)."""

    tables: Callable[[], Counter[tuple[str, str]]]  # (game, status) -> tables
    gateway_latency: Callable[[], float | None]


class TelemetryCollector:
    """A prometheus_client collector reading `Telemetry` and the bot at each scrape."""

    def __init__(self, telemetry: Telemetry, readings: BotReadings, health: HealthCheck) -> None:
        self._t = telemetry
        self._readings = readings
        self._health = health

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import (
            CounterMetricFamily,
            GaugeMetricFamily,
            HistogramMetricFamily,
        )

        t = self._t

        def histogram(name: str, doc: str, h: Histogram, **labels: str) -> Any:
            family = HistogramMetricFamily(name, doc, labels=list(labels))
            family.add_metric(list(labels.values()), h.cumulative(), h.total)
            return family

        yield histogram(
            "cardtable_click_answer_seconds", "Time to answer a click.", t.click_seconds
        )
        yield histogram(
            "cardtable_store_commit_seconds",
            "Time until an action is committed to the store.",
            t.commit_seconds,
        )

        def labelled(family: Any, counts: Mapping[Any, float]) -> Any:
            for labels, count in sorted(counts.items()):
                family.add_metric(list(labels) if isinstance(labels, tuple) else [labels], count)
            return family

        yield labelled(
            CounterMetricFamily(
                "cardtable_clicks",
                "Clicks answered, by game and outcome.",
                labels=["game", "outcome"],
            ),
            t.clicks,
        )
        yield labelled(
            CounterMetricFamily(
                "cardtable_refusals", "Clicks refused, by reason.", labels=["reason"]
            ),
            t.refusals,
        )
        yield labelled(
            GaugeMetricFamily(
                "cardtable_tables",
                "Tables in memory, by game and status.",
                labels=["game", "status"],
            ),
            self._readings.tables(),
        )
        yield labelled(
            CounterMetricFamily(
                "cardtable_bot_decisions",
                "Bot players' decisions, by game and how they were made.",
                labels=["game", "how"],
            ),
            t.decisions,
        )
        seconds = HistogramMetricFamily(
            "cardtable_bot_decision_seconds", "Time a bot player's decision took.", labels=["game"]
        )
        for game, h in sorted(t.decision_seconds.items()):
            seconds.add_metric([game], h.cumulative(), h.total)
        yield seconds
        yield CounterMetricFamily(
            "cardtable_worker_restarts", "Bot workers replaced.", value=t.worker_restarts
        )
        yield labelled(
            CounterMetricFamily(
                "cardtable_message_edits", "Table message edits, sent or paced.", labels=["kind"]
            ),
            t.edits,
        )
        yield labelled(
            CounterMetricFamily(
                "cardtable_discord_rate_limited", "429 answers met from Discord.", labels=["what"]
            ),
            t.rate_limited,
        )
        latency = self._readings.gateway_latency()
        if latency is not None:
            yield GaugeMetricFamily(
                "cardtable_gateway_latency_seconds", "Gateway heartbeat latency.", value=latency
            )
        pauses = HistogramMetricFamily(
            "cardtable_gc_pause_seconds",
            "The garbage collector's pauses, by generation.",
            labels=["generation"],
        )
        for generation, h in sorted(t.gc_pauses.items()):
            pauses.add_metric([str(generation)], h.cumulative(), h.total)
        yield pauses
        healthy = 0 if self._health.problems() else 1
        yield GaugeMetricFamily("cardtable_healthy", "1 when /health says healthy.", value=healthy)
        yield GaugeMetricFamily(
            "cardtable_uptime_seconds", "Seconds since the bot started.", value=t.uptime()
        )


def registry_for(
    telemetry: Telemetry, readings: BotReadings, health: HealthCheck
) -> CollectorRegistry:
    from prometheus_client import CollectorRegistry, ProcessCollector

    registry = CollectorRegistry()
    ProcessCollector(registry=registry)  # memory (resident, virtual), CPU, open files
    registry.register(TelemetryCollector(telemetry, readings, health))
    return registry


class OperationsServer:
    """`/metrics` and `/health` on host:port, and the periodic health probe."""

    def __init__(
        self,
        telemetry: Telemetry,
        readings: BotReadings,
        health: HealthCheck,
        *,
        write_probe: Callable[[], Awaitable[None]],
        worker_ping: Callable[[], Awaitable[None]] | None = None,
        host: str = "127.0.0.1",
        port: int = 9108,
    ) -> None:
        self.health = health
        self._registry = registry_for(telemetry, readings, health)
        self._write_probe = write_probe
        self._worker_ping = worker_ping
        self._host, self.port = host, port
        self._runner: web.AppRunner | None = None
        self._probing: asyncio.Task[None] | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/health", self._health)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self.port)
        await site.start()
        if self.port == 0:
            self.port = self._runner.addresses[0][1]  # the port the system chose
        await self.health.probe(self._write_probe, self._worker_ping)
        self._probing = asyncio.create_task(self._probe_forever(), name="health-probe")
        log.info("metrics at http://%s:%s/metrics, health at /health", self._host, self.port)

    async def _probe_forever(self) -> None:
        while True:
            await asyncio.sleep(PROBE_EVERY)
            await self.health.probe(self._write_probe, self._worker_ping)

    async def _metrics(self, request: web.Request) -> web.Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        # On the loop: the readings walk the service's tables, which only the loop may touch.
        body = generate_latest(self._registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: web.Request) -> web.Response:
        problems = self.health.problems()
        body = {"status": "unhealthy" if problems else "ok", "problems": problems}
        return web.Response(
            text=json.dumps(body), status=503 if problems else 200, content_type="application/json"
        )

    async def close(self) -> None:
        if self._probing is not None:
            self._probing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probing
        if self._runner is not None:
            await self._runner.cleanup()
