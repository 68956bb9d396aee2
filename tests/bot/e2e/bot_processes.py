"""Real bot processes (`python -m bot`) against the local Discord: one per shard, on one
PostgreSQL database (or one process on an SQLite file), configured only through the
environment as in production."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.local.server import LocalDiscord

SETTINGS = (
    "DATABASE_PATH",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOCAL_PORT",
    "LOG_LEVEL",
)  # not inherited


class BotProcess:
    """`python -m bot` serving shard `shard` of `count`; its log goes to a file. `database`:
    a PostgreSQL URL, or an SQLite file's path."""

    def __init__(self, fake: LocalDiscord, database: str | Path, folder: Path, shard: int) -> None:
        self.fake = fake
        self.database = database
        self.folder = folder  # its working directory: no developer's .env is read
        self.shard = shard
        self.runs = 0
        self.child: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.folder / f"shard{self.shard}-run{self.runs}.log"

    def start(self) -> None:
        assert self.child is None or self.child.poll() is not None, "already running"
        self.runs += 1
        env = {key: value for key, value in os.environ.items() if key not in SETTINGS}
        env.update(
            DISCORD_TOKEN=self.fake.bot_token,
            DISCORD_API_URL=self.fake.base_url,
            SHARD_COUNT=str(self.fake.shard_count),
            SHARD_IDS=str(self.shard),
            PYTHONUNBUFFERED="1",
        )
        if isinstance(self.database, Path):
            env.update(DATABASE_PATH=str(self.database))
        else:
            env.update(DATABASE_URL=self.database)
        with self.log.open("wb") as out:
            self.child = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=self.folder,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind, as a crash or an out-of-memory kill."""
        assert self.child is not None
        os.kill(self.child.pid, signal.SIGKILL)

    def reap(self) -> int:
        assert self.child is not None
        return self.child.wait(timeout=10)

    def stop(self) -> None:
        if self.child is not None and self.child.poll() is None:
            self.child.kill()
            self.child.wait(timeout=10)

    def _lines(self) -> list[str]:
        """Every run's log lines, each prefixed with its log's name."""
        found: list[str] = []
        for run in range(1, self.runs + 1):
            log = self.folder / f"shard{self.shard}-run{run}.log"
            found += [f"{log.name}: {line}" for line in log.read_text(errors="replace").split("\n")]
        return found

    def tail(self, count: int) -> str:
        """The last `count` lines of every run's log, for a failing test's report."""
        return "\n".join(self._lines()[-count:])

    def errors(self) -> list[str]:
        """ERROR lines (and tracebacks) of every run's log."""
        return [line for line in self._lines() if " ERROR " in line or ": Traceback" in line]

    def said(self, words: str) -> bool:
        """Whether the latest run logged these words."""
        return words in self.log.read_text(errors="replace")
