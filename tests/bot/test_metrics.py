"""The operations endpoint: Prometheus metrics and the health check."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.metrics import GATEWAY_GRACE, BotReadings, HealthCheck, OperationsServer
from bot.telemetry import Telemetry


class Probes:
    def __init__(self) -> None:
        self.store_fails: Exception | None = None
        self.worker_hangs = False

    async def write(self) -> None:
        if self.store_fails is not None:
            raise self.store_fails

    async def ping(self) -> None:
        if self.worker_hangs:
            await asyncio.Event().wait()


@pytest.fixture
def now() -> list[float]:
    return [100.0]


@pytest.fixture
async def server(now: list[float]) -> AsyncIterator[tuple[OperationsServer, Telemetry, Probes]]:
    telemetry = Telemetry(clock=lambda: now[0])
    probes = Probes()
    readings = BotReadings(
        tables=lambda: Counter({("dutch", "playing"): 3, ("euchre", "lobby"): 1}),
        gateway_latency=lambda: 0.042,
    )
    health = HealthCheck(clock=lambda: now[0])
    health.gateway_up()
    ops = OperationsServer(
        telemetry, readings, health, write_probe=probes.write, worker_ping=probes.ping, port=0
    )
    await ops.start()
    yield ops, telemetry, probes
    await ops.close()


async def get(ops: OperationsServer, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{ops.port}{path}") as response,
    ):
        return response.status, await response.text()


async def test_metrics_show_what_was_recorded(
    server: tuple[OperationsServer, Telemetry, Probes],
) -> None:
    ops, telemetry, _ = server
    telemetry.click("dutch", 0.003)
    telemetry.click("dutch", 0.004, "not_your_turn")
    telemetry.commit(0.002)
    telemetry.decision("euchre", 0.008)
    telemetry.decision("euchre", 0.2, "simple")
    telemetry.worker_restarted()
    telemetry.edit(paced=True)
    telemetry.refused_by_discord("PATCH")
    status, text = await get(ops, "/metrics")
    assert status == 200
    for line in (
        'cardtable_clicks_total{game="dutch",outcome="played"} 1.0',
        'cardtable_clicks_total{game="dutch",outcome="refused"} 1.0',
        'cardtable_refusals_total{reason="not_your_turn"} 1.0',
        "cardtable_click_answer_seconds_count 2.0",
        'cardtable_click_answer_seconds_bucket{le="0.005"} 2.0',
        "cardtable_store_commit_seconds_count 1.0",
        'cardtable_tables{game="dutch",status="playing"} 3.0',
        'cardtable_bot_decisions_total{game="euchre",how="simple"} 1.0',
        'cardtable_bot_decision_seconds_count{game="euchre"} 2.0',
        "cardtable_worker_restarts_total 1.0",
        'cardtable_message_edits_total{kind="paced"} 1.0',
        'cardtable_discord_rate_limited_total{what="PATCH"} 1.0',
        "cardtable_gateway_latency_seconds 0.042",
        "cardtable_healthy 1.0",
    ):
        assert line in text, line
    assert "process_resident_memory_bytes" in text


async def test_health_is_ok_then_unhealthy_when_the_store_cannot_write(
    server: tuple[OperationsServer, Telemetry, Probes],
) -> None:
    ops, _, probes = server
    assert (await get(ops, "/health"))[0] == 200
    probes.store_fails = OSError("attempt to write a readonly database")
    await ops.health.probe(probes.write, probes.ping)
    status, body = await get(ops, "/health")
    assert status == 503 and "readonly" in body
    probes.store_fails = None
    await ops.health.probe(probes.write, probes.ping)
    assert (await get(ops, "/health"))[0] == 200


async def test_health_is_unhealthy_once_the_gateway_is_down_for_a_minute(
    server: tuple[OperationsServer, Telemetry, Probes], now: list[float]
) -> None:
    ops, _, _ = server
    ops.health.gateway_down()
    now[0] += GATEWAY_GRACE - 1
    assert (await get(ops, "/health"))[0] == 200  # a short reconnect is no news
    now[0] += 2
    status, body = await get(ops, "/health")
    assert status == 503 and "gateway down" in body
    ops.health.gateway_up()
    assert (await get(ops, "/health"))[0] == 200


async def test_health_is_unhealthy_when_the_worker_does_not_answer(
    server: tuple[OperationsServer, Telemetry, Probes], monkeypatch: pytest.MonkeyPatch
) -> None:
    ops, _, probes = server
    monkeypatch.setattr("bot.metrics.WORKER_DEADLINE", 0.01)
    probes.worker_hangs = True
    await ops.health.probe(probes.write, probes.ping)
    status, body = await get(ops, "/health")
    assert status == 503 and "worker" in body


def test_the_endpoint_is_off_unless_a_port_is_given() -> None:
    from bot.settings import Settings

    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"


def test_the_dashboard_and_alerts_name_only_metrics_the_bot_writes() -> None:
    import re
    from pathlib import Path

    from bot.metrics import TelemetryCollector

    docs = Path(__file__).resolve().parents[2] / "docs" / "monitoring"
    named = set()
    for name in ("grafana-dashboard.json", "alerts.yml"):
        named |= set(re.findall(r"cardtable_[a-z_]+", (docs / name).read_text()))
    health = HealthCheck()
    readings = BotReadings(tables=Counter, gateway_latency=lambda: 0.1)
    written = set()
    for family in TelemetryCollector(Telemetry(), readings, health).collect():
        written.add(family.name)
        written |= {f"{family.name}_{suffix}" for suffix in ("total", "bucket", "count", "sum")}
    assert named and named <= written, named - written
