"""Turn mentions: the message that mentioned the player whose turn it is, one per table at
most, kept while that turn lasts so that a restarted bot deletes it when the turn is played
and does not mention the same turn again."""

from __future__ import annotations

from storage.models import TurnMention
from storage.partition import Partition
from storage.recovery import ACTIVE
from storage.sql import Database


async def save_turn_mention(db: Database, mention: TurnMention) -> None:
    """Keep this table's mention (it replaces the table's previous one)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO turn_mentions (table_id, channel_id, message_id, seat, round_no) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "seat = excluded.seat, round_no = excluded.round_no",
            (
                mention.table_id,
                mention.channel_id,
                mention.message_id,
                mention.seat,
                mention.round_no,
            ),
        )


async def delete_turn_mention(db: Database, table_id: int, message_id: int) -> None:
    """Forget the table's mention if it is still this message (a newer one stays)."""
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM turn_mentions WHERE table_id = ? AND message_id = ?",
            (table_id, message_id),
        )


async def turn_mentions(db: Database, partition: Partition | None = None) -> list[TurnMention]:
    """The mentions kept for the lobby and running tables of the partition's guilds."""
    rows = await db.fetchall(
        "SELECT m.table_id, m.channel_id, m.message_id, m.seat, m.round_no "
        "FROM turn_mentions AS m JOIN tables AS t ON t.id = m.table_id "
        f"WHERE t.{ACTIVE} AND {(partition or Partition()).condition('t.guild_id')} "
        "ORDER BY m.table_id"
    )
    return [
        TurnMention(table_id=r[0], channel_id=r[1], message_id=r[2], seat=r[3], round_no=r[4])
        for r in rows
    ]
