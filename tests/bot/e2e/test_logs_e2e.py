"""At DEBUG, discord.py logs every request and gateway event: what a member wrote and every
interaction's token (whatever its shape) are redacted from the lines the bot writes."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot import logs
from tests.bot.e2e.harness import BotUnderTest, players


@pytest.fixture
def debug_lines() -> Iterator[io.StringIO]:
    """Every line of every logger at DEBUG, written as the bot's text format writes it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.RedactingFormatter(logs.TEXT_FORMAT))
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


async def test_message_content_and_interaction_tokens_never_reach_a_debug_line(
    harness: BotUnderTest, debug_lines: io.StringIO
) -> None:
    alice, bob, _ = players(harness.fake)
    secret = "my very private words"
    async with harness.running():
        await harness.fake.say(alice, f"<@{harness.fake.bot_user.id}> {secret}")
        await harness.fake.wait_for(
            lambda: any(
                "/help" in (m.get("content") or "") or m.get("embeds")
                for m in harness.fake.messages.values()
                if m["author"]["bot"]
            ),
            what="the help answer",
        )
        table_id = await harness.open_table(alice)
        await harness.press(bob, table_id, "join")
        await harness.settle()
    out = debug_lines.getvalue()
    assert "WebSocket Event" in out and "has returned" in out  # discord.py's DEBUG lines
    assert secret not in out
    tokens = [interaction.token for interaction in harness.fake.interactions.values()]
    assert tokens and not [token for token in tokens if token in out]
    assert logs.REDACTED in out
