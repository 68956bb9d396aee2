"""Times as Discord timestamps, which every reader's client shows in their own time zone."""

from __future__ import annotations


def relative(timestamp: float) -> str:
    """`<t:…:R>`: "in 12 seconds", "2 minutes ago", localized by the Discord client."""
    return f"<t:{int(timestamp)}:R>"


def clock_time(timestamp: float) -> str:
    """`<t:…:T>`: the time of day to the second ("09:31:45"), in each reader's time zone. For
    a deadline: Discord words a relative time in whole minutes past 60 seconds, so a 90-second
    turn read "in 2 minutes"."""
    return f"<t:{int(timestamp)}:T>"
