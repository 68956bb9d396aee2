"""Snapshots for rendering tests, made from real rounds (the engines' views): Dutch by default,
any game by name."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.snapshots import (
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
from games.dutch.bots.policy import choose_action
from games.registry import get_game

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


def seats(n: int, names: Sequence[str] = NAMES) -> tuple[SeatInfo, ...]:
    """`n` people seated in order (each at the place of their seat)."""
    return tuple(
        SeatInfo(seat=i, user_id=1000 + i, name=names[i], is_bot=False, position=i)
        for i in range(n)
    )


def public(
    round_: Any | None,
    *,
    game: str = "dutch",
    n_seats: int = 3,
    seated: tuple[SeatInfo, ...] | None = None,
    status: str = PLAYING,
    events: Sequence[Any] = (),
    log_before: Sequence[LogEntry] = (),
    last_round: RoundEnd | None = None,
    winners: tuple[int, ...] = (),
    totals: tuple[int, ...] | None = None,
    target: int = 100,
) -> PublicSnapshot:
    """The table's public snapshot of `round_` (None: no round, as in a lobby) of `game` at its
    default preset: `seated` (else `seats(n_seats)`), the public `events` in the log after
    `log_before`."""
    engine = get_game(game)
    log = (*log_before, *(LogEntry(e.kind, e.seat, dict(e.data)) for e in events if e.to is None))
    seated = seated or seats(n_seats)
    return PublicSnapshot(
        table_id=12,
        guild_id=1,
        channel_id=2,
        game=game,
        preset=next(iter(engine.presets)),
        options=engine.options().model_dump(),
        target=target,
        host_id=1000,
        status=status,
        seats=seated,
        min_seats=engine.min_seats,
        max_seats=engine.max_seats,
        round_no=None if status == LOBBY else 1,
        view=round_.public_view() if round_ is not None else None,
        to_act=round_.to_act() if round_ is not None and status == PLAYING else (),
        totals=totals or (0,) * len(seated),
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
