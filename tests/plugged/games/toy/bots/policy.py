"""The toy game's simple bot: draw while the stock lasts (a timed-out turn passes)."""

from __future__ import annotations

import random
from typing import Any

from tests.games.toygame import DRAW, PASS


def choose_action(round_: Any, seat: int, rng: random.Random) -> Any:
    return DRAW if round_.stock else PASS


def default_action(round_: Any, seat: int) -> Any:
    return PASS
