"""Snapshots for rendering tests, made from real Dutch rounds (the engine's views)."""

from __future__ import annotations

import random
from typing import Any

from bot.service.snapshots import (
    LOBBY,
    PLAYING,
    ROUND_OVER,
    LogEntry,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
    RoundEnd,
    SeatInfo,
)
from games.contract import RoundSetup
from games.dutch import GAME
from games.dutch.policy import choose_action

NAMES = ("Alice", "Bob", "Chloé", "Dan", "Eve", "Fay", "Gus", "Hana", "Ivo", "Jo")


def new_round(n_seats: int = 3, seed: int = 7, preset: str = "classic") -> Any:
    return GAME.new_round(GAME.options(preset), RoundSetup(n_seats=n_seats), seed=seed)


def play(round_: Any, steps: int, seed: int = 1) -> list[Any]:
    """Play `steps` actions with the engine's simple policy; returns every event."""
    rng = random.Random(seed)
    events: list[Any] = []
    for _ in range(steps):
        if round_.finished:
            break
        seat = round_.to_act()[0]
        events += round_.apply(seat, choose_action(round_, seat, rng))
    return events


def seats(n: int) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(seat=i, user_id=1000 + i, name=NAMES[i], is_bot=False) for i in range(n))


def public(
    round_: Any | None,
    *,
    n_seats: int = 3,
    status: str = PLAYING,
    events: list[Any] = (),  # type: ignore[assignment]
    last_round: RoundEnd | None = None,
    winners: tuple[int, ...] = (),
    totals: tuple[int, ...] | None = None,
) -> PublicSnapshot:
    log = tuple(LogEntry(e.kind, e.seat, dict(e.data)) for e in events if e.to is None)
    return PublicSnapshot(
        table_id=12,
        guild_id=1,
        channel_id=2,
        game="dutch",
        preset="classic",
        options=GAME.options().model_dump(),
        target=100,
        host_id=1000,
        status=status,
        seats=seats(n_seats),
        min_seats=2,
        max_seats=10,
        round_no=None if status == LOBBY else 1,
        view=round_.public_view() if round_ is not None else None,
        to_act=round_.to_act() if round_ is not None and status == PLAYING else (),
        totals=totals or (0,) * n_seats,
        log=log[-12:],
        last_round=last_round,
        winners=winners,
        turn_deadline=None,
        next_round_at=None,
        version=1,
    )


def private(round_: Any, seat: int, reveals: tuple[Reveal, ...] = ()) -> PrivateSnapshot:
    return PrivateSnapshot(
        table_id=12,
        seat=seat,
        round_no=1,
        status=PLAYING,
        view=round_.view(seat),
        legal=tuple(str(a) for a in round_.legal_actions(seat)),
        reveals=reveals,
        away=False,
        turn_deadline=None,
    )


def reveals_of(events: list[Any], seat: int) -> tuple[Reveal, ...]:
    return tuple(
        Reveal(e.kind, e.seat, dict(e.data)) for e in events if e.to is not None and seat in e.to
    )


def round_end(round_: Any) -> RoundEnd:
    result = round_.result()
    return RoundEnd(
        round_no=1,
        points=result.points,
        totals=result.points,
        detail=result.detail,
        view=round_.public_view(),
    )


__all__ = ["LOBBY", "PLAYING", "ROUND_OVER"]
