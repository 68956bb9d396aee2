"""The Activity's web server on its own port, on the tables it is given.

In the bot's process its tables are the service's (`ActivityTables`) and its notifier is told
of every stored change next to the Discord messages'; in the Activity's own process
(`bot.activity.remote`) they come over the bridge."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.activity.access import Launches
from bot.activity.hub import ActivityHub, ActivityNotifier
from bot.activity.identity import DiscordIdentity
from bot.activity.server import create_app
from bot.activity.tables import PageTables

log = logging.getLogger(__name__)


class ActivityServer:
    """Serves the Activity's page and its pages' connections until closed."""

    def __init__(self, tables: PageTables, identity: DiscordIdentity) -> None:
        self.hub = ActivityHub(tables)
        self.notifier = ActivityNotifier(self.hub)
        self.launches = Launches()
        self.app = create_app(self.hub, identity, self.launches)
        self._runner: web.AppRunner | None = None

    def launched(self, channel_id: int, user_id: int, table_id: int) -> None:
        """The user launched the Activity in this channel for this table: their page opens it."""
        self.launches.launched(channel_id, user_id, table_id)

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        log.info("the Activity's page listens on http://%s:%s", host, port)

    async def close(self) -> None:
        await self.hub.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
