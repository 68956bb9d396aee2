"""The integrity check of the whole file, kept off the start.

`PRAGMA quick_check` reads every page: seconds per gigabyte, so a store that checked at every
open would start slower every day. At open the store reads only what it needs (the header,
the schema, then what recovery loads), and SQLite verifies every page it reads
(`cell_size_check` on): a damaged page there is refused with a clear error. The full check runs
on demand (`Store.check_integrity`, `python -m storage.check FILE`) and in the background after
the start (`BackgroundCheck`), which logs a corrupt file as an error.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

CORRUPT = "{path} is corrupt ({problem}); stop the bot and restore it from a backup."


def quick_check(path: Path) -> list[str]:
    """The problems `PRAGMA quick_check` finds in the file ([] if none), on a connection of
    its own that only reads. Raises sqlite3.OperationalError if the check cannot run (the file
    is gone or cannot be opened): that says nothing of its content."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=rw", uri=True)
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as error:  # damage found before the check could list it
        return [str(error)]
    finally:
        conn.close()
    return [row[0] for row in rows if row[0] != "ok"]


class BackgroundCheck:
    """Run the full check once, `delay` seconds after the start, in a thread at the lowest CPU
    priority (so that the first clicks after a restart do not wait behind it)."""

    def __init__(self, path: Path, delay: float) -> None:
        self._path = path
        self._delay = delay
        self._stop = threading.Event()
        self.problems: list[str] | None = None  # None until the check has run
        self._thread = threading.Thread(target=self._run, name="storage-integrity", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        # A running quick_check cannot be interrupted; the thread is a daemon and reads only.

    def _run(self) -> None:
        if self._stop.wait(self._delay):
            return
        # Linux: a thread's priority is its own; elsewhere the check runs at normal priority.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        try:
            self.problems = quick_check(self._path)
        except sqlite3.OperationalError as error:
            if not self._stop.is_set():  # (a store closing meanwhile is no news)
                log.warning("could not check the integrity of %s: %s", self._path, error)
            return
        if self.problems:
            log.error(CORRUPT.format(path=self._path, problem=self.problems[0]))
        else:
            log.info("integrity check of %s: ok", self._path)
