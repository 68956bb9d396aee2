"""Snapshots from a live table: what the table message and each seat's message show.

Each seat's message is private. Only engine views and service records go in, never the round
itself."""

from __future__ import annotations

from typing import Any

from bot.service._live_table import LiveTable
from bot.service._show_once import without_private_reveals
from bot.snapshots import (
    CLOSED,
    PLAYING,
    ROUND_OVER,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
    SeatInfo,
)


def public_snapshot(table: LiveTable) -> PublicSnapshot:
    """The table message's content: lobby or the round's public view, seats, log, totals."""
    round_ = table.round
    totals = table.seat_totals()
    seats = _seat_infos(table, totals)
    playing = table.status == PLAYING and round_ is not None
    return PublicSnapshot(
        table_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        game=table.game.name,
        preset=table.preset,
        options=table.options_json,
        target=table.options.target,
        host_id=table.host_id,
        status=CLOSED if table.closed else table.status,
        seats=seats,
        min_seats=table.game.min_seats,
        max_seats=table.game.max_seats,
        round_no=table.round_no,
        view=round_.public_view() if round_ is not None else None,
        to_act=round_.to_act() if playing and round_ is not None else (),
        totals=totals,
        log=tuple(table.log),
        last_round=table.last_round,
        winners=table.winners,
        turn_deadline=table.timer_due if playing and table.waiting_since else None,
        next_round_at=table.next_round_at if table.status == ROUND_OVER else None,
        version=table.version,
        watchers=len(table.watchers),
        spectators=table.spectators,
        coach=table.coach,
    )


def _seat_infos(table: LiveTable, totals: tuple[int, ...]) -> tuple[SeatInfo, ...]:
    """Each seat as shown, reusing the last published one where nothing changed (the table is
    published after every click; its seats seldom change)."""
    before = table.published.seats if table.published is not None else ()
    infos = []
    for i, s in enumerate(table.seats):
        left = s.left_at is not None
        total = totals[i] if i < len(totals) else 0
        if i < len(before):
            info = before[i]
            if (
                info.user_id == s.user_id
                and info.name == s.name
                and info.is_bot == s.is_bot
                and info.away == s.away
                and info.left == left
                and info.total == total
                and info.position == s.position
            ):
                infos.append(info)
                continue
        infos.append(
            SeatInfo(
                seat=i,
                user_id=s.user_id,
                name=s.name,
                is_bot=s.is_bot,
                away=s.away,
                left=left,
                total=total,
                position=s.position,
            )
        )
    return tuple(infos)


def private_snapshot(
    table: LiveTable, seat: int, *, deliver: bool, hide_reveals: bool = False
) -> PrivateSnapshot[Any]:
    """`deliver`: a "My cards" request: hand out the pending reveals once, and hide the
    ones the last action showed (they were shown in that click's ActResult). `hide_reveals`
    alone hides them and hands out nothing."""
    round_ = table.round
    reveals: tuple[Reveal, ...] = ()
    if deliver:
        reveals = tuple(table.pending_reveals.pop(seat, ()))
    view = None
    legal: tuple[str, ...] = ()
    if round_ is not None:
        view = round_.view(seat)
        if deliver or hide_reveals:
            view = without_private_reveals(view, round_.public_view())
        if table.status == PLAYING and not round_.finished:
            legal = round_.legal_notation(seat)
    auto_play = table.auto_plays.get(seat) if legal else None
    return PrivateSnapshot(
        table_id=table.id,
        seat=seat,
        round_no=table.round_no,
        status=table.status,
        view=view,
        legal=legal,
        reveals=reveals,
        away=table.seats[seat].away,
        turn_deadline=table.timer_due if legal else None,
        # built under the lock, after every change made under it: published at this version
        version=table.version,
        game=table.game.name,
        auto_play=auto_play[0] if auto_play else None,
        auto_play_at=auto_play[1] if auto_play else None,
    )
