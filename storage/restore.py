"""`python -m storage.restore BACKUP [--database FILE]`: put a backup back, after checking it.

The backup becomes the bot's SQLite file. Stop the bot first: a running bot holds the file and
is refused.

The file it replaces is not lost: it is first copied (consistently, its WAL included) beside
itself as `<file>.before-restore-<UTC time>`. The database defaults to `DATABASE_PATH` from the
environment or `.env`, else `data/cardtable.sqlite3`, as for the bot.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

from dotenv import dotenv_values

from storage.backup import check_backup, copy_database
from storage.database import lock_database_file, unlock_database_file
from storage.errors import StoreError

DEFAULT_DATABASE = Path("data/cardtable.sqlite3")


def default_database() -> Path:
    value = os.environ.get("DATABASE_PATH") or dotenv_values(".env").get("DATABASE_PATH")
    return Path(value) if value else DEFAULT_DATABASE


def restore(backup: Path, database: Path, *, now: datetime | None = None) -> Path | None:
    """Replace `database` by a checked copy of `backup`. Returns where the replaced file was
    kept (None if there was none). Raises StoreError, changing nothing, if the backup fails its
    check or the database is in use."""
    backup, database = Path(backup), Path(database)
    problems = check_backup(backup)
    if problems:
        raise StoreError(f"{problems[0]}: nothing was restored.")
    if backup.resolve() == database.resolve():
        raise StoreError(f"{backup} is the database itself: nothing was restored.")
    database.parent.mkdir(parents=True, exist_ok=True)
    lock_fd = lock_database_file(database)  # refuses while a bot (or store) has the file open
    try:
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
        kept: Path | None = None
        if database.exists():
            kept = database.with_name(f"{database.name}.before-restore-{stamp}")
            copy_database(database, kept)
        incoming = database.with_name(f".{database.name}.restoring")
        incoming.unlink(missing_ok=True)
        copy_database(backup, incoming)
        with open(incoming, "rb+") as file:
            os.fsync(file.fileno())
        # The old WAL and shared-memory files belong to the replaced file: they must go first,
        # or SQLite would apply the old WAL to the restored file.
        for leftover in (f"{database}-wal", f"{database}-shm"):
            Path(leftover).unlink(missing_ok=True)
        os.replace(incoming, database)
        return kept
    except (OSError, sqlite3.Error) as error:
        raise StoreError(f"cannot restore {backup} into {database}: {error}.") from error
    finally:
        unlock_database_file(lock_fd)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.restore", description=__doc__)
    parser.add_argument("backup", type=Path, help="a backup (data/backups/cardtable-….sqlite3)")
    parser.add_argument(
        "--database",
        type=Path,
        default=None,
        help="the bot's SQLite file (default: DATABASE_PATH, else data/cardtable.sqlite3)",
    )
    args = parser.parse_args(argv)
    database = args.database or default_database()
    try:
        kept = restore(args.backup, database)
    except StoreError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"{database} restored from {args.backup}.")
    if kept is not None:
        print(f"The file it replaced is kept as {kept}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
