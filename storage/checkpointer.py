"""Checkpoints off the commit path.

In WAL mode a commit appends pages to the `-wal` file; a checkpoint copies them back into the
database file. SQLite's automatic checkpoint runs inside the commit that crosses the threshold,
so that commit (and every `record_action` waiting on it) pays for copying and syncing a few
thousand pages. Here a thread with its own connection runs PASSIVE checkpoints shortly after
commits instead, while the writer goes on committing; the writer keeps a high automatic
threshold (`FALLBACK_PAGES`) only to bound the `-wal` file and let it restart from its beginning
under a sustained load. Durability is unchanged: a commit is synced to the `-wal` file before
it returns, whoever copies it later.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

INTERVAL_S = 0.05  # at most one background checkpoint per interval: a busy WAL is copied in bulk
FALLBACK_PAGES = 10_000  # the writer's own wal_autocheckpoint (~40 MB of -wal at 4 KiB pages)


class Checkpointer:
    def __init__(self, path: Path, synchronous: str) -> None:
        self._path = path
        self._synchronous = synchronous
        self._committed = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="storage-checkpointer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def nudge(self) -> None:
        """A commit happened: checkpoint within `INTERVAL_S`."""
        self._committed.set()

    def stop(self) -> None:
        self._stop.set()
        self._committed.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(
                f"{self._path.resolve().as_uri()}?mode=rw",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error:
            return  # the writer's automatic checkpoints still bound the -wal file
        try:
            conn.execute(f"PRAGMA synchronous = {self._synchronous}")
            while True:
                self._committed.wait()
                if self._stop.is_set():
                    return
                self._committed.clear()
                # PASSIVE: copies what is committed; never waits for nor blocks the writer. Busy
                # or locked this time: the next commit brings us back.
                with contextlib.suppress(sqlite3.OperationalError):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                if self._stop.wait(INTERVAL_S):
                    return
        except sqlite3.Error:
            return  # same fallback; the writer reports real I/O errors on its own commits
        finally:
            conn.close()
