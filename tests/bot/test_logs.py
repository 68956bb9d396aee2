"""Log lines: JSON on request, with the table, guild and interaction they concern, and never a
token."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs
from bot.settings import Settings

BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldHNlY3JldHNlY3JldA"


@pytest.fixture
def captured() -> Iterator[tuple[io.StringIO, logging.Handler]]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.ContextFilter())
    yield stream, handler
    logging.getLogger("tests.logs").removeHandler(handler)


def logger_with(handler: logging.Handler) -> logging.Logger:
    logger = logging.getLogger("tests.logs")
    logger.handlers = [handler]
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    return logger


async def test_a_json_line_names_the_table_guild_and_interaction_bound_for_the_work(
    captured: tuple[io.StringIO, logging.Handler],
) -> None:
    stream, handler = captured
    handler.setFormatter(logs.JsonFormatter())
    logger = logger_with(handler)

    async def a_click(interaction_id: int, table_id: int) -> None:
        logs.bind(guild_id=7, channel_id=8, interaction_id=interaction_id)
        await asyncio.sleep(0)  # another click's task runs meanwhile with its own context
        logs.bind(table_id=table_id)
        logger.info("played on table %s", table_id)

    await asyncio.gather(asyncio.create_task(a_click(1, 11)), asyncio.create_task(a_click(2, 22)))
    logger.warning("outside any click", extra={"table_id": 5})
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(e["interaction_id"], e["table_id"], e["guild_id"]) for e in lines[:2]] == [
        (1, 11, 7),
        (2, 22, 7),
    ]
    assert lines[0]["message"] == "played on table 11" and lines[0]["level"] == "INFO"
    assert lines[2]["table_id"] == 5 and "interaction_id" not in lines[2]
    assert all(set(e) >= {"time", "level", "logger", "message"} for e in lines)


@pytest.mark.parametrize(
    "formatter", [logs.JsonFormatter(), logs.RedactingFormatter("%(message)s")]
)
def test_no_token_reaches_a_log_line(
    captured: tuple[io.StringIO, logging.Handler], formatter: logging.Formatter
) -> None:
    stream, handler = captured
    handler.setFormatter(formatter)
    logger = logger_with(handler)
    logger.debug("POST /interactions/1/%s/callback", INTERACTION_TOKEN)
    logger.info("login with %s", BOT_TOKEN)
    try:
        raise RuntimeError(f"webhook {INTERACTION_TOKEN} failed")
    except RuntimeError:
        logger.exception("edit failed")
    out = stream.getvalue()
    assert INTERACTION_TOKEN not in out and BOT_TOKEN not in out
    assert out.count(logs.REDACTED) >= 3
    assert "/interactions/1/" in out  # the rest of the line stays readable


def test_log_format_is_text_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    assert Settings(_env_file=None).log_format == "text"  # type: ignore[call-arg]
    assert Settings(_env_file=None, LOG_FORMAT="JSON").log_format == "json"  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="not a log format"):
        Settings(_env_file=None, LOG_FORMAT="xml")  # type: ignore[call-arg]


def test_configure_installs_one_handler_in_the_chosen_format() -> None:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        logs.configure("WARNING", "json", force=True)
        assert len(root.handlers) == 1
        assert isinstance(root.handlers[0].formatter, logs.JsonFormatter)
        assert root.level == logging.WARNING
    finally:
        root.handlers, _ = saved[0], root.setLevel(saved[1])
