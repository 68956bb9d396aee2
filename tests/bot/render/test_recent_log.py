"""A log's last lines, worded from its end only, are the last lines of the whole log in words."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from benchmarks.bot.renders import TableRender, collect
from bot.games import plugin_for
from bot.render.card_text import as_marks
from bot.render.log import recent_lines
from bot.render.table import table_text
from bot.snapshots import LogEntry, PublicSnapshot

# Seeded random games through the table service, several rounds each (the renders bench's)
STATES: dict[str, list[PublicSnapshot]] = {}


def states(game: str) -> list[PublicSnapshot]:
    if game not in STATES:
        found = asyncio.run(collect((game,), 2, 220))[game]
        STATES[game] = [render.public for render in found if isinstance(render, TableRender)]
    return STATES[game]


@pytest.mark.parametrize("game", ["dame", "dutch", "euchre"])
def test_the_recent_log_lines_are_the_last_lines_of_the_whole_log(game: str) -> None:
    plugin = plugin_for(game)
    compared = 0
    for index, public in enumerate(states(game)):
        table = table_text(public, ("en", "fr")[index % 2])
        for count in (1, 3, 6, 12):
            with as_marks():
                whole = plugin.log_lines(public.log, table)[-count:]
                assert plugin.recent_log_lines(public.log, table, count) == whole, (index, count)
            compared += 1
    assert compared > 300
    rounds = {public.round_no for public in states(game)}
    assert len(rounds) > 1  # logs across a round's end, where the words begin afresh


def test_the_recent_lines_word_only_the_end_of_a_long_log() -> None:
    entries = [LogEntry("turn", seat=i % 4, data={}) for i in range(40)]
    worded: list[int] = []

    def word(tail: Sequence[LogEntry]) -> list[str]:
        worded.append(len(tail))
        return [entry.kind for entry in tail]

    starts = range(len(entries) - 1, 0, -1)
    assert recent_lines(entries, 6, starts, word) == ["turn"] * 6
    assert worded == [6]


def test_the_recent_lines_go_back_further_when_the_end_gives_too_few() -> None:
    """A long burst of one seat is one line: the tail widens until it holds enough lines."""
    entries = [LogEntry("turn", seat=0, data={}) for _ in range(40)]

    worded: list[int] = []

    def word(tail: Sequence[LogEntry]) -> list[str]:
        worded.append(len(tail))
        first = len(entries) - len(tail)
        return [f"line {n}" for n in range(first, len(entries)) if n % 10 == 0]

    assert recent_lines(entries, 2, range(39, 0, -1), word) == ["line 20", "line 30"]
    assert worded == [2, 6, 18, 40]  # each miss widens the tail, then the whole log
    assert recent_lines(entries, 3, range(39, 0, -1), word) == ["line 10", "line 20", "line 30"]
    assert recent_lines(entries, 3, (), word) == ["line 10", "line 20", "line 30"]
