"""The table message as Components V2 lays it out: its accent by game while in play, and the
round's end as one picture of every hand with the points and totals in words right under it."""

from __future__ import annotations

import pytest

from bot.i18n import text
from bot.render import colors
from bot.render.replay import Replayer, snapshot
from bot.render.table import game_accent, render_table
from bot.snapshots import PLAYING, ROUND_OVER
from bot.ui.layout import layout_view
from tests.bot.render.test_replay import finished

GAMES = ["dutch", "euchre", "dame"]
OTHER_KINDS = {colors.LOBBY, colors.PRIVATE, colors.FINISHED, colors.CLOSED, colors.INFO}


def test_a_table_in_play_takes_its_games_accent_one_per_game() -> None:
    accents = {}
    for name in GAMES:
        public = snapshot(Replayer().frame(finished(name, 9), 1))
        assert public.status == PLAYING
        rendered = render_table(public, "en")
        (container,) = layout_view(rendered.embed, rendered.components).to_components()
        accents[name] = container["accent_color"]
        assert accents[name] == game_accent(name)
    assert len(set(accents.values())) == len(GAMES)
    assert not set(accents.values()) & OTHER_KINDS


@pytest.mark.parametrize("name", GAMES)
def test_the_round_end_shows_every_hand_in_one_picture_the_points_right_under_it(
    name: str,
) -> None:
    hand = finished(name, 9)
    public = snapshot(Replayer().frame(hand, len(hand.record.actions)))
    assert public.status == ROUND_OVER and public.last_round is not None
    rendered = render_table(public, "en")
    assert rendered.picture is not None
    drawn = " ".join(row.name for row in rendered.picture.rows)
    assert all(player in drawn for player in hand.names)
    (container,) = layout_view(rendered.embed, rendered.components).to_components()
    parts = container["components"]
    kinds = [part["type"] for part in parts]
    gallery = kinds.index(12)
    assert parts[gallery]["items"] == [
        {"media": {"url": f"attachment://{rendered.picture.filename}"}}
    ]
    beside = parts[gallery + 1]["content"]
    assert beside.startswith(f"**{text('en', 'table.round_over')}**")
    assert all(player in beside for player in hand.names)
    assert container["accent_color"] == game_accent(name)
