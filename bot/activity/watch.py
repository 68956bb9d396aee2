"""Who may keep an Activity page open: each open page's viewer asked again in their instance.

A page is let in when Discord answers that its viewer takes part in its instance
(bot.activity.access); the viewer may leave it later (they close the Activity, leave the
channel's, are removed) or the instance may end. So before a page's move is played its instance
is asked again (an answer younger than `INSTANCE_SECONDS` serves), and every `INSTANCE_SECONDS`
each instance with open pages is asked once, however many pages share it: an idle page goes too.
A page whose viewer is no longer in it, or whose instance ended, is told so in one sentence and
closed. When Discord cannot be asked (a network error, a 5xx) the pages stay open and a warning
is logged: nobody is put out for Discord's outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp

from bot.activity.identity import INSTANCE_SECONDS, DiscordIdentity, Instance, NotIdentified

log = logging.getLogger(__name__)

LEFT = "activity_not_in"  # the sentence a page whose viewer left is closed with
# what a failed question to Discord raises: the page is kept
UNANSWERED = (NotIdentified, aiohttp.ClientError, TimeoutError)


@dataclass(eq=False)
class Watched:
    """One open page: its viewer, its instance, and how it is told why and closed."""

    user_id: int
    instance_id: str
    close: Callable[[str], Awaitable[None]]  # with the refusal's key


def takes_part(instance: Instance | None, user_id: int) -> bool:
    return instance is not None and user_id in instance.users


class Watch:
    """The open pages of this process, each checked against its Activity instance."""

    def __init__(
        self,
        identity: DiscordIdentity,
        period: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.identity = identity
        # waits between two checks of every open page (tests: a tick of their own)
        self.period = period if period is not None else _every_instance_period
        self.pages: set[Watched] = set()

    def add(self, watched: Watched) -> None:
        self.pages.add(watched)

    def discard(self, watched: Watched) -> None:
        self.pages.discard(watched)

    async def still_in(self, session: aiohttp.ClientSession, watched: Watched) -> bool:
        """Whether the page's viewer still takes part in its instance (before a move); True
        when Discord cannot be asked."""
        try:
            instance = await self.identity.instance(session, watched.instance_id, watched.user_id)
        except UNANSWERED as error:
            log.warning("an Activity instance could not be checked again: %r", error)
            return True
        return takes_part(instance, watched.user_id)

    async def leave(self, watched: Watched) -> None:
        """The page's viewer left: it is told so and closed (once)."""
        if watched not in self.pages:
            return
        self.pages.discard(watched)
        log.info("an Activity page of user %s closed: they left its instance", watched.user_id)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await watched.close(LEFT)

    async def check(self, session: aiohttp.ClientSession) -> None:
        """Every open page checked: each instance asked once, the pages it lacks closed."""
        sharing: dict[str, list[Watched]] = {}
        for watched in list(self.pages):
            sharing.setdefault(watched.instance_id, []).append(watched)
        await asyncio.gather(
            *(self._check(session, instance_id, pages) for instance_id, pages in sharing.items())
        )

    async def _check(
        self, session: aiohttp.ClientSession, instance_id: str, pages: list[Watched]
    ) -> None:
        try:
            instance = await self.identity.current(session, instance_id)
        except UNANSWERED as error:
            log.warning("an Activity instance could not be checked again: %r", error)
            return
        for watched in pages:
            if not takes_part(instance, watched.user_id):
                await self.leave(watched)

    async def run(self, session: aiohttp.ClientSession) -> None:
        """Check every open page once a period, until cancelled."""
        while True:
            await self.period()
            try:
                await self.check(session)
            except Exception:
                log.exception("the Activity's pages could not be checked")


async def _every_instance_period() -> None:
    await asyncio.sleep(INSTANCE_SECONDS)
