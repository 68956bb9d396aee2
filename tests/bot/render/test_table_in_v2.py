"""The table message as Components V2 lays it out: its accent by game while in play, each seat
a section with its player's statistics button beside (the lines in the heading when they do
not fit), and the round's end as one picture of every hand with the points and totals in
words right under it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.custom_ids import seat_stats_id
from bot.i18n import text
from bot.render import colors
from bot.render.actions import ButtonSpec, SectionSpec
from bot.render.names import escape
from bot.render.replay import Replayer, snapshot
from bot.render.table import game_accent, render_table
from bot.snapshots import PLAYING, ROUND_OVER
from bot.ui.layout import layout_components, layout_view, shown_as
from tests.bot.render.test_replay import finished

GAMES = ["dutch", "euchre", "dame"]
SECTION, GALLERY = 9, 12
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


@pytest.mark.parametrize("name", GAMES)
def test_each_seat_is_a_section_with_its_players_stats_button_beside(name: str) -> None:
    public = snapshot(Replayer().frame(finished(name, 9), 1))
    robot = replace(public.seats[1], is_bot=True, user_id=None)
    public = replace(public, seats=(public.seats[0], robot, *public.seats[2:]))
    rendered = render_table(public, "en")
    (container,) = shown_as(rendered)["view"].to_components()
    parts = container["components"]
    kinds = [part["type"] for part in parts]
    seats = [part for part in parts if part["type"] == SECTION]
    assert len(seats) == len(public.seats)
    # under the heading, over the table's picture
    assert kinds[1 : 1 + len(seats)] == [SECTION] * len(seats)
    assert kinds[1 + len(seats)] == GALLERY
    for seat, (section, info) in enumerate(zip(seats, public.seats, strict=True)):
        (line,) = section["components"]
        assert escape(info.name) in line["content"]
        button = section["accessory"]
        assert button["custom_id"] == seat_stats_id(public.table_id, seat)
        assert button["disabled"] == info.is_bot
        assert button["emoji"]["name"] == ("🤖" if info.is_bot else "📊")
    # the heading no longer repeats the seats' lines
    assert all(escape(info.name) not in parts[0]["content"] for info in public.seats)


def test_seats_too_many_for_discords_forty_components_keep_their_lines_in_the_heading() -> None:
    rows = [
        {"type": 1, "components": [{"type": 2, "custom_id": f"b{r}{c}"} for c in range(5)]}
        for r in range(3)
    ]
    lines = [f"**Player {seat}** · 4 cards" for seat in range(10)]
    seats = [SectionSpec(line, ButtonSpec(f"pst:1:{s}", "")) for s, line in enumerate(lines)]
    embed = {"title": "Dutch", "description": "\n".join(lines), "image": {"url": "x.png"}}
    (container,) = layout_components(embed, rows, seats=seats)
    parts = container["components"]
    assert SECTION not in [part["type"] for part in parts]
    assert all(line in parts[0]["content"] for line in lines)
    (fitting,) = layout_components(embed, rows[:1], seats=seats[:4])
    assert [part["type"] for part in fitting["components"]].count(SECTION) == 4
    assert "Player 0" not in fitting["components"][0]["content"]
