"""Which table a page may open: one its Activity instance's channel holds, asked of Discord.

Discord is asked before the page sees anything. A page names the SDK's instance id and channel
id (and the table it shows, when it has one: a reconnect). It is let in only when Discord
answers that the instance runs in that channel and the viewer takes part in it. It then sees
the table named, which must be at that channel (or its thread); else the table its viewer last
launched the Activity for there ("Open the table", the entry point); else the one they sit at
there; else the channel's newest. A refusal is a `TableError`, told the viewer in one sentence.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

import aiohttp

from bot.activity.identity import DiscordIdentity, Viewer
from bot.activity.tables import PageTables
from bot.service.errors import TableError

KEPT_LAUNCHES = 10_000  # (channel, user) launches remembered, the oldest forgotten first


@dataclass(frozen=True, slots=True)
class PageAsks:
    """What a page's connection names: its instance, its channel, and a table if it has one."""

    instance_id: str
    channel_id: int | None
    table_id: int | None

    @classmethod
    def read(cls, query: Mapping[str, str]) -> PageAsks:
        """The query of `/ws`; a number that is not one raises ValueError."""
        channel, table = query.get("channel", ""), query.get("table", "")
        return cls(
            query.get("instance", ""),
            int(channel) if channel else None,
            int(table) if table else None,
        )


class Launches:
    """The table each user last launched the Activity for, in each channel: Discord's launch
    carries no table, so the page learns it here."""

    def __init__(self) -> None:
        self._tables: OrderedDict[tuple[int, int], int] = OrderedDict()

    def launched(self, channel_id: int, user_id: int, table_id: int) -> None:
        self._tables[(channel_id, user_id)] = table_id
        self._tables.move_to_end((channel_id, user_id))
        if len(self._tables) > KEPT_LAUNCHES:
            self._tables.popitem(last=False)

    def table(self, channel_id: int, user_id: int) -> int | None:
        return self._tables.get((channel_id, user_id))


async def admitted_table(
    identity: DiscordIdentity,
    session: aiohttp.ClientSession,
    tables: PageTables,
    launches: Launches,
    viewer: Viewer,
    asks: PageAsks,
) -> int:
    """The table this page may show; refused (TableError) when Discord knows no such
    instance, when it runs in another channel than the page says or the table is at, when
    the viewer is not in it, or when its channel has no table."""
    instance = await identity.instance(session, asks.instance_id, viewer.user_id)
    if instance is None:
        raise TableError("activity_unknown")
    channel = instance.channel_id
    if channel is None or (asks.channel_id is not None and asks.channel_id != channel):
        raise TableError("activity_elsewhere")
    if viewer.user_id not in instance.users:
        raise TableError("activity_not_in")
    if asks.table_id is not None:
        if not await tables.at_channel(asks.table_id, channel):
            raise TableError("activity_elsewhere")
        return asks.table_id
    launched = launches.table(channel, viewer.user_id)
    if launched is not None and await tables.at_channel(launched, channel):
        return launched
    found = await tables.table_in_channel(channel, viewer.user_id)
    if found is None:
        raise TableError("activity_no_table")
    return found
