"""The local table stops cleanly on SIGINT and SIGTERM, even started with SIGINT ignored (a
background job, `nohup`): the handlers are installed explicitly, not inherited."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.local.browser import ROOT, STARTED, free_port


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_local_table_stops_on_a_signal_even_with_sigint_ignored(
    tmp_path: Path, stop: signal.Signals
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(
        PYTHONPATH=str(ROOT),
        DATABASE_PATH=str(tmp_path / "cardtable.sqlite3"),
        LOCAL_PORT=str(free_port()),
        LOG_LEVEL="WARNING",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--local"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:  # waits for the line, no sleep
            if STARTED in line:
                break
        else:
            pytest.fail("the local table did not start")
        process.send_signal(stop)
        assert process.wait(timeout=30) == 0
        output = process.stdout.read()
        assert "Traceback" not in output and " ERROR " not in output, output
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
