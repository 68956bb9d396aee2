"""Seasons on the leaderboards in words.

Here are a season's name in a language, the board's season line, and the announcement of a
season's winners."""

from __future__ import annotations

import discord

from bot.i18n import text
from bot.render.names import escape
from storage.models import GuildSettings, LeaderboardRow
from storage.seasons import period_of

ALL_TIME = "all"  # the /leaderboard season value of the all-time board


def season_name(language: str, season: str) -> str:
    """ "December 2026", "Q4 2026" ("décembre 2026", "T4 2026"); a name it cannot read as is."""
    period = period_of(season)
    if period is None:
        return season
    year, part = season.split("-")
    if part.startswith("Q"):
        return text(language, "season.quarter", quarter=part[1:], year=year)
    month = text(language, f"season.month.{period.starts_at.month}")
    return text(language, "season.month", month=month, year=year)


def with_season_line(
    embed: discord.Embed, language: str, season: str | None, *, final: bool = False
) -> discord.Embed:
    """The board's heading names what it counts: a season (its final board once over) or,
    None, all time."""
    if season is None:
        line = text(language, "leaderboard.all_time")
    elif final:
        line = text(language, "leaderboard.season_final", season=season_name(language, season))
    else:
        line = text(language, "leaderboard.season", season=season_name(language, season))
    embed.set_author(name=line)
    return embed


def season_over_text(language: str, season: str, winners: dict[str, LeaderboardRow]) -> str:
    """One line naming the season's winner of each game (first by rating)."""
    names = " · ".join(
        text(
            language,
            "season.winner",
            game=text(language, f"{game}.name"),
            name=escape(row.display_name),
        )
        for game, row in winners.items()
    )
    return text(language, "season.over", season=season_name(language, season), winners=names)


def season_setting(language: str, settings: GuildSettings) -> str:
    """The /settings line of seasons: how they run, and where (or that) winners are told."""
    lines = [text(language, f"settings.season.{settings.season}")]
    if settings.season != "off":
        if settings.season_channel is None:
            lines.append(text(language, "settings.season_no_channel"))
        else:
            lines.append(text(language, "settings.season_channel", channel=settings.season_channel))
    return "\n".join(lines)
