"""What the pool of bot workers (`bot.runtime.pool`) tells the rest of the bot.

It tells how each decision was made or why it fell back, the observer it tells (the bot's
telemetry), the counts it keeps (the bench reads them), and the errors a decision or a chore can
end with."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Protocol

# Why a decision was played by the simple policy
OVERLOAD = "overload"  # it could not have started in time
DEADLINE = "deadline"  # not answered in time
DIED = "died"  # its worker died
HUNG = "hung"  # its worker was stuck (counted when the worker is replaced)
GARBAGE = "garbage"  # its worker answered something that is no move
ERROR = "error"  # the policy raised in the worker
MISFIT = "misfit"  # the actions sent did not follow the round its worker keeps (a bug)
TIMED_OUT = "timed_out"  # a chore not taken, or not answered, in time

SEARCHED = "searched"  # how a decision a worker answered was made (for the observer)
FORCED = "forced"  # the only legal move, played without asking a worker
HERE = "here"  # a policy that does not search, decided in this process


class PoolObserver(Protocol):
    """Who is told of every decision and replaced worker (the bot's telemetry)."""

    def decision(self, game: str, seconds: float, how: str = SEARCHED) -> None:
        """A decision was played: `how` is SEARCHED or the fallback's reason."""
        ...

    def worker_restarted(self) -> None: ...


@dataclass(slots=True)
class PoolStats:
    """Counts since the pool was made (the bench reads them)."""

    decided: Counter[str] = field(default_factory=Counter)  # answered by a worker, per game
    forced: Counter[str] = field(default_factory=Counter)  # one legal move, no worker, per game
    # workers' CPU seconds, per game
    cpu: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    fallbacks: Counter[str] = field(default_factory=Counter)  # played simply, per reason
    late: int = 0  # answers that came after their decision was played simply
    replaced: int = 0  # workers replaced (died, stuck, garbage, never ready)
    busy: float = 0.0  # wall seconds the workers spent on decisions, as they report it
    sent: int = 0  # decisions sent to the workers
    sent_bytes: int = 0  # the bytes of their frames
    whole: int = 0  # decisions sent with their whole round (the others: the actions since)
    stale: int = 0  # decisions not sent: their round moved on first (the follow-up drops them)
    here: Counter[str] = field(default_factory=Counter)  # heuristics decided here, per game

    def copy(self) -> PoolStats:
        return PoolStats(
            Counter(self.decided),
            Counter(self.forced),
            defaultdict(float, self.cpu),
            Counter(self.fallbacks),
            self.late,
            self.replaced,
            self.busy,
            self.sent,
            self.sent_bytes,
            self.whole,
            self.stale,
            Counter(self.here),
        )


class Stale(Exception):
    """The round of a decision moved on (a click, a timeout, a rollback) before the decision
    was made: nobody plays it (the follow-up drops a move decided for a state gone by)."""


class ChoreFailed(Exception):
    """A chore did not come back: `reason` is DIED, GARBAGE, HUNG, ERROR or TIMED_OUT."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
