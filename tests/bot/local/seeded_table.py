"""`python -m tests.bot.local.seeded_table FIRST_SEED`: `python -m bot --local` whose rounds are
dealt from the seeds FIRST_SEED, FIRST_SEED + 1, … (the bot players draw theirs from the same
seeds), so a browser test replays the same game every run: the same hands, the same menus."""

from __future__ import annotations

import itertools
import sys

from bot.__main__ import LOCAL_ON_PURPOSE
from bot.local.table import run_local
from bot.settings import load_settings


def main(argv: list[str]) -> int:
    seeds = itertools.count(int(argv[0]))
    return run_local(load_settings(), LOCAL_ON_PURPOSE, seed_source=lambda: next(seeds))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
