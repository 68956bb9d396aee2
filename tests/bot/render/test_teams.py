"""The end of a match of a team game names the partnerships, their totals and the winners, for
every plug-in whose partners share a score; a game without teams keeps one line a seat."""

from __future__ import annotations

import pytest

from bot.games import plugins
from bot.games.plugin import SeatLayout
from bot.render.table import render_table
from bot.render.teams import match_over_lines, plays_in_teams, team_label
from bot.snapshots import FINISHED, PublicSnapshot
from tests.bot.render import snapshots

NAMES = ("Ann", "Ben", "Cat", "Dan")
TEAM_GAMES = [p for p in plugins() if plays_in_teams(p.seat_layout)]


def finished(game: str, totals: tuple[int, ...], winners: tuple[int, ...]) -> PublicSnapshot:
    seated = snapshots.seats(4, NAMES)
    return snapshots.public(
        None, game=game, seated=seated, status=FINISHED, totals=totals, winners=winners, target=10
    )


def description_and_totals(snapshot: PublicSnapshot, language: str) -> tuple[str, str]:
    embed = render_table(snapshot, language).embed.to_dict()
    (totals,) = [
        f["value"] for f in embed["fields"] if f["name"] in ("Final totals", "Totaux finaux")
    ]
    return embed["description"], totals


def test_every_partnership_game_is_seen_as_one() -> None:
    assert TEAM_GAMES, "at least one game is played in partnerships"


@pytest.mark.parametrize("plugin", TEAM_GAMES, ids=lambda p: p.name)
def test_a_team_games_match_end_shows_the_teams_totals_and_winners(plugin: object) -> None:
    layout = plugin.seat_layout  # type: ignore[attr-defined]
    snapshot = finished(plugin.name, (3, 12, 3, 12), winners=(1, 3))  # type: ignore[attr-defined]
    for language, winners_word in (("en", "Winners:"), ("fr", "Victoire :")):
        losers, winners = (team_label(layout, t, language) for t in (0, 1))
        description, totals = description_and_totals(snapshot, language)
        assert f"{winners_word} {winners} (**Ben** & **Dan**)" in description
        separator = ":" if language == "en" else " :"
        assert totals.splitlines() == [
            f"🏆 **{winners}** · Ben & Dan{separator} **12**",
            f"**{losers}** · Ann & Cat{separator} **3**",
        ]


def test_a_layout_names_its_teams_by_places_and_ranks_lower_totals_first_when_lower_wins() -> None:
    layout = SeatLayout(labels=("1", "2", "3", "4"), teams=((0, 2), (1, 3)))
    snapshot = finished(TEAM_GAMES[0].name, (40, 90, 40, 90), winners=(0, 2))
    headline, lines = match_over_lines(snapshot, layout, NAMES, "en", lower_is_better=True)
    assert headline == "🏆 Match over. Winners: 1–3 (**Ann** & **Cat**)"
    assert lines == ["🏆 **1–3** · Ann & Cat: **40**", "**2–4** · Ben & Dan: **90**"]


def test_a_game_without_partners_keeps_one_total_a_seat() -> None:
    assert not plays_in_teams(None)
    assert not plays_in_teams(SeatLayout(labels=("A", "B"), teams=((0,), (1,))))
