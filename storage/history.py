"""A player's history and finished hands.

The history is the matches they played in a guild (finished ones, and the finished hands of one
still in play), newest first; a finished hand comes with its whole record.

Nothing here reads a hand that is not finished: `finished_hand` refuses one, so a replay or a
hand record can never show a round still being played.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from games.contract import RoundRecord
from storage.codec import loads
from storage.errors import StoreError
from storage.recovery import load_round
from storage.sql import Database


class HandSummary(BaseModel):
    round_no: int  # the table's round number (what replays and records ask for)
    points: list[int]  # per side


CLOSED_STATUSES = frozenset({"finished", "abandoned", "broken"})  # a table no longer played


class HistoryEntry(BaseModel):
    table_id: int
    match_no: int
    game: str
    seat: int
    n_seats: int
    players: list[str]  # names by seat, as kept
    at: datetime  # when it finished, or its last finished hand for a match in play
    finished: bool
    won: bool | None  # None while in play
    stopped: bool = False  # never finished: its table was stopped (or broke) mid-match
    final_totals: list[int]  # per side (the totals so far while in play)
    hands: list[HandSummary]


class FinishedHand(BaseModel):
    table_id: int
    round_no: int
    guild_id: int
    record: RoundRecord
    names: list[str]
    points: list[int]
    detail: dict[str, object]
    finished_at: datetime


async def match_history(
    db: Database,
    guild_id: int,
    user_id: int,
    game: str | None = None,
    limit: int = 5,
    offset: int = 0,
) -> list[HistoryEntry]:
    """The user's matches in this guild with at least one finished hand, newest first."""
    one_game = "" if game is None else "AND m.game = ? "
    params: list[object] = [guild_id, user_id]
    if game is not None:
        params.append(game)
    rows = await db.fetchall(
        "SELECT m.table_id, m.match_no, m.game, m.n_seats, m.finished_at, m.winners, "
        "m.final_totals, m.seat_names, s.seat, t.status AS table_status, "
        "(SELECT MAX(r.finished_at) FROM rounds AS r WHERE r.table_id = m.table_id "
        "AND r.match_no = m.match_no AND r.finished_at IS NOT NULL AND r.points IS NOT NULL) "
        "AS last_hand "
        "FROM matches AS m JOIN tables AS t ON t.id = m.table_id "
        "JOIN seats AS s ON s.table_id = m.table_id "
        f"WHERE t.guild_id = ? AND s.user_id = ? {one_game}"
        "ORDER BY COALESCE(m.finished_at, m.started_at) DESC, m.table_id DESC, m.match_no DESC",
        params,
    )
    entries = []
    for row in rows:
        if row["last_hand"] is None:
            continue  # no finished hand yet: nothing to show
        hands = await db.fetchall(
            "SELECT round_no, points FROM rounds WHERE table_id = ? AND match_no = ? "
            "AND finished_at IS NOT NULL AND points IS NOT NULL ORDER BY round_no",
            (row["table_id"], row["match_no"]),
        )
        summaries = [HandSummary(round_no=h["round_no"], points=loads(h["points"])) for h in hands]
        finished = row["finished_at"] is not None
        names = await _names(db, row["table_id"], row["seat_names"], row["n_seats"])
        totals = loads(row["final_totals"]) if finished and row["final_totals"] else _sum(summaries)
        winners = loads(row["winners"]) if finished and row["winners"] else []
        entries.append(
            HistoryEntry(
                table_id=row["table_id"],
                match_no=row["match_no"],
                game=row["game"],
                seat=row["seat"],
                n_seats=row["n_seats"],
                players=names,
                at=datetime.fromisoformat(row["finished_at"] or row["last_hand"]),
                finished=finished,
                won=(row["seat"] in winners) if finished else None,
                stopped=not finished and row["table_status"] in CLOSED_STATUSES,
                final_totals=totals,
                hands=summaries,
            )
        )
    # Sorted again by the time shown: a match in play is as recent as its last finished hand.
    entries.sort(key=lambda e: (e.at, e.table_id, e.match_no), reverse=True)
    return entries[offset : offset + limit]


def _sum(hands: list[HandSummary]) -> list[int]:
    if not hands:
        return []
    return [sum(h.points[i] for h in hands) for i in range(len(hands[0].points))]


async def _names(db: Database, table_id: int, stored: str | None, n_seats: int) -> list[str]:
    if stored:
        return [name or "" for name in loads(stored)]
    rows = await db.fetchall(
        "SELECT seat, display_name FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
    )
    by_seat = {row["seat"]: row["display_name"] for row in rows}
    return [by_seat.get(seat, "") for seat in range(n_seats)]


async def finished_hand(db: Database, table_id: int, round_no: int) -> FinishedHand:
    """A finished hand's record, result and names. Raises StoreError for a hand that is not
    finished (or does not exist): a replay never reads a round in progress."""
    row = await db.fetchone(
        "SELECT r.finished_at, r.points, r.detail, r.match_no, r.n_seats, t.guild_id, "
        "m.seat_names FROM rounds AS r JOIN tables AS t ON t.id = r.table_id "
        "LEFT JOIN matches AS m ON m.table_id = r.table_id AND m.match_no = r.match_no "
        "WHERE r.table_id = ? AND r.round_no = ?",
        (table_id, round_no),
    )
    if row is None or row["finished_at"] is None or row["points"] is None:
        raise StoreError(f"table {table_id} has no finished hand {round_no}.")
    record = await load_round(db, table_id, round_no)
    names = await _names(db, table_id, row["seat_names"], row["n_seats"])
    return FinishedHand(
        table_id=table_id,
        round_no=round_no,
        guild_id=row["guild_id"],
        record=record,
        names=names,
        points=loads(row["points"]),
        detail=loads(row["detail"]) if row["detail"] else {},
        finished_at=datetime.fromisoformat(row["finished_at"]),
    )


async def neighbour_hand(db: Database, table_id: int, round_no: int, step: int) -> int | None:
    """The finished hand before (step -1) or after (step 1) this one at the same table."""
    if step < 0:
        sql = (
            "SELECT MAX(round_no) FROM rounds WHERE table_id = ? AND round_no < ? "
            "AND finished_at IS NOT NULL AND points IS NOT NULL"
        )
    else:
        sql = (
            "SELECT MIN(round_no) FROM rounds WHERE table_id = ? AND round_no > ? "
            "AND finished_at IS NOT NULL AND points IS NOT NULL"
        )
    row = await db.fetchone(sql, (table_id, round_no))
    return None if row is None or row[0] is None else int(row[0])


async def hand_review(db: Database, table_id: int, round_no: int, seat: int) -> str | None:
    """The stored review of this seat's play in this hand (JSON text), or None."""
    row = await db.fetchone(
        "SELECT review FROM hand_reviews WHERE table_id = ? AND round_no = ? AND seat = ?",
        (table_id, round_no, seat),
    )
    return None if row is None else str(row[0])


async def save_hand_review(
    db: Database, table_id: int, round_no: int, seat: int, review: str
) -> None:
    """Keep a review (a second one for the same seat and hand replaces the first)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO hand_reviews (table_id, round_no, seat, review) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (table_id, round_no, seat) DO UPDATE SET review = excluded.review",
            (table_id, round_no, seat, review),
        )
