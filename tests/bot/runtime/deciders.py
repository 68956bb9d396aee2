"""Bot deciders for worker processes that misbehave (the tests start real workers with them)."""

from __future__ import annotations

import os
import pickle
import threading
import time
from typing import Any

from bot.runtime import worker
from bot.runtime.worker import HEADER, decide, write_frame


def dies_mid_answer(round_: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
    """Starts its answer (a frame announced 100 bytes long, 10 of them sent) and dies."""
    assert worker.CHANNEL is not None
    worker.CHANNEL.sendall((100).to_bytes(HEADER, "big") + b"x" * 10)
    os._exit(1)


def babbles(round_: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
    """Sends a frame that is no answer, then answers as a worker would."""
    assert worker.CHANNEL is not None
    write_frame(worker.CHANNEL, b"\x80\x04 not an answer")
    return decide(round_, seat, level, seed, budget)


def talks_nonsense(round_: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
    """Answers in the right form, but not with a move of the game."""
    return "castle kingside"


def hangs_after_first(round_: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
    """Answers its first decision, then never again (a bug looping forever)."""
    global _answered
    if _answered:
        threading.Event().wait()
    _answered = True
    return decide(round_, seat, level, seed, budget)


_answered = False


class DiesInAChore:
    """A chore (a review's piece) during which its worker dies."""

    def run(self, budget: float | None) -> None:
        os._exit(1)


def tells_its_budget(round_: Any, seat: int, level: str, seed: int, budget: float | None) -> str:
    """Answers the budget it was given, as text; its job of seed 1 takes 0.3 s first (a long
    search that the job behind it waits for)."""
    if seed == 1:
        time.sleep(0.3)
    return repr(budget)


class KeptRounds:
    """A chore that answers the rounds its worker keeps, least recently used first: [table,
    the round pickled, in hex] each."""

    def run(self, budget: float | None) -> list[list[Any]]:
        kept = [(key, worker.ROUNDS.get(key)) for key in worker.ROUNDS.order()]
        return [[key, pickle.dumps(entry[1]).hex()] for key, entry in kept if entry is not None]
