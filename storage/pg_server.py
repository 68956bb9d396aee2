"""A throwaway PostgreSQL server from the machine's own binaries.

It is a cluster in a temporary folder, on a free port of 127.0.0.1, removed when stopped (the
tests' server, and the benchmark's with `--url auto`), with the server's default settings unless
told otherwise.

initdb refuses to run as root, so as root the server runs as the `postgres` system user (which
Debian's package creates).
"""

from __future__ import annotations

import glob
import os
import pwd
import random
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path


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


# Below the ranges systems give outgoing connections (Linux from 32768, macOS and Windows from
# 49152): a port the system picked (bind to 0) can be handed to some other connection between
# the probe and the server's own bind, which made the tests fail now and then under load.
QUIET_PORTS = range(20_000, 32_768)


def free_port() -> int:
    """A port of 127.0.0.1 free now, from the range no outgoing connection is given."""
    for port in random.sample(QUIET_PORTS, 200):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise OSError(f"no free port of 127.0.0.1 in {QUIET_PORTS}")


class PostgresServer:
    """A cluster in a temporary folder, started by `start`, removed by `stop`."""

    def __init__(
        self,
        binaries: Path,
        settings: Mapping[str, str] | None = None,
        cpus: set[int] | None = None,
    ) -> None:
        self.binaries = binaries
        self.settings = dict(settings or {})  # over the server's defaults
        self.cpus = cpus  # the server's CPUs (None: this process's, inherited)
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self.user: str | None = None
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
            preexec_fn=None if self.cpus is None else self._pin,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {result.stderr or result.stdout}")

    def _pin(self) -> None:
        assert self.cpus is not None
        os.sched_setaffinity(0, self.cpus)

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
        settings = {"listen_addresses": "127.0.0.1", "max_connections": "200", **self.settings}
        options = f"-p {self.port} -k {self.folder} " + " ".join(
            f"-c {name}={value}" for name, value in settings.items()
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
