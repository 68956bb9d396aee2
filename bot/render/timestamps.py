"""Times as Discord timestamps, which every reader's client shows in their own time zone."""

from __future__ import annotations


def relative(timestamp: float) -> str:
    """`<t:…:R>`: "in 12 seconds", "2 minutes ago", localized by the Discord client: only for
    a message in its reader's own language (a private one), as the client writes it in the
    reader's language, whatever the sentence around it."""
    return f"<t:{int(timestamp)}:R>"


def clock(timestamp: float) -> str:
    """`<t:…:T>`: the time of day ("10:42:30", "10:42:30 AM"), which reads right in a public
    message's sentence whatever language its reader's client speaks."""
    return f"<t:{int(timestamp)}:T>"
