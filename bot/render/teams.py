"""The partnerships of a team game in words, from its plug-in's `SeatLayout`.

A team is named by its places ("N–S") and its players ("Ann & Cat"); the end of a match lists
each team with its final total, the winners first."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.games.plugin import SeatLayout
from bot.i18n import has_key, text
from bot.snapshots import PublicSnapshot

WINNER_MARK = "🏆"


def plays_in_teams(layout: SeatLayout | None) -> bool:
    """Do partners share a score (some team has more than one seat)?"""
    return layout is not None and any(len(team) > 1 for team in layout.teams)


@lru_cache(maxsize=256)  # a few layouts, teams and languages; asked for by every render
def team_label(layout: SeatLayout, team: int, language: str) -> str:
    """The team's places, "N–S" (a label is a catalog key or plain text)."""
    labels = (layout.labels[seat] for seat in layout.teams[team] if seat < len(layout.labels))
    return "–".join(text(language, label) if has_key(label) else label for label in labels)


def team_players(layout: SeatLayout, team: int, names: Sequence[str]) -> str:
    """The team's players, "Ann & Cat" (names already escaped for markdown)."""
    return " & ".join(names[seat] if seat < len(names) else "?" for seat in layout.teams[team])


def team_total(layout: SeatLayout, team: int, totals: Sequence[int]) -> int:
    """Partners share one total: the first seat's."""
    first = layout.teams[team][0]
    return totals[first] if first < len(totals) else 0


def match_over_lines(
    snapshot: PublicSnapshot,
    layout: SeatLayout,
    names: Sequence[str],
    language: str,
    *,
    lower_is_better: bool = False,
) -> tuple[str, list[str]]:
    """The winners' sentence and one line a team (winners first, then by total)."""
    winners = {layout.team_of(seat) for seat in snapshot.winners if seat < len(names)}
    teams = list(range(len(layout.teams)))
    sign = 1 if lower_is_better else -1
    teams.sort(key=lambda t: (t not in winners, sign * team_total(layout, t, snapshot.totals)))
    won = [
        text(
            language,
            "table.team",
            team=team_label(layout, t, language),
            names=team_players(layout, t, [f"**{n}**" for n in names]),
        )
        for t in teams
        if t in winners
    ]
    headline = text(language, "table.team_winners", teams=", ".join(won) or "—")
    lines = [
        text(
            language,
            "table.team_total_line",
            mark=f"{WINNER_MARK} " if t in winners else "",
            team=team_label(layout, t, language),
            names=team_players(layout, t, names),
            total=team_total(layout, t, snapshot.totals),
        )
        for t in teams
    ]
    return headline, lines


def match_result(
    snapshot: PublicSnapshot,
    layout: SeatLayout | None,
    names: Sequence[str],
    language: str,
    *,
    lower_is_better: bool = False,
) -> str:
    """The match's end in one line, for a player's own message: that it is over, who won and
    the final totals ("🏆 Match over. Winners: N–S (Ann & Cat) · N–S 10, E–W 4")."""
    sign = 1 if lower_is_better else -1
    if layout is not None and plays_in_teams(layout):
        headline, _ = match_over_lines(
            snapshot, layout, names, language, lower_is_better=lower_is_better
        )
        teams = sorted(
            range(len(layout.teams)), key=lambda t: sign * team_total(layout, t, snapshot.totals)
        )
        totals = [
            f"{team_label(layout, t, language)} {team_total(layout, t, snapshot.totals)}"
            for t in teams
        ]
    else:
        winners = ", ".join(f"**{names[s]}**" for s in snapshot.winners if 0 <= s < len(names))
        headline = text(language, "table.winners", names=winners or "—")
        seats = sorted(range(len(snapshot.totals)), key=lambda s: sign * snapshot.totals[s])
        totals = [f"{names[s] if s < len(names) else '?'} {snapshot.totals[s]}" for s in seats]
    return text(language, "private.match_over", result=headline, totals=", ".join(totals))
