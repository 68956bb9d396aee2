"""Hostile display names over whole matches of every game: whatever a member calls themselves
(a masked link, bold and spoilers, a mention, a time, @everyone, code), every table message and
every private answer shows the name as written, never as markup, in every language; and the bot
logs nothing above INFO meanwhile."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.render.private import render_private
from bot.render.table import RenderedMessage, render_table
from bot.service import FINISHED, ROUND_OVER, FakeClock, PlayerRef, RecordingNotifier, TableService
from storage import Store

HOSTILE = (
    "[click](http://x.example)",
    "**PWN** ||spoil||",
    "<@1> <t:99999999999:R> @everyone",
    "`code` <#2> <:e:3> # big",
)
# What would be markup if a name reached a message unescaped.
MARKUP = re.compile(
    r"(?<!\\)\[click\]|(?<!\\)\*\*PWN|(?<!\\)\|\|spoil|(?<!\\)@everyone|(?<!\\)`code"
    r"|(?<!\\)<(?:@1>|t:99999999999|#2>|:e:3>)"
)
TARGETS = {"dutch": 30, "euchre": 5, "dame": 500}
LANGUAGES = ("en", "fr")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "tables.sqlite3", synchronous="NORMAL")
    seeds: Iterator[int] = iter(range(11, 10_000))
    opened = TableService(store, FakeClock(), RecordingNotifier(), lambda: next(seeds))
    yield opened
    await opened.close()
    await store.close()


def texts(rendered: RenderedMessage) -> Iterator[str]:
    """Every string of the embed (title, description, fields, footer, author)."""

    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    yield from walk(rendered.embed.to_dict())


def assert_no_markup(rendered: RenderedMessage, where: str) -> None:
    for line in texts(rendered):
        found = MARKUP.search(line)
        assert found is None, f"{where}: a name reads as markup: {line!r}"


@pytest.mark.parametrize("game", ["dutch", "euchre", "dame"])
async def test_hostile_names_show_as_written_over_a_whole_match(
    service: TableService, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    players = [PlayerRef(500 + i, name) for i, name in enumerate(HOSTILE)]
    opened = await service.seating.open_table(1, 10, players[0], game, target=TARGETS[game])
    table_id = opened.table_id
    for language in LANGUAGES:
        assert_no_markup(render_table(opened, language), f"{game} lobby")
    for player in players[1:]:
        await service.seating.join(table_id, player)
    await service.seating.start(table_id, players[0].user_id)
    rng = random.Random(5)
    rendered_private = 0
    for step in range(20_000):
        await service.followup.settle(table_id)
        public = service.public_snapshot(table_id)
        language = LANGUAGES[step % 2]
        assert_no_markup(render_table(public, language), f"{game} table, step {step}")
        if public.status == FINISHED:
            break
        if public.status == ROUND_OVER:
            await service.play.next_round(table_id, players[0].user_id)
            continue
        user_id = public.seats[public.to_act[0]].user_id
        assert user_id is not None
        private = await service.play.private_view(table_id, user_id)
        assert_no_markup(render_private(private, public, language), f"{game} private, {step}")
        rendered_private += 1
        choice = service.bot_choice(table_id, user_id, rng)
        assert choice is not None and public.round_no is not None
        await service.play.act(table_id, user_id, public.round_no, choice)
    assert public.status == FINISHED and rendered_private > 0
    loud = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("bot")]
    assert loud == [], [r.getMessage() for r in loud]
