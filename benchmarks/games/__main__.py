"""`python -m benchmarks.games GAME [--short]`: run that game's benchmark module.

The module is benchmarks/games/<game>.py; `--short` runs it for a moment (the test suite does,
so it cannot rot)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks.games
from games.registry import game_names

GAMES = tuple(
    m.name for m in pkgutil.iter_modules(benchmarks.games.__path__) if m.name in game_names()
)


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2 or argv[0] not in GAMES or argv[1:] not in ([], ["--short"]):
        print(f"usage: python -m benchmarks.games {{{'|'.join(GAMES)}}} [--short]", file=sys.stderr)
        return 2
    module = importlib.import_module(f"benchmarks.games.{argv[0]}")
    module.main(short=argv[1:] == ["--short"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
