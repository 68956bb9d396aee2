"""Logging: plain text lines by default, or one JSON object per line for a log collector.

JSON lines are chosen with `LOG_FORMAT=json`; each line carries the table, guild and interaction
the event concerns.

What an event concerns is bound once where the work starts (a click, a command: `bind`), in a
context variable, so every line logged while that work runs, however deep, carries it; a line
may also pass `extra={"table_id": …}`. Neither format writes a token: anything shaped like a bot
token or an interaction token, and whatever stands where an interaction's token goes (its answer
routes, a `token` field), is replaced by `[redacted]` in every line; and no line logs what a
member wrote (a `content` field of discord.py's DEBUG lines is redacted too).
"""

from __future__ import annotations

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

CONTEXT_FIELDS = ("table_id", "guild_id", "channel_id", "interaction_id")
_context: ContextVar[dict[str, int]] = ContextVar("log_context", default={})  # noqa: B039

# A bot token: three dot-separated base64 parts (the first the application id in base64). An
# interaction token: a long base64 text, "interaction:" encoded (aW50ZXJhY3Rpb24…) or not.
_SECRETS = re.compile(
    r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}"
    r"|aW50ZXJhY3Rpb24[A-Za-z0-9+/=_-]{20,}"
    r"|(?<![A-Za-z0-9])[A-Za-z0-9_-]{64,}(?![A-Za-z0-9])"
)
REDACTED = "[redacted]"
# Where discord.py's DEBUG lines carry an interaction's token whatever its shape (the routes of
# its answers, the `token` of an event or payload), and what a member wrote (`content`, in an
# event's dict or a payload's JSON): the value goes, the key stays.
_TOKEN_IN_ROUTE = re.compile(r"(/(?:webhooks|interactions)/[0-9]+/)[^/\s?'\"]+")
_QUOTED = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_SECRET_FIELDS = re.compile(rf"""(['"](?:token|content)['"]\s*:\s*){_QUOTED}""")


def redact(text: str) -> str:
    text = _TOKEN_IN_ROUTE.sub(rf"\g<1>{REDACTED}", text)
    text = _SECRET_FIELDS.sub(rf"\g<1>'{REDACTED}'", text)
    return _SECRETS.sub(REDACTED, text)


def bind(**fields: int | None) -> None:
    """What the rest of the current task's work concerns (None values are left out)."""
    merged = dict(_context.get())
    merged.update({key: value for key, value in fields.items() if value is not None})
    _context.set(merged)


def context() -> dict[str, int]:
    return dict(_context.get())


class ContextFilter(logging.Filter):
    """Puts the bound context on every record (a record's own `extra` wins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class RedactingFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the context, and the exception's
    traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for key in CONTEXT_FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure(level: str, log_format: str, *, force: bool = False) -> None:
    """The root logger's one handler, in the chosen format, with the context and redaction.
    Like `logging.basicConfig`, nothing changes if the root logger has handlers already (an
    embedding program's, or a test runner's) unless `force`."""
    root = logging.getLogger()
    if root.handlers and not force:
        return
    handler = logging.StreamHandler()
    handler.addFilter(ContextFilter())
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(RedactingFormatter(TEXT_FORMAT))
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
