"""Times as Discord timestamps, which every reader's client shows in their own time zone."""

from __future__ import annotations


def relative(timestamp: float) -> str:
    """`<t:…:R>`: "in 12 seconds", "2 minutes ago", localized by the Discord client."""
    return f"<t:{int(timestamp)}:R>"
