"""Online backups of the SQLite file.

They are taken with SQLite's backup API while the bot plays, checked after writing, and the
oldest removed.

A backup is one consistent snapshot: the whole file is copied in one step of the backup API,
inside one read transaction of a connection of its own, so the writer (WAL mode) goes on
committing meanwhile and the copy holds exactly the transactions committed before it started.
The copy is written under a temporary name, checked (`PRAGMA quick_check` and a readable schema
version), and only then renamed to `cardtable-<UTC time>.sqlite3`: a backup with that name is
whole and checked. PostgreSQL is backed up with `pg_dump` (see the README); this module is for
the SQLite file only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from storage.errors import StoreError
from storage.integrity import quick_check
from storage.migrate import VERSION_TABLE, available_migrations

log = logging.getLogger(__name__)

PREFIX = "cardtable-"
SUFFIX = ".sqlite3"
_NAME = re.compile(rf"^{PREFIX}(\d{{8}}T\d{{6}}(?:\.\d+)?Z){re.escape(SUFFIX)}$")
_STAMP = "%Y%m%dT%H%M%S.%fZ"
# The tables a store needs to load its tables again: a file without them is no backup of ours.
FIRST_BACKUP_DELAY = 300.0  # seconds after the start
REQUIRED_TABLES = frozenset({"guild_settings", "tables", "seats", "matches", "rounds", "actions"})


@dataclass(frozen=True, slots=True)
class Backup:
    path: Path
    taken_at: datetime
    size: int
    seconds: float  # how long taking and checking it took


def backup_name(at: datetime) -> str:
    return f"{PREFIX}{at.astimezone(UTC).strftime(_STAMP)}{SUFFIX}"


def backups_in(folder: Path) -> list[tuple[datetime, Path]]:
    """The backups in `folder` (by their names only), oldest first."""
    found = []
    with contextlib.suppress(FileNotFoundError):
        for entry in folder.iterdir():
            match = _NAME.match(entry.name)
            if match and entry.is_file():
                stamp = match.group(1)
                fmt = _STAMP if "." in stamp else "%Y%m%dT%H%M%SZ"
                found.append((datetime.strptime(stamp, fmt).replace(tzinfo=UTC), entry))
    return sorted(found)


def check_backup(path: Path) -> list[str]:
    """What is wrong with the SQLite file at `path` as a backup of this bot's store ([] if
    nothing): not SQLite, damaged pages, missing tables, or a schema newer than this code."""
    path = Path(path)
    if not path.is_file():
        return [f"{path} is not a file"]
    with path.open("rb") as file:
        if file.read(16) != b"SQLite format 3\x00":
            return [f"{path} is not an SQLite database"]
    try:
        problems = quick_check(path)
    except sqlite3.OperationalError as error:
        return [f"{path} cannot be read: {error}"]
    if problems:
        return [f"{path} is damaged: {problem}" for problem in problems[:5]]
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        missing = sorted(REQUIRED_TABLES - tables)
        if missing or VERSION_TABLE not in tables:
            absent = ", ".join(missing) or VERSION_TABLE
            return [f"{path} is not a card table store (missing {absent})"]
        version = conn.execute(f"SELECT MAX(version) FROM {VERSION_TABLE}").fetchone()[0]
    except sqlite3.DatabaseError as error:
        return [f"{path} cannot be read: {error}"]
    finally:
        conn.close()
    latest = available_migrations()[-1].version
    if not isinstance(version, int) or version > latest:
        return [f"{path} has schema version {version}, newer than this code's {latest}"]
    return []


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite file `source` (its WAL included) into `target`, which
    must not exist, with the backup API in one step (one read transaction)."""
    src = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # pages=-1: every page in one step, one snapshot
            # The copy stands alone: a rollback journal, no WAL file beside it to lose.
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    finally:
        src.close()


def take_backup(
    source: Path, folder: Path, *, keep: int, now: Callable[[], datetime] | None = None
) -> Backup:
    """Back `source` up into `folder` (created if missing), check the copy, then remove the
    oldest backups beyond `keep`. Raises StoreError if the copy cannot be made or fails its
    check (nothing is left under a backup's name then)."""
    if keep < 1:
        raise StoreError("keep at least one backup.")
    started = time.perf_counter()
    at = (now or (lambda: datetime.now(UTC)))()
    folder = Path(folder)
    final = folder / backup_name(at)
    partial = folder / f".{final.name}.partial"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        copy_database(source, partial)
        problems = check_backup(partial)
        if problems:
            raise StoreError(f"the backup of {source} failed its check: {problems[0]}.")
        with open(partial, "rb+") as file:  # on disk before it takes a backup's name
            os.fsync(file.fileno())
        os.replace(partial, final)
    except (OSError, sqlite3.Error) as error:
        raise StoreError(f"cannot back {source} up into {folder}: {error}.") from error
    finally:
        partial.unlink(missing_ok=True)
    for _, old in backups_in(folder)[:-keep]:
        with contextlib.suppress(FileNotFoundError):
            old.unlink()
    return Backup(final, at, final.stat().st_size, time.perf_counter() - started)


class BackupSchedule:
    """Takes a backup every `every` seconds in a thread, counted from the newest backup already
    in the folder (a bot restarted daily still backs up), and keeps the last `keep`."""

    def __init__(
        self,
        source: Path,
        folder: Path,
        *,
        every: float,
        keep: int,
        first_after: float = FIRST_BACKUP_DELAY,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.source = Path(source)
        self.folder = Path(folder)
        self.every = every
        self.keep = keep
        self._wall = wall
        # The first clicks after a start come first: no backup before `first_after` seconds.
        self._not_before = wall() + first_after
        self.last: Backup | None = None
        self.last_error: str | None = None
        self._task: asyncio.Task[None] | None = None

    def due_in(self) -> float:
        """Seconds until the next backup is due (0: now)."""
        existing = backups_in(self.folder)
        due = existing[-1][0].timestamp() + self.every if existing else 0.0
        return max(0.0, due - self._wall(), self._not_before - self._wall())

    async def run_once(self) -> Backup | None:
        try:
            backup = await asyncio.to_thread(take_backup, self.source, self.folder, keep=self.keep)
        except StoreError as error:
            self.last_error = str(error)
            log.error("backup failed: %s", error)
            return None
        self.last, self.last_error = backup, None
        log.info(
            "backup %s written and checked (%.1f MB in %.2f s)",
            backup.path,
            backup.size / 1e6,
            backup.seconds,
        )
        return backup

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="store-backups")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.due_in())
            if await self.run_once() is None:
                # A failed backup is tried again after a while, not at once in a loop.
                await asyncio.sleep(min(self.every, 600.0))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
