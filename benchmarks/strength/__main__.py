"""`python -m benchmarks.strength GAME [options]`: run that game's strength script.

The script is benchmarks/strength/<game>.py (`--help` lists its options); `python -m
benchmarks.strength gap GAME` measures a strong bot against a deeper search
(benchmarks/strength/gap.py)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks.strength
from games.registry import game_names

GAMES = tuple(
    sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.strength.__path__) if m.name in game_names()
    )
)

SCRIPTS = ("gap",)  # scripts of no single game


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in (*GAMES, *SCRIPTS):
        names = "|".join((*GAMES, *SCRIPTS))
        print(f"usage: python -m benchmarks.strength {{{names}}} [--help]", file=sys.stderr)
        return 2
    module = importlib.import_module(f"benchmarks.strength.{argv[0]}")
    module.main(argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
