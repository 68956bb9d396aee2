"""Who may keep an Activity page open: each open page's viewer asked again in their instance.

A page is let in when Discord answers that its viewer takes part in its instance
(bot.activity.access); the viewer may leave it later (they close the Activity, leave the
channel's, are removed) or the instance may end. So before a page's move is played its instance
is asked again (an answer younger than `INSTANCE_SECONDS` serves), and every `INSTANCE_SECONDS`
each instance with open pages is asked once, however many pages share it: an idle page goes too.
The questions of one check are spread over half that period (longer when there are more
instances than `CHECKS_PER_SECOND` allows), not asked all at once: a thousand at once held up
every page's frames behind them for a few hundred milliseconds, ten times a minute, and Discord
allows a bot some fifty requests a second in all.
A page whose viewer is no longer in it, or whose instance ended, is told so in one sentence and
closed. When Discord cannot be asked (a network error, a 5xx) the pages stay open and a warning
is logged: nobody is put out for Discord's outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass

import aiohttp

from bot.activity.identity import INSTANCE_SECONDS, DiscordIdentity, Instance, NotIdentified

log = logging.getLogger(__name__)

LEFT = "activity_not_in"  # the sentence a page whose viewer left is closed with
# what a failed question to Discord raises: the page is kept
UNANSWERED = (NotIdentified, aiohttp.ClientError, TimeoutError)
# instances asked per second at most by the checks: under Discord's fifty requests a second
# for the whole bot, the rest left to the table messages
CHECKS_PER_SECOND = 20.0

Pause = Callable[[float], Coroutine[None, None, None]]


def spread_over(instances: int) -> float:
    """The seconds a periodic check spreads its questions over: half the period, or as long
    as `CHECKS_PER_SECOND` takes for this many instances."""
    return max(INSTANCE_SECONDS / 2, instances / CHECKS_PER_SECOND)


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
        pause: Pause = asyncio.sleep,
    ) -> None:
        self.identity = identity
        # waits between two checks of every open page (tests: a tick of their own, and the
        # questions of a check asked at once); the check itself takes `spread_over` seconds
        self.period = period if period is not None else _half_a_period
        self.spread = period is None
        self.pause = pause  # between two questions of a check spread out
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

    async def check(self, session: aiohttp.ClientSession, spread: float = 0.0) -> None:
        """Every open page checked: each instance asked once, the pages it lacks closed; the
        questions started one by one over `spread` seconds (0: all at once)."""
        sharing: dict[str, list[Watched]] = {}
        for watched in list(self.pages):
            sharing.setdefault(watched.instance_id, []).append(watched)
        gap = spread / len(sharing) if sharing else 0.0
        asked: list[asyncio.Task[None]] = []
        for instance_id, pages in sharing.items():
            if asked and gap > 0:
                await self.pause(gap)
            asked.append(asyncio.create_task(self._check(session, instance_id, pages)))
        await asyncio.gather(*asked)

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
                instances = len({watched.instance_id for watched in self.pages})
                await self.check(session, spread_over(instances) if self.spread else 0.0)
            except Exception:
                log.exception("the Activity's pages could not be checked")


async def _half_a_period() -> None:
    await asyncio.sleep(INSTANCE_SECONDS / 2)
