"""`python -m storage.check FILE`: the whole-file integrity check, on demand.

The bot may be running: the check reads only. It prints "ok" or the problems; the exit status is
1 if any."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from storage.integrity import quick_check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.check", description=__doc__)
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if not args.file.is_file():
        print(f"{args.file} is not a file.", file=sys.stderr)
        return 2
    try:
        problems = quick_check(args.file)
    except sqlite3.OperationalError as error:
        print(f"cannot check {args.file}: {error}", file=sys.stderr)
        return 2
    for problem in problems[:20]:
        print(problem)
    if problems:
        print(f"{args.file} is corrupt: restore it from a backup.", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
