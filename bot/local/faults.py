"""Faults the local Discord injects when a test or the fault suite asks.

They are storms of 5xx answers and of 429s (one route's, or the global limit's) on the REST API.
The gateway's drops are `LocalGateway.drop`. Nothing here is reachable from the local table's
page: only code holding the `LocalDiscord` turns a fault on.

A 429 carries Discord's headers and body (`retry_after`, `global`), so discord.py waits as
Discord asks; as on Discord, an interaction's own routes (its callback and webhook) are not
bound by the global limit. A 5xx is Discord's `502 Bad Gateway` (discord.py retries it) unless
a test asks for another status.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

INTERACTION_ROUTES = ("/interactions/", "/webhooks/")  # outside Discord's global rate limit


@dataclass
class Storm:
    """Refused answers to the requests it covers until `until` (time.monotonic())."""

    status: int  # 429, or a 5xx
    until: float
    route: str | None  # "PATCH /channels/{channel_id}/messages/{message_id}"; None: all
    retry_after: float = 1.0  # seconds a 429 asks the client to wait
    is_global: bool = False  # a 429 of the global limit (not an interaction's routes)
    refused: int = 0  # requests it answered

    def covers(self, route: str, path: str, now: float) -> bool:
        if now >= self.until:
            return False
        if self.is_global and path.startswith(INTERACTION_ROUTES):
            return False
        return self.route is None or self.route == route


class RestFaults:
    """The storms in force; `answer` gives a covered request its refusal."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self.storms: list[Storm] = []

    def storm(
        self,
        status: int,
        seconds: float,
        *,
        route: str | None = None,
        retry_after: float = 1.0,
        is_global: bool = False,
    ) -> Storm:
        """For `seconds` from now, answer `status` to `route` (None: to every route; a global
        429 spares an interaction's own routes, as Discord's does)."""
        storm = Storm(status, self._now() + seconds, route, retry_after, is_global)
        self.storms.append(storm)
        return storm

    def calm(self) -> None:
        """End every storm now."""
        self.storms.clear()

    @property
    def raging(self) -> bool:
        now = self._now()
        return any(s.until > now for s in self.storms)

    def answer(self, route: str, path: str) -> tuple[int, Any, dict[str, str]] | None:
        """The refusal of a request a storm covers (None: answer it normally)."""
        now = self._now()
        for storm in self.storms:
            if storm.covers(route, path, now):
                storm.refused += 1
                if storm.status == 429:
                    return _too_many_requests(storm)
                return storm.status, {"message": "Bad Gateway", "code": 0}, {}
        return None


def _too_many_requests(storm: Storm) -> tuple[int, Any, dict[str, str]]:
    """Discord's 429 (its headers: discord.py reads `Via` and the body's `retry_after`)."""
    retry = storm.retry_after
    headers = {"Via": "1.1 google", "Retry-After": str(max(1, round(retry)))}
    if storm.is_global:
        headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    else:
        headers.update(
            {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{retry:.3f}",
                "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                "X-RateLimit-Bucket": "local-storm-bucket",
                "X-RateLimit-Scope": "user",
            }
        )
    body: dict[str, Any] = {"message": "You are being rate limited.", "retry_after": retry}
    body["global"] = storm.is_global
    return 429, body, headers
