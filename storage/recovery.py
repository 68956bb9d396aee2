"""Rebuilding active tables after a restart.

Every lobby and running table is read in a few bulk queries, its match restored (Match.restore)
and its open round replayed through its engine (Game.replay), with the log it showed as kept
(storage/table_logs.py). A table that cannot be rebuilt is marked broken with the reason; the
others load. A damaged kept log breaks nothing: the table loads without it, told why
(`ActiveTable.kept_log_error`)."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any

from games.contract import Event, RoundRecord
from games.errors import IllegalAction
from games.match import Match, MatchState
from storage import table_logs
from storage.codec import SEAT_COLUMNS, TABLE_COLUMNS, loads, seat_from_row, table_from_row
from storage.compaction import decode_log
from storage.errors import StoreError
from storage.interface import GamesResolver
from storage.models import ActiveTable, ActiveTableEntry, LoadedTables, TableLog
from storage.partition import Partition
from storage.sql import Database

ACTIVE = "status IN ('lobby', 'playing')"
LOG_KEPT = 32  # the open round's last public events kept for the table's log
LATEST_MATCH = "match_no = (SELECT MAX(match_no) FROM matches AS m2 WHERE m2.table_id = m.table_id)"


def _record(row: Any, actions: list[tuple[int, str]]) -> RoundRecord:
    return RoundRecord(
        game=row["game"],
        rules_version=row["rules_version"],
        options=loads(row["options"]),
        n_seats=row["n_seats"],
        dealer=row["dealer"],
        round_no=row["match_round"],
        totals=tuple(loads(row["totals_before"])),
        deck=row["deck"].split(),
        actions=actions,
    )


def _match_state(row: Any, points: list[tuple[int, ...]]) -> MatchState:
    return MatchState(
        game=row["game"],
        options=loads(row["options"]),
        n_seats=row["n_seats"],
        first_dealer=row["first_dealer"],
        round_points=points,
    )


async def load_round(db: Database, table_id: int, round_no: int) -> RoundRecord:
    row = await db.fetchone(
        "SELECT * FROM rounds WHERE table_id = ? AND round_no = ?", (table_id, round_no)
    )
    if row is None:
        raise StoreError(f"table {table_id} has no round {round_no}.")
    return await _round_record(db, row)


async def load_match(db: Database, table_id: int) -> MatchState | None:
    row = await db.fetchone(
        "SELECT * FROM matches WHERE table_id = ? ORDER BY match_no DESC LIMIT 1", (table_id,)
    )
    if row is None:
        return None
    points = await db.fetchall(
        "SELECT points FROM rounds WHERE table_id = ? AND match_no = ? AND finished_at IS NOT NULL "
        "ORDER BY round_no",
        (table_id, row["match_no"]),
    )
    return _match_state(row, [tuple(loads(p["points"])) for p in points])


def _active(partition: Partition | None) -> str:
    """The active tables (alias `t`) of the partition's guilds (None: every guild)."""
    return f"t.{ACTIVE} AND {(partition or Partition()).condition('t.guild_id')}"


async def active_table_index(
    db: Database, partition: Partition | None = None
) -> list[ActiveTableEntry]:
    """Every lobby and running table of the partition's guilds in brief (where, which humans
    sit there): what a restart needs before the tables themselves are loaded. Two queries, no
    replay."""
    active = _active(partition)
    humans: dict[int, list[int]] = defaultdict(list)
    for row in await db.fetchall(
        "SELECT s.table_id, s.user_id FROM seats AS s JOIN tables AS t ON t.id = s.table_id "
        f"WHERE {active} AND s.user_id IS NOT NULL AND s.left_at IS NULL "
        "ORDER BY s.table_id, s.position"
    ):
        humans[row[0]].append(row[1])
    return [
        ActiveTableEntry(row[0], row[1], row[2], tuple(humans.get(row[0], ())))
        for row in await db.fetchall(
            f"SELECT id, guild_id, channel_id FROM tables AS t WHERE {active} ORDER BY id"
        )
    ]


async def load_active_tables(
    db: Database,
    resolve: GamesResolver,
    table_ids: Sequence[int] | None = None,
    partition: Partition | None = None,
) -> LoadedTables:
    """Load these active tables of the partition's guilds (None: all of them, every guild);
    ids of tables that are not active (or not the partition's) are skipped."""
    where = _active(partition)
    if table_ids is not None:  # ints, written inline: the same SQL on both backends
        where += f" AND t.id IN ({', '.join(str(int(i)) for i in table_ids) or 'NULL'})"
    tables = await db.fetchall(f"SELECT {TABLE_COLUMNS} FROM tables AS t WHERE {where} ORDER BY id")
    # rows are grouped raw and parsed per table, so one damaged row breaks only its table
    seats: dict[int, list[Any]] = defaultdict(list)
    for row in await db.fetchall(
        f"SELECT {SEAT_COLUMNS} FROM seats "
        f"WHERE table_id IN (SELECT t.id FROM tables AS t WHERE {where}) "
        "ORDER BY table_id, position"
    ):
        seats[row["table_id"]].append(row)
    matches = {
        row["table_id"]: row
        for row in await db.fetchall(
            "SELECT m.* FROM matches AS m JOIN tables AS t ON t.id = m.table_id "
            f"WHERE {where} AND m.{LATEST_MATCH}"
        )
    }
    points: dict[int, list[str]] = defaultdict(list)
    for row in await db.fetchall(
        "SELECT r.table_id, r.points FROM rounds AS r "
        "JOIN matches AS m ON m.table_id = r.table_id AND m.match_no = r.match_no "
        f"JOIN tables AS t ON t.id = r.table_id WHERE {where} AND m.{LATEST_MATCH} "
        "AND r.finished_at IS NOT NULL ORDER BY r.table_id, r.round_no"
    ):
        points[row["table_id"]].append(row["points"])
    open_rounds = {
        row["table_id"]: row
        for row in await db.fetchall(
            "SELECT r.* FROM rounds AS r JOIN tables AS t ON t.id = r.table_id "
            f"WHERE {where} AND r.finished_at IS NULL"
        )
    }
    actions: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for row in await db.fetchall(
        "SELECT r.table_id, a.seat, a.notation FROM rounds AS r "
        "JOIN actions AS a ON a.round_id = r.id JOIN tables AS t ON t.id = r.table_id "
        f"WHERE {where} AND r.finished_at IS NULL ORDER BY r.table_id, r.round_no, a.seq"
    ):
        actions[row["table_id"]].append((row["seat"], row["notation"]))
    # Between two rounds, the table shows the one just finished: its latest round, if done.
    finished_rounds = {
        row["table_id"]: row
        for row in await db.fetchall(
            "SELECT r.* FROM rounds AS r JOIN tables AS t ON t.id = r.table_id "
            f"WHERE {where} AND r.finished_at IS NOT NULL AND r.round_no = "
            "(SELECT MAX(r2.round_no) FROM rounds AS r2 WHERE r2.table_id = r.table_id)"
        )
    }
    kept_logs = {
        row["table_id"]: row
        for row in await db.fetchall(
            "SELECT l.table_id, l.round_no, l.actions, l.entries FROM table_logs AS l "
            f"JOIN tables AS t ON t.id = l.table_id WHERE {where}"
        )
    }

    loaded = LoadedTables()
    for row in tables:
        table_id = row["id"]
        kept_row = kept_logs.get(table_id)
        kept, kept_error = _kept_log(kept_row) if kept_row is not None else (None, None)
        try:
            table = table_from_row(row)
            log: deque[Event] = deque(maxlen=LOG_KEPT)
            later: list[Event] = []
            match, round_, round_no = _rebuild(
                resolve,
                table.game,
                matches.get(table_id),
                [tuple(loads(p)) for p in points[table_id]],
                open_rounds.get(table_id),
                actions[table_id],
                log,
                (kept, later),
            )
            loaded.tables.append(
                ActiveTable(
                    table=table,
                    seats=[seat_from_row(seat) for seat in seats[table_id]],
                    match=match,
                    round=round_,
                    round_no=round_no,
                    log=list(log),
                    kept_log=kept,
                    kept_log_error=kept_error,
                    kept_later=later,
                )
            )
            done = finished_rounds.get(table_id)
            if (
                round_ is None
                and match is not None
                and done is not None
                and done["match_no"] == matches[table_id]["match_no"]
            ):
                await _last_round(db, resolve, loaded.tables[-1], done)
        except Exception as error:  # any failure to rebuild makes this one table broken
            loaded.broken.append((table_id, _reason(row["game"], error)))
    if loaded.broken:
        await _mark_broken(db, loaded.broken)
    return loaded


async def _round_record(db: Database, row: Any) -> RoundRecord:
    """A round's record: its compacted log, or its action rows."""
    if row["log"] is not None:
        logged = decode_log(row["started_at"], row["log"])
        return _record(row, [(seat, notation) for _, seat, notation, _ in logged])
    rows = await db.fetchall(
        "SELECT seat, notation FROM actions WHERE round_id = ? ORDER BY seq", (row["id"],)
    )
    return _record(row, [(a["seat"], a["notation"]) for a in rows])


async def _last_round(db: Database, resolve: GamesResolver, active: ActiveTable, row: Any) -> None:
    """The round a table between two rounds just finished, for what its message shows; a
    round that no longer replays only leaves the message without it (the table plays on)."""
    log: deque[Event] = deque(maxlen=LOG_KEPT)
    later: list[Event] = []
    try:
        record = await _round_record(db, row)
        active.last_round = _replay(
            resolve(row["game"]), record, log, _after(active.kept_log, row), later
        )
    except (IllegalAction, ValueError, StoreError):
        return
    active.last_round_no = row["round_no"]
    active.log = list(log)
    active.kept_later = later


def _after(kept: TableLog | None, round_row: Any) -> int | None:
    """The actions of this round the kept log holds (None: it was not taken in this round)."""
    if kept is None or kept.round_no != round_row["round_no"]:
        return None
    return kept.actions


def _replay(
    game: Any, record: RoundRecord, log: deque[Event], after: int | None, later: list[Event]
) -> Any:
    """`game.replay(record, log)`, the public events of the actions after the first `after`
    also in `later` (the lines a kept log taken then does not hold): one replay for both."""
    if after is None or after >= len(record.actions):
        return game.replay(record, log)
    round_ = game.replay(record.model_copy(update={"actions": record.actions[:after]}), log)
    for seat, notation in record.actions[after:]:
        public = [event for event in round_.apply(seat, notation) if event.to is None]
        log.extend(public)
        later.extend(public)
    return round_


def _kept_log(row: Any) -> tuple[TableLog | None, str | None]:
    """The table's kept log, or why it cannot be read (the table loads without it)."""
    try:
        return table_logs.parse(row["round_no"], row["actions"], row["entries"]), None
    except (ValueError, TypeError) as error:  # pydantic's ValidationError is a ValueError
        return None, f"{type(error).__name__}: {error}"[:300]


def _rebuild(
    resolve: GamesResolver,
    game_name: str,
    match_row: Any,
    points: list[tuple[int, ...]],
    round_row: Any,
    actions: list[tuple[int, str]],
    log: deque[Event],
    kept: tuple[TableLog | None, list[Event]],
) -> tuple[Match | None, Any, int | None]:
    game = resolve(game_name)
    match = Match.restore(game, _match_state(match_row, points)) if match_row else None
    if round_row is None:
        return match, None, None
    kept_log, later = kept
    record = _record(round_row, actions)
    round_ = _replay(resolve(round_row["game"]), record, log, _after(kept_log, round_row), later)
    return match, round_, round_row["round_no"]


def _reason(game: str, error: Exception) -> str:
    if isinstance(error, KeyError | ModuleNotFoundError):
        return f"unknown game {game!r} ({error})"
    if isinstance(error, IllegalAction):
        return f"replay failed: {error.rule}: {error.message}"
    return f"replay failed: {type(error).__name__}: {error}"


async def _mark_broken(db: Database, broken: list[tuple[int, str]]) -> None:
    now = db.stamp()
    async with db.transaction() as conn:
        await conn.executemany(
            "UPDATE tables SET status = 'broken', broken_reason = ?, updated_at = ? WHERE id = ?",
            [(reason, now, table_id) for table_id, reason in broken],
        )
        await conn.executemany(table_logs.DELETE, [(table_id,) for table_id, _ in broken])
