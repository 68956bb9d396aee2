"""Leaderboards, player statistics and guild settings as embeds."""

from __future__ import annotations

import discord

from bot.i18n import text
from bot.render import colors
from storage.models import GuildSettings, LeaderboardRow, MatchSummary, PlayerStats


def game_title(language: str, game: str) -> str:
    return text(language, f"game.{game}")


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
            name=discord.utils.escape_markdown(row.display_name),
            rating=f"{row.rating:.1f}",
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
    embed = discord.Embed(
        title=text(language, "stats.title", name=discord.utils.escape_markdown(member_name)),
        color=colors.INFO,
    )
    if not stats.games:
        embed.description = text(language, "stats.none")
        return embed
    for game in stats.games:
        rank = f"#{game.rank}" if game.rank is not None else "—"
        embed.add_field(
            name=game_title(language, game.game),
            value=text(
                language,
                "stats.game",
                matches=game.matches,
                wins=game.wins,
                win_rate=f"{game.win_rate:.0%}",
                rounds=game.rounds,
                rating=f"{game.rating:.1f}",
                rank=rank,
            ),
            inline=False,
        )
    if recent:
        lines = [
            text(
                language,
                "stats.recent_won" if summary.won else "stats.recent_lost",
                game=game_title(language, summary.game),
                total=summary.total,
                date=discord.utils.format_dt(summary.finished_at, "d"),
            )
            for summary in recent
        ]
        embed.add_field(name=text(language, "stats.recent"), value="\n".join(lines), inline=False)
    return embed


def settings_embed(language: str, settings: GuildSettings) -> discord.Embed:
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
    presets = [
        text(
            language,
            "settings.preset_of_game",
            game=game_title(language, game),
            preset=text(language, f"preset.{game}.{preset}"),
        )
        for game, preset in sorted(settings.default_presets.items())
    ]
    embed.add_field(name=text(language, "settings.default_preset"), value="\n".join(presets) or "—")
    return embed
