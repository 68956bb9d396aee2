"""`/admin status`: the bot's state in one private message, for its owner only.

It answers in the development server only (`DEV_GUILD_ID`): version, uptime, shards, tables by
game, recent click times, memory, store size, the bot players' workers and the last backup."""

from __future__ import annotations

import logging
import resource
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import text
from bot.i18n.translator import command_text
from bot.render import colors
from bot.ui.replies import say, user_language
from storage.backup import backups_in

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

RECENT_SECONDS = 300.0  # the window of the click figures


def version() -> str:
    try:
        return metadata.version("cardtable")
    except metadata.PackageNotFoundError:
        return "unknown"


def resident_memory_bytes() -> int:
    """The process's resident memory now (Linux), else its peak."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def megabytes(size: int | None) -> str:
    return "—" if size is None else f"{size / 1e6:,.1f} MB"


def duration(seconds: float) -> str:
    minutes, _ = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    return f"{days}d {hours}h {minutes}m" if days else f"{hours}h {minutes}m"


def milliseconds(value: float | None) -> str:
    return "—" if value is None else f"{value * 1000:.1f} ms"


def is_owner(bot: CardTableBot, user_id: int, owners: set[int]) -> bool:
    return user_id in owners or user_id in bot.settings.owner_ids


class AdminCog(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self._owners: set[int] | None = None

    async def owners(self) -> set[int]:
        """The application's owner, or its team's members (asked once)."""
        if self._owners is None:
            found: set[int] = set()
            try:
                info = await self.bot.application_info()
            except discord.HTTPException as error:
                log.warning("could not read the application's owner: %s", error)
                return found
            if info.team is not None:
                found |= {member.id for member in info.team.members}
            elif info.owner is not None:
                found.add(info.owner.id)
            self._owners = found
        return self._owners

    admin = app_commands.Group(
        name=command_text("admin", "cmd.admin"),
        description=command_text("The bot owner's tools", "cmd.admin.desc"),
        guild_only=True,
    )

    @admin.command(
        name=command_text("status", "cmd.admin.status"),
        description=command_text("How the bot is doing (owner only)", "cmd.admin.status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        language = user_language(interaction)
        if not is_owner(self.bot, interaction.user.id, await self.owners()):
            await say(interaction, text(language, "admin.owner_only"))
            return
        await interaction.response.send_message(
            embed=await self.status_embed(language), ephemeral=True
        )

    async def status_embed(self, language: str) -> discord.Embed:
        bot = self.bot
        telemetry = bot.telemetry
        census = bot.service.census()
        by_game: dict[str, int] = {}
        for (game, _status), count in census.items():
            by_game[game] = by_game.get(game, 0) + count
        tables = ", ".join(f"{game} {count}" for game, count in sorted(by_game.items())) or "0"
        recent = telemetry.recent_percentiles(RECENT_SECONDS)
        shards = bot.settings.partition
        embed = discord.Embed(title=text(language, "admin.title"), color=colors.INFO)
        fields: list[tuple[str, str]] = [
            ("admin.version", version()),
            ("admin.uptime", duration(telemetry.uptime())),
            ("admin.shards", str(shards) if shards is not None else "1/1"),
            ("admin.tables", tables),
            (
                "admin.clicks",
                text(
                    language,
                    "admin.clicks_value",
                    count=recent["clicks"],
                    p50=milliseconds(recent["p50"]),
                    p99=milliseconds(recent["p99"]),
                ),
            ),
            ("admin.memory", megabytes(resident_memory_bytes())),
            ("admin.store", f"{bot.store.location_kind} · {megabytes(await self.store_size())}"),
            ("admin.workers", self.workers()),
            ("admin.backup", self.last_backup(language)),
            ("admin.health", "; ".join(bot.health.problems()) or text(language, "admin.healthy")),
        ]
        for key, value in fields:
            embed.add_field(name=text(language, key), value=value[:1024])
        return embed

    async def store_size(self) -> int | None:
        try:
            return await self.bot.store.size_bytes()
        except Exception as error:  # a size is a figure, never worth failing the status
            log.info("store size unavailable: %s", error)
            return None

    def workers(self) -> str:
        runner: Any = self.bot.policy_runner
        size = getattr(runner, "size", None)
        if size is None:
            return "in process"
        ready = runner.workers_ready()
        stats = getattr(runner, "stats", None)
        replaced = getattr(stats, "replaced", 0)
        fallbacks = sum(getattr(stats, "fallbacks", {}).values()) if stats else 0
        return f"{ready}/{size} ready · {replaced} replaced · {fallbacks} simple fallbacks"

    def last_backup(self, language: str) -> str:
        schedule = self.bot.backups
        if schedule is None:
            return text(language, "admin.backup_off")
        if schedule.last is not None:
            at, path = schedule.last.taken_at, schedule.last.path
        else:
            found = backups_in(schedule.folder)
            if not found:
                return text(language, "admin.backup_none")
            at, path = found[-1]
        age = duration((datetime.now(UTC) - at).total_seconds())
        line = f"{Path(path).name} ({age})"
        if schedule.last_error:
            line += f" · {schedule.last_error[:200]}"
        return line
