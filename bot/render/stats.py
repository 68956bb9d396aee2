"""Leaderboards, player statistics and guild settings as embeds."""

from __future__ import annotations

import discord

from bot.games import plugin_names
from bot.i18n import text
from bot.render import colors
from bot.render.names import escape
from bot.render.seasons import season_setting
from games.registry import get_game
from storage.models import GuildSettings, LeaderboardRow, MatchSummary, PlayerStats
from storage.privacy import FORMER_PLAYER

# Where a player's place means something: the leaderboard's minimum number of matches.
MIN_MATCHES = 3
# The rating shown: openskill's ordinal (mu - 3 sigma, 0 for a newcomer, about 25-30 for
# the best) on a scale people know from chess clubs, a newcomer at 1000 and a point of
# ordinal worth 20 (a strong regular near 1500): "rating 0.0" read as nothing at all.
RATING_BASE = 1000
RATING_SCALE = 20
RECENT_LINES = 5  # recent matches listed; the partners' records read every match given
PARTNERS_SHOWN = 5


def shown_rating(ordinal: float) -> str:
    """The rating as a player reads it: the ordinal on a 1000-based scale, a whole number."""
    return str(round(RATING_BASE + RATING_SCALE * ordinal))


def game_title(language: str, game: str) -> str:
    return text(language, f"{game}.name")


def leaderboard_embed(
    language: str, game: str, order: str, rows: list[LeaderboardRow], min_matches: int
) -> discord.Embed:
    embed = discord.Embed(
        title=text(language, "leaderboard.title", game=game_title(language, game)),
        color=colors.FINISHED,
    )
    if not rows:
        embed.description = text(language, "leaderboard.empty", min_matches=min_matches)
        return embed
    lines = [
        text(
            language,
            "leaderboard.row",
            rank=row.rank,
            name=escape(row.display_name),
            rating=shown_rating(row.rating),
            wins=row.wins,
            matches=row.matches,
            win_rate=f"{row.win_rate:.0%}",
        )
        for row in rows
    ]
    embed.description = "\n".join(lines)
    embed.set_footer(text=text(language, f"leaderboard.order.{order}"))
    return embed


def empty_leaderboard_embed(language: str, min_matches: int) -> discord.Embed:
    """No game has a ranked player in this server yet."""
    return discord.Embed(
        title=text(language, "leaderboard.none_title"),
        description=text(language, "leaderboard.empty", min_matches=min_matches),
        color=colors.FINISHED,
    )


def stats_embed(
    language: str, member_name: str, stats: PlayerStats, recent: list[MatchSummary]
) -> discord.Embed:
    """Per game: matches, wins and losses, rating and rank, and in a team game the record with
    each partner; then the latest matches (in a team game: partners, opponents, the score).
    `recent` is newest first; the partners' records count all of it."""
    embed = discord.Embed(
        title=text(language, "stats.title", name=escape(member_name)),
        color=colors.INFO,
    )
    if not stats.games:
        embed.description = text(language, "stats.none")
        return embed
    for game in stats.games:
        if game.rank is not None and game.matches >= MIN_MATCHES:
            rank = text(language, "stats.rank", rank=game.rank)
        else:  # a place among players of one lost match tells nothing
            rank = text(language, "stats.unranked", min_matches=MIN_MATCHES)
        lines = [
            text(
                language,
                "stats.game",
                count=game.matches,
                wins=game.wins,
                losses=game.matches - game.wins,
                win_rate=f"{game.win_rate:.0%}",
                rounds=game.rounds,
                rating=shown_rating(game.rating),
                rank=rank,
            )
        ]
        partners = _partner_records(language, [m for m in recent if m.game == game.game])
        if partners:
            lines.append(partners)
        embed.add_field(name=game_title(language, game.game), value="\n".join(lines), inline=False)
    if recent:
        lines = [_recent_line(language, summary) for summary in recent[:RECENT_LINES]]
        embed.add_field(name=text(language, "stats.recent"), value="\n".join(lines), inline=False)
    return embed


def _sides(summary: MatchSummary) -> tuple[tuple[int, ...], ...] | None:
    """The match's teams, if partners shared a score (None: everyone for themselves)."""
    try:
        sides = get_game(summary.game).sides(len(summary.players))
    except (KeyError, ImportError, ValueError):
        return None
    return sides if any(len(side) > 1 for side in sides) else None


def _name(language: str, summary: MatchSummary, seat: int) -> str:
    if seat >= len(summary.players):
        return "?"
    name = summary.players[seat]
    # a player forgotten at their request (/privacy forget) keeps their seat, not their name
    return escape(name) if name != FORMER_PLAYER else text(language, "player.former")


def _recent_line(language: str, summary: MatchSummary) -> str:
    game = game_title(language, summary.game)
    date = discord.utils.format_dt(summary.finished_at, "d")
    sides = _sides(summary)
    own = next((i for i, side in enumerate(sides or ()) if summary.seat in side), None)
    if sides is None or own is None:
        key = "stats.recent_won" if summary.won else "stats.recent_lost"
        return text(language, key, game=game, total=summary.total, date=date)
    partners = " & ".join(_name(language, summary, s) for s in sides[own] if s != summary.seat)
    others = [i for i in range(len(sides)) if i != own]
    opponents = " & ".join(_name(language, summary, s) for i in others for s in sides[i])
    totals = [summary.final_totals[i] for i in (own, *others) if i < len(summary.final_totals)]
    # "10–7"; with a total below zero "220 – −150", never "220–-150"
    joiner = " – " if any(total < 0 for total in totals) else "–"
    scores = joiner.join(f"−{-total}" if total < 0 else str(total) for total in totals)
    key = "stats.recent_team_won" if summary.won else "stats.recent_team_lost"
    return text(
        language, key, game=game, partners=partners, scores=scores, opponents=opponents, date=date
    )


def _partner_records(language: str, matches: list[MatchSummary]) -> str | None:
    """ "With Carol: 2 won, 1 lost · with Bob: 0 won, 1 lost", most matches together first."""
    records: dict[str, list[int]] = {}  # partner's name -> [won, lost]
    for summary in matches:
        sides = _sides(summary)
        if sides is None:
            continue
        for side in sides:
            if summary.seat not in side:
                continue
            for seat in side:
                if seat != summary.seat:
                    record = records.setdefault(_name(language, summary, seat), [0, 0])
                    record[0 if summary.won else 1] += 1
    if not records:
        return None
    ranked = sorted(records.items(), key=lambda item: (-sum(item[1]), -item[1][0], item[0]))
    parts = [
        text(language, "stats.partner", name=name, won=won, lost=lost)
        for name, (won, lost) in ranked[:PARTNERS_SHOWN]
    ]
    return text(language, "stats.partners", count=len(matches), partners=" · ".join(parts))


def settings_embed(
    language: str, settings: GuildSettings, retention_days: int | None = None
) -> discord.Embed:
    embed = discord.Embed(title=text(language, "settings.title"), color=colors.INFO)
    chosen = settings.language
    embed.add_field(
        name=text(language, "settings.language"),
        value=text(language, f"settings.language.{chosen or 'auto'}"),
    )
    embed.add_field(
        name=text(language, "settings.turn_seconds"),
        value=text(language, "settings.seconds", seconds=settings.turn_seconds),
    )
    embed.add_field(
        name=text(language, "settings.reveal_seconds"),
        value=text(language, "settings.seconds", seconds=settings.reveal_seconds),
    )
    embed.add_field(
        name=text(language, "settings.threads"),
        value=text(language, "settings.on" if settings.use_threads else "settings.off"),
    )
    embed.add_field(
        name=text(language, "settings.bots"), value=text(language, f"bots.{settings.bots}")
    )
    embed.add_field(
        name=text(language, "settings.turn_pings"),
        value=text(language, "settings.on" if settings.turn_pings else "settings.off"),
    )
    embed.add_field(
        name=text(language, "settings.table_caps"),
        value=text(
            language,
            "settings.table_caps_value",
            channel=settings.max_tables_channel,
            server=settings.max_tables_server,
        ),
    )
    # every game's default rules: the server's choice, else the game's own (its first preset)
    chosen_presets = {
        game: settings.default_presets.get(game) or next(iter(get_game(game).presets))
        for game in plugin_names()
    }
    presets = [
        text(
            language,
            "settings.preset_of_game",
            game=game_title(language, game),
            preset=text(language, f"{game}.preset.{preset}"),
        )
        for game, preset in sorted(chosen_presets.items())
    ]
    embed.add_field(name=text(language, "settings.default_preset"), value="\n".join(presets) or "—")
    embed.add_field(
        name=text(language, "settings.season"), value=season_setting(language, settings)
    )
    if retention_days is not None:
        embed.add_field(
            name=text(language, "settings.retention_days"),
            value=text(language, "settings.days", count=retention_days),
        )
    return embed
