"""What a table's change sends the Activity's process: its public snapshot, less what it has.

At each stored change of a table with open pages there, the bot sends the process the public
snapshot and the seated viewers' own. Most of a public snapshot is what the process got at the
change before: the log but its newest entries, the options, the seats, the last round's end
(the table keeps those objects while they do not change). So a change sends the log entries
after those sent before (`kept`: how many of the old ones go on) and leaves out the fields whose
values are the same objects as before (`same`: their names); the process puts them back from
its last snapshot of the table. Half the bytes to pickle on the bot's thread and to unpickle
in the process.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.snapshots import LogEntry, PublicSnapshot

# the fields left out when they are the objects sent before (None in their place)
SHARED_FIELDS = ("options", "seats", "last_round")


@dataclasses.dataclass(frozen=True, slots=True)
class Trimmed:
    """A public snapshot as sent: its new log entries only, and its shared fields left out
    where they did not change."""

    public: PublicSnapshot
    kept: int  # the entries of the log sent before that begin this one
    same: tuple[str, ...]  # the `SHARED_FIELDS` left out


def trimmed(before: PublicSnapshot | None, public: PublicSnapshot) -> Trimmed:
    """`public` as a change sends it, `before` the snapshot of the table sent last (None:
    none, or the process may not have it)."""
    if before is None:
        return Trimmed(public, 0, ())
    kept = log_kept(before.log, public.log)
    same = tuple(
        name for name in SHARED_FIELDS if _same(getattr(before, name), getattr(public, name))
    )
    changes: dict[str, Any] = dict.fromkeys(same)
    if kept:
        changes["log"] = public.log[kept:]
    return Trimmed(dataclasses.replace(public, **changes) if changes else public, kept, same)


def restored(before: PublicSnapshot | None, sent: Trimmed) -> PublicSnapshot | None:
    """The public snapshot a change sent, made whole from the one before it (None: it needs
    one this process does not have, as when it started after the change before)."""
    public, kept, same = sent.public, sent.kept, sent.same
    if not kept and not same:
        return public
    if before is None or kept > len(before.log):
        return None
    changes: dict[str, Any] = {name: getattr(before, name) for name in same}
    if kept:
        changes["log"] = before.log[len(before.log) - kept :] + public.log
    return dataclasses.replace(public, **changes)


def _same(before: Any, now: Any) -> bool:
    """The same object, or a tuple of the same objects (the seats: a new tuple of the seats
    unchanged)."""
    if before is now:
        return True
    return (
        type(before) is tuple
        and type(now) is tuple
        and len(before) == len(now)
        and all(a is b for a, b in zip(before, now, strict=True))
    )


def log_kept(before: tuple[LogEntry, ...], log: tuple[LogEntry, ...]) -> int:
    """How many of the log's first entries are the last ones of the log sent before (the
    same objects: the table keeps its entries), which the process has already."""
    if not log:
        return 0
    for start, entry in enumerate(before):
        if entry is log[0]:
            kept = len(before) - start
            same = kept <= len(log) and all(
                a is b for a, b in zip(before[start:], log[:kept], strict=True)
            )
            return kept if same else 0
    return 0
