"""`python -m bot.healthcheck`, what a container's HEALTHCHECK runs."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot import healthcheck
from bot.metrics import BotReadings, HealthCheck, OperationsServer
from bot.telemetry import Telemetry


async def test_the_healthcheck_exits_0_when_healthy_and_1_when_not(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    failing: list[Exception] = []

    async def write() -> None:
        if failing:
            raise failing[0]

    health = HealthCheck()
    health.gateway_up()
    readings = BotReadings(tables=Counter, gateway_latency=lambda: None)
    ops = OperationsServer(Telemetry(), readings, health, write_probe=write, port=0)
    await ops.start()
    try:
        monkeypatch.setenv("METRICS_PORT", str(ops.port))
        assert await asyncio.to_thread(healthcheck.main) == 0
        failing.append(OSError("disk full"))
        await health.probe(write, None)
        assert await asyncio.to_thread(healthcheck.main) == 1
        assert "disk full" in capsys.readouterr().err
    finally:
        await ops.close()
    assert await asyncio.to_thread(healthcheck.main) == 1  # nothing listening
    monkeypatch.delenv("METRICS_PORT")
    monkeypatch.chdir("/")
    assert healthcheck.main() == 1
