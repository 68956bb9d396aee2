"""A throwaway PostgreSQL server for tests, from the machine's own binaries: a cluster in a
temporary folder, on a free port of 127.0.0.1, removed when the tests end.

initdb refuses to run as root, so as root the server runs as the `postgres` system user (which
Debian's package creates). `fsync=off` makes it quick: the tests kill the bot, never the server,
and a COMMIT is still acknowledged only once the server has it.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import asyncpg

REQUIRE_POSTGRES = "CARDTABLE_REQUIRE_POSTGRES"  # set (by .ci/run): a skip becomes a failure
SKIP_REASON = (
    "PostgreSQL tests skipped: install PostgreSQL's server binaries (Debian: apt-get install "
    "postgresql) or set PG_BIN to the folder holding pg_ctl"
)


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: PG_BIN, else PATH, else Debian's newest."""
    candidates = [os.environ.get("PG_BIN", "")]
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).resolve().parent))
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True
    )
    candidates.extend(versions)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self.user: str | None = None
        self._names = itertools.count()
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str) -> None:
        result = subprocess.run(
            [str(self.binaries / args[0]), *args[1:]],
            user=self.user,
            capture_output=True,
            text=True,
            check=False,
            cwd=self.folder,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {result.stderr or result.stdout}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--no-sync")  # fmt: skip
        self.port = free_port()
        self.resume()

    def pause(self) -> None:
        """Shut the server down (fast: sessions are ended), keeping its data and port."""
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w")

    def resume(self) -> None:
        """Start the server (again), on its port."""
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "start", "-w", "-D", str(self.data), "-l", str(self.folder / "log"),
                  "-o", options)  # fmt: skip

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def create_database(self) -> str:
        """A new, empty place to store things; returns its URL. It is a schema of its own
        (the URL sets `search_path`), since a schema costs a millisecond and a database
        hundreds."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await admin.close()
        return f"{self.url()}?search_path={name}"
