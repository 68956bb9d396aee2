"""Dame de Pique snapshots and checks shared by the renderer and menu tests."""

from __future__ import annotations

from typing import Any

from bot.render.actions import MAX_OPTIONS, MAX_ROWS, SelectSpec
from bot.snapshots import PLAYING, ROUND_OVER, PublicSnapshot, RoundEnd
from games.cards import cards
from games.dame import DameRound
from games.dame.rules import DECK, IS_WILD
from tests.bot.render import snapshots

NAMES = ("Ann", "Ben", "Cleo", "Dan")


def public_snapshot(round_: DameRound, events: list[Any], status: str = PLAYING) -> PublicSnapshot:
    """The table of a Dame round at four seats (Ann, Ben, Cleo, Dan), after `events`."""
    last = None
    if status == ROUND_OVER:
        result = round_.result()
        points = tuple(result.points[s % 2] for s in range(4))
        last = RoundEnd(1, points, points, result.detail, round_.public_view())
    seated = snapshots.seats(4, NAMES)
    return snapshots.public(
        round_,
        game="dame",
        seated=seated,
        status=status,
        events=events,
        last_round=last,
        target=1000,
    )


def within_discord_limits(rendered: Any) -> None:
    """The message fits Discord: embed sizes, rows, select options."""
    embed = rendered.embed
    assert len(embed) <= 6000 and len(embed.description or "") <= 4096
    assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)
    assert max((c.row for c in rendered.components), default=0) < MAX_ROWS
    for c in rendered.components:
        if isinstance(c, SelectSpec):
            assert 0 < len(c.options) <= MAX_OPTIONS


def fillers(count: int, taken: str) -> str:
    """`count` codes of natural cards, no 7s, none of `taken`."""
    used = set(cards(taken))
    pool = [c for c in DECK if not IS_WILD[c] and c.rank != "7" and c not in used]
    return " ".join(c.code for c in pool[:count])
