from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from aiohttp import web
from pydantic import ValidationError

from bot.app import REJECTED_TOKEN, create_bot, intents, run
from bot.runtime.runner import ProcessPolicyRunner
from bot.settings import Settings


@pytest.fixture
async def rejecting_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[str]:
    """A local stand-in for Discord's REST API that refuses every token."""

    async def unauthorized(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unauthorized)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    yield f"http://127.0.0.1:{port}"
    await runner.cleanup()


async def test_a_rejected_token_is_one_clear_line(
    rejecting_discord: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, DISCORD_TOKEN="not-a-token", DATABASE_PATH=tmp_path / "db.sqlite3"
    )
    code = await asyncio.to_thread(run, settings)
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == REJECTED_TOKEN
    assert not any("Traceback" in line for line in err)


def test_the_bot_asks_for_no_privileged_intent() -> None:
    chosen = intents()
    assert chosen.guilds
    assert not (chosen.members or chosen.presences or chosen.message_content)


async def test_create_bot_takes_a_short_guild_ready_timeout(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, DISCORD_TOKEN="t")  # type: ignore[call-arg]
    bot = create_bot(settings, guild_ready_timeout=0.01, edit_delay=0.05)
    assert bot._connection.guild_ready_timeout == 0.01
    assert bot.notifier.coalescer._delay == 0.05
    await bot.close()


async def test_the_bot_backs_up_the_sqlite_file_it_opened_itself(tmp_path: Path) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, DISCORD_TOKEN="t", DATABASE_PATH=tmp_path / "db.sqlite3"
    )
    bot = create_bot(settings, sync_commands=False)
    await bot.setup_hook()
    try:
        assert bot.backups is not None
        assert bot.backups.folder == tmp_path / "backups"
        assert bot.backups.due_in() > 0  # not in the first minutes after a start
    finally:
        await bot.close()
    assert bot.backups._task is None  # stopped with the bot


async def test_the_bot_s_worker_pool_has_bot_workers_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    default = create_bot(Settings(_env_file=None, DISCORD_TOKEN="t"))  # type: ignore[call-arg]
    given = create_bot(
        Settings(_env_file=None, DISCORD_TOKEN="t", BOT_WORKERS="6")  # type: ignore[call-arg]
    )
    try:
        assert isinstance(default.policy_runner, ProcessPolicyRunner)
        assert isinstance(given.policy_runner, ProcessPolicyRunner)
        assert default.policy_runner.size == 3  # the cores but one
        assert given.policy_runner.size == 6
    finally:
        await default.close()
        await given.close()
    with pytest.raises(ValidationError, match="BOT_WORKERS"):
        Settings(_env_file=None, BOT_WORKERS="0")  # type: ignore[call-arg]


def test_a_one_core_machine_still_gets_one_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert ProcessPolicyRunner().size == 1


async def test_the_bot_warms_its_workers_off_the_event_loop_at_start(tmp_path: Path) -> None:
    """The first worker's start waits for the fork server's imports: done in a thread at start,
    not on the event loop when a Start click brings the first bot move."""

    class Runner:
        def __init__(self) -> None:
            self.prepared = 0

        def prepare(self) -> None:
            self.prepared += 1

        def think(self, *args: object, **kwargs: object) -> object:
            raise AssertionError("no decision expected")

        def close(self) -> None:
            pass

    runner = Runner()
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, DISCORD_TOKEN="t", DATABASE_PATH=tmp_path / "db.sqlite3"
    )
    bot = create_bot(settings, sync_commands=False, policy_runner=runner)
    await bot.setup_hook()
    await bot.close()
    assert runner.prepared == 1
