"""The servers' leaderboard seasons, rolled over on the bot's clock.

A timer at each month's start (00:00 UTC), and a catch-up when the bot starts (a restart that
slept through a boundary), close every season that is over and post its final boards, once,
where its server asked (`/settings season_channel`)."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

from bot.clock import TimerHandle
from bot.render.seasons import season_over_text, with_season_line
from bot.render.stats import leaderboard_embed
from games.registry import game_names
from storage.errors import StoreError
from storage.models import ClosedSeason
from storage.seasons import next_boundary

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

BOARD_SIZE = 10
RETRY_SECONDS = 60.0  # the store could not be reached at a boundary: try again this soon


class SeasonRollover:
    """Closes the seasons that are over and announces each once (the store decides which
    call closed it, so a second timer, process or restart never announces it again)."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._timer: TimerHandle | None = None
        self._lock = asyncio.Lock()
        self.caught_up = asyncio.Event()  # the start's catch-up is done (tests wait on it)

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.bot.clock.now(), UTC)

    async def start(self) -> None:
        await self._tick()
        self.caught_up.set()

    @property
    def armed(self) -> bool:
        """Whether the timer of the next season's start is set (one for the whole bot)."""
        return self._timer is not None

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _tick(self) -> None:
        try:
            await self.catch_up()
        except StoreError as error:
            log.warning("seasons could not be rolled over: %s", error)
            self._arm(RETRY_SECONDS)
            return
        self._arm((next_boundary(self.now()) - self.now()).total_seconds())

    def _arm(self, delay: float) -> None:
        self.close()
        self._timer = self.bot.clock.call_later(delay, self._tick)

    async def catch_up(self) -> list[ClosedSeason]:
        """Close the seasons over now (or no longer run by their server); announce them."""
        async with self._lock:
            closed = await self.bot.store.close_ended_seasons(self.now())
            for season in closed:
                await self._announce(season)
            return closed

    async def _announce(self, season: ClosedSeason) -> None:
        if season.channel_id is None:
            return
        language = await self.bot.guild_settings.public_language(season.guild_id)
        embeds = []
        winners = {}
        for game in game_names():
            rows = await self.bot.store.leaderboard(
                season.guild_id, game, limit=BOARD_SIZE, season=season.season
            )
            if rows:
                winners[game] = rows[0]
                board = leaderboard_embed(language, game, "rating", rows, 1)
                embeds.append(with_season_line(board, language, season.season, final=True))
        if not embeds:
            return  # nobody was ranked: nothing to announce
        try:
            channel = self.bot.get_partial_messageable(season.channel_id)
            await channel.send(
                content=season_over_text(language, season.season, winners),
                embeds=embeds,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:  # a channel gone or closed to the bot
            log.warning(
                "guild %s: the season %s could not be announced: %s",
                season.guild_id,
                season.season,
                error,
            )
