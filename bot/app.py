"""The bot: one `CardTableBot`, and `run(settings)`, which `python -m bot` calls.

Its setup_hook opens the store, builds the table service with the Discord notifier, restores
active tables, registers the dynamic buttons, loads each game plug-in's command group and the
shared cogs, and syncs the slash commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import sys
from collections.abc import Callable
from typing import Any, TypedDict, Unpack

import aiohttp
import discord
import yarl
from discord.ext import commands

from bot import logs, reconnect
from bot.activity.bridge import ProcessSettings
from bot.activity.hub import CompositeNotifier
from bot.activity.identity import DiscordIdentity
from bot.activity.process import ActivityProcess
from bot.activity.running import ActivityServer
from bot.activity.tables import ActivityTables
from bot.clock import Clock, SystemClock
from bot.cogs.admin import AdminCog
from bot.cogs.deck import DeckCog
from bot.cogs.help import HelpCog, HelpPageMenu
from bot.cogs.history import (
    HandChooser,
    HistoryButton,
    HistoryCog,
    RecordsButton,
    ReplayButton,
    ReviewButton,
)
from bot.cogs.leaderboard import LeaderboardCog, SeatStatsButton
from bot.cogs.privacy import ForgetButton, PrivacyCog
from bot.cogs.settings import SettingsCog
from bot.cogs.tournament import TournamentButton, TournamentCog
from bot.games import plugins
from bot.i18n import text
from bot.i18n.translator import CatalogTranslator
from bot.metrics import BotReadings, HealthCheck, OperationsServer
from bot.render.card_text import use_pictures
from bot.runtime import priority
from bot.runtime.runner import PolicyRunner, ProcessPolicyRunner
from bot.seasons import SeasonRollover
from bot.service.choices import PlayerChoices
from bot.service.service import TableService
from bot.settings import Settings
from bot.stopping import stop_on_signals
from bot.telemetry import Telemetry
from bot.tournaments import TournamentRunner
from bot.ui.command_options import CheckedCommandTree
from bot.ui.controller import TableController
from bot.ui.decks import PlayerDecks
from bot.ui.discord_notifier import DiscordNotifier
from bot.ui.dynamic_items import TableItem
from bot.ui.emojis import CardEmojis
from bot.ui.entry_point import sync_with_entry_point, upsert_entry_point
from bot.ui.guild_settings import GuildSettingsCache
from bot.ui.layout import words_message
from bot.ui.locations import TableLocations
from bot.ui.message_pictures import CardPictures
from bot.ui.pacer import EDITS_PER_WINDOW, WINDOW_SECONDS
from storage import Store
from storage.backup import BackupSchedule
from storage.errors import StoreError

log = logging.getLogger(__name__)
RETENTION_FIRST_CHECK = 600.0  # seconds after the start: guilds left long ago are deleted
RETENTION_EVERY = 6 * 3600.0  # then this often

REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN: reset it (Developer Portal > your application > Bot > "
    "Reset Token) and put the new one in .env."
)
MISSING_INTENTS = (
    "Discord refused the gateway intents this bot asks for: enable them in the Developer Portal "
    "(your application > Bot > Privileged Gateway Intents)."
)
MISSING_ACCESS = (
    "Discord refused an action for lack of permissions: invite the bot with the 'bot' and "
    "'applications.commands' scopes (Send Messages, Embed Links, Create Public Threads)."
)
NO_CONNECTION = "Cannot reach Discord ({error}): check the network connection."


def intents() -> discord.Intents:
    """Guild events, and guild messages so that a mention of the bot gets the help: Discord
    sends the content of a message that mentions the bot without the privileged
    message-content intent, which the bot does not ask for."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_messages = True
    return chosen


class CardTableBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        clock: Clock | None = None,
        seed_source: Callable[[], int] | None = None,
        edit_delay: float = 1.0,
        channel_edits: tuple[int, float] = (EDITS_PER_WINDOW, WINDOW_SECONDS),
        pacing_clock: Clock | None = None,
        guild_ready_timeout: float = 2.0,
        sync_commands: bool = True,
        owner_tools: bool = True,
        policy_runner: PolicyRunner | None = None,
        card_pictures: bool = True,
        hand_pictures: bool = True,
        **client_options: Any,
    ) -> None:
        self.telemetry = Telemetry()
        client_options.setdefault("http_trace", rate_limit_trace(self.telemetry))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=CheckedCommandTree,
            **client_options,
        )
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self._given_store = store
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._sync_commands = sync_commands
        # `/admin` in the development server (DEV_GUILD_ID), for the bot's owners; the local
        # table syncs to its own guild but is no development server: it lists none
        self._owner_tools = owner_tools
        # bots think in worker processes, so a searching bot never delays another table's click
        self.policy_runner: PolicyRunner = policy_runner or ProcessPolicyRunner(
            settings.bot_workers, clock=self.clock, observer=self.telemetry
        )
        self._card_pictures = card_pictures  # off: cards as text
        self.card_emojis = CardEmojis()
        self.decks = PlayerDecks()  # each player's deck (two colours or four), in memory
        self.choices = PlayerChoices()  # each player's play choices (`/deck`), in memory
        # hands and tables as pictures, drawn off the event loop (off: none, cards as text)
        self.pictures = CardPictures(enabled=card_pictures and hand_pictures)
        self.notifier = DiscordNotifier(
            self, edit_delay=edit_delay, channel_edits=channel_edits, pacing_clock=pacing_clock
        )
        self.tables = TableController(self)
        self._store: Store | None = store
        self._service: TableService | None = None
        self._guild_settings: GuildSettingsCache | None = None
        self._locations: TableLocations | None = None
        self._upkeep: asyncio.Task[None] | None = None
        self.backups: BackupSchedule | None = None
        self._left_guilds: set[int] = set()
        self._retention_task: asyncio.Task[None] | None = None
        self.seasons = SeasonRollover(self)
        self._seasons_task: asyncio.Task[None] | None = None
        self.tournaments = TournamentRunner(self)
        self._tournaments_task: asyncio.Task[None] | None = None
        self.health = HealthCheck()
        self.identify_spacing = reconnect.IdentifySpacing()
        self.operations: OperationsServer | None = None
        # the Activity's server (in its own process, or in this one), when enabled
        self.activity_server: ActivityServer | ActivityProcess | None = None
        self._pictures_task: asyncio.Task[None] | None = None
        self._told_broken: set[asyncio.Task[None]] = set()  # broken tables' messages, editing

    # -- parts built in setup_hook (typed accessors) -------------------------------------
    @property
    def store(self) -> Store:
        assert self._store is not None, "the store opens in setup_hook"
        return self._store

    @property
    def service(self) -> TableService:
        assert self._service is not None, "the table service starts in setup_hook"
        return self._service

    @property
    def guild_settings(self) -> GuildSettingsCache:
        assert self._guild_settings is not None
        return self._guild_settings

    @property
    def locations(self) -> TableLocations:
        assert self._locations is not None
        return self._locations

    async def setup_hook(self) -> None:
        if self._store is None:
            url = self.settings.database_url
            self._store = await Store.open(
                url.get_secret_value() if url else self.settings.database_path,
                partition=self.settings.partition,
            )
        self._guild_settings = GuildSettingsCache(self._store)
        # the table messages, and the Activity's open pages once it starts (below)
        notifier = CompositeNotifier([self.notifier])
        self._service = TableService(
            self._store,
            self.clock,
            notifier,
            self._seed_source,
            policy_runner=self.policy_runner,
            choices=self.choices,
        )
        self._locations = TableLocations(self._store, self._service.has_table)
        if self.settings.activity_enabled:
            await self._start_activity(notifier)
        # a tournament table's result is read once its match is stored (bot/tournaments.py)
        self._service.match_listeners.append(self.tournaments.match_over)
        self.add_dynamic_items(
            TableItem,
            ForgetButton,
            HistoryButton,
            HandChooser,
            HelpPageMenu,
            ReplayButton,
            RecordsButton,
            ReviewButton,
            SeatStatsButton,
            TournamentButton,
        )
        await self.tree.set_translator(CatalogTranslator())
        game_cogs = [plugin.command_group(self) for plugin in plugins()]
        shared = (
            LeaderboardCog(self),
            SettingsCog(self),
            HistoryCog(self),
            PrivacyCog(self),
            DeckCog(self),
            TournamentCog(self),
            HelpCog(self),
        )
        for cog in (*game_cogs, *shared):
            await self.add_cog(cog)
        if self._owner_tools and self.settings.dev_guild_id is not None:  # that server only
            await self.add_cog(AdminCog(self), guild=discord.Object(self.settings.dev_guild_id))
        kept = await self._store.player_preferences()
        self.decks.load(kept)  # no click reads them
        self.choices.load(kept)
        # The mentions posted before the restart: deleted once played, not posted again.
        self.notifier.adopt_mentions(await self._store.turn_mentions())
        prepare = getattr(self.policy_runner, "prepare", None)
        if prepare is not None:  # the workers' imports, off the event loop, before any click
            prepare()
        # Clicks are answered at once: tables load in the background, a clicked one first.
        await self._service.restoring.start(self._on_tables_loaded)
        self._upkeep = asyncio.get_running_loop().create_task(
            compact_history(self._store), name="store-compaction"
        )
        self._start_backups()
        self._left_guilds = await self._store.guilds_left()
        self._retention_task = asyncio.create_task(self._forget_old_guilds(), name="retention")
        # seasons over while the bot was away closed and announced, then a timer per boundary
        self._seasons_task = asyncio.create_task(self.seasons.start(), name="seasons")
        # open tournaments resumed where they were, once their tables are restored
        self._tournaments_task = asyncio.create_task(self.tournaments.start(), name="tournaments")
        self._store.on_commit = self.telemetry.commit
        self.telemetry.watch_gc()
        if self.settings.metrics_port is not None:
            await self._start_operations(self.settings.metrics_port)
        if self._card_pictures and self.application_id is not None:
            self._pictures_task = asyncio.create_task(self._load_card_pictures())
        if self._sync_commands:
            await self._sync()

    async def _start_operations(self, port: int) -> None:
        readings = BotReadings(tables=self.service.census, gateway_latency=self._gateway_latency)
        ping = getattr(self.policy_runner, "ping", None)
        self.operations = OperationsServer(
            self.telemetry,
            readings,
            self.health,
            write_probe=self.store.check_writable,
            worker_ping=ping,
            host=self.settings.metrics_host,
            port=port,
        )
        await self.operations.start()

    def _gateway_latency(self) -> float | None:
        latency = self.latency
        return latency if math.isfinite(latency) else None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Before an IDENTIFY: what is left of Discord's 5 s since the previous one (discord.py
        waits 5 s whole before each but the first, even long after it)."""
        await self.identify_spacing.before_identify()

    async def on_connect(self) -> None:
        self.health.gateway_up()

    async def on_resumed(self) -> None:
        self.health.gateway_up()

    async def on_disconnect(self) -> None:
        self.health.gateway_down()

    def _start_backups(self) -> None:
        """Backups of the SQLite file this bot opened itself (PostgreSQL: pg_dump's job)."""
        every = self.settings.backup_every
        if self._given_store is not None or self.settings.database_url is not None:
            return
        if every is None:
            log.info("backups are off (BACKUP_EVERY=off)")
            return
        self.backups = BackupSchedule(
            self.settings.database_path,
            self.settings.backup_folder,
            every=every,
            keep=self.settings.backup_keep,
        )
        self.backups.start()

    def _on_tables_loaded(self, restored: list[int], broken: list[tuple[int, str]]) -> None:
        for table_id, reason in broken:
            log.warning("table %s could not be restored: %s", table_id, reason)
            task = asyncio.create_task(self._tell_broken(table_id), name=f"broken-{table_id}")
            self._told_broken.add(task)
            task.add_done_callback(self._told_broken.discard)
            self.notifier.table_lost(table_id)
        for table_id in restored:
            self.notifier.refresh(table_id)  # its message, after the tables in play

    async def _tell_broken(self, table_id: int) -> None:
        """A table that could not be restored says so on its message (its buttons go): its
        players, freed, see why and may open another."""
        try:
            record = await self.store.get_table(table_id)
            location = await self.locations.get(table_id)
            if location.message_id is None:
                return
            language = await self.guild_settings.public_language(record.guild_id)
            channel = self.get_partial_messageable(location.post_channel_id)
            message = channel.get_partial_message(location.message_id)
            async with self.notifier.pacer.turn(location.post_channel_id, table_id):
                await message.edit(**words_message(text(language, "table.broken")))
        except Exception as error:  # a message gone, a row too damaged to say where
            log.info("table %s: its message could not say it is broken: %r", table_id, error)

    async def _load_card_pictures(self) -> None:
        if await self.card_emojis.load(self):
            for table_id in self.service.table_ids():
                self.notifier.coalescer.mark(table_id)  # show the pictures on open tables too

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        try:
            if guild_id is not None:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
                if self.activity_server is not None:  # an entry point is global only
                    await upsert_entry_point(self)
            elif self.activity_server is not None:  # the Activity's entry point among them
                await sync_with_entry_point(self, self.tree)
            else:
                await self.tree.sync()
        except discord.Forbidden:
            log.error(MISSING_ACCESS)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction passes here too: a click discord.py will not route (its id is
        not on the message it comes from) still gets an answer."""
        if interaction.type is discord.InteractionType.component:
            await self.tables.on_unrouted(interaction)

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: the help cog answers mentions (its own listener)."""

    async def on_guild_available(self, guild: discord.Guild) -> None:
        if self._guild_settings is not None:
            self._guild_settings.note_preferred_locale(guild.id, guild.preferred_locale)
        if guild.id in self._left_guilds:  # back within the retention: everything is kept
            self._left_guilds.discard(guild.id)
            await self._note_presence(guild.id, present=True)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.on_guild_available(guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        if self._guild_settings is not None:
            self._guild_settings.forget(guild.id)
        self._left_guilds.add(guild.id)
        await self._note_presence(guild.id, present=False)

    async def _note_presence(self, guild_id: int, *, present: bool) -> None:
        try:
            if present:
                await self.store.guild_present(guild_id)
            else:
                await self.store.guild_left(guild_id)
        except StoreError as error:
            log.warning(
                "could not note that the bot %s guild %s: %s",
                "is in" if present else "left",
                guild_id,
                error,
            )

    async def _forget_old_guilds(self) -> None:
        """Delete the data of guilds the bot left longer ago than their retention (a guild
        with tables still in memory waits for them to end)."""
        await asyncio.sleep(RETENTION_FIRST_CHECK)
        while True:
            with_tables = {
                self.service.public_snapshot(t).guild_id
                for t in self.service.table_ids()
                if self.service.loaded(t)
            }
            try:
                for guild_id in await self.store.forget_guilds_past_retention(keep=with_tables):
                    self._left_guilds.discard(guild_id)
                    log.info("the data of guild %s was deleted (left past its retention)", guild_id)
            except StoreError as error:
                log.warning("deleting the data of guilds left long ago failed: %s", error)
            await asyncio.sleep(RETENTION_EVERY)

    async def stop_background(self) -> None:
        """Stop loading tables and compacting history: before the store closes."""
        if self._service is not None:
            await self._service.close()
        if self._upkeep is not None:
            self._upkeep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._upkeep
            self._upkeep = None
        if self.backups is not None:
            await self.backups.stop()
        self.tournaments.close()
        if self._tournaments_task is not None:
            self._tournaments_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tournaments_task
            self._tournaments_task = None
        self.seasons.close()
        if self._seasons_task is not None:
            self._seasons_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._seasons_task
            self._seasons_task = None
        if self._retention_task is not None:
            self._retention_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._retention_task
            self._retention_task = None

    async def _start_activity(self, notifier: CompositeNotifier) -> None:
        """The Activity's web server on its own port; its pages follow every change."""
        secret = self.settings.discord_client_secret
        given = self.settings.discord_application_id
        if given is not None and self.application_id is not None and given != self.application_id:
            log.warning(
                "DISCORD_APPLICATION_ID is %s but the token is application %s's: the Activity "
                "signs in as the token's",
                given,
                self.application_id,
            )
        api_url = discord.http.Route.BASE  # Discord's API, or the one the bot is pointed at
        client_id = str(self.application_id or given)
        client_secret = secret.get_secret_value() if secret is not None else ""
        tables = ActivityTables(self.service, self._thread_of)
        server: ActivityServer | ActivityProcess
        if self.settings.activity_own_process:
            settings = ProcessSettings(
                api_url,
                client_id,
                client_secret,
                self.http.token,
                self.settings.log_level,
                self.settings.log_format,
            )
            server = ActivityProcess(tables, settings)
        else:
            identity = DiscordIdentity(
                api_url, client_id, client_secret, bot_token=lambda: self.http.token
            )
            server = ActivityServer(tables, identity)
        host, port = self.settings.activity_host, self.settings.activity_port
        try:
            await server.start(host, port)
        except OSError as error:  # the port is taken: the table messages work without it
            log.warning("the Activity is off: it cannot listen on %s:%s (%s)", host, port, error)
            await server.close()
            return
        self.activity_server = server
        notifier.notifiers.append(server.notifier)

    async def _thread_of(self, table_id: int) -> int | None:
        return (await self.locations.get(table_id)).thread_id

    async def close(self) -> None:
        if self.activity_server is not None:
            await self.activity_server.close()
        if self.operations is not None:
            await self.operations.close()
        self.telemetry.unwatch_gc()
        if self._pictures_task is not None:
            self._pictures_task.cancel()
            use_pictures({})
        await self.stop_background()
        await self.tables.close()
        await self.notifier.close()
        self.policy_runner.close()
        await super().close()
        if self._store is not None and self._given_store is None:
            await self._store.close()


async def compact_history(store: Store, pause: float = 0.5) -> None:
    """Compact rounds stored before rounds were compacted as they finish (an older file), a
    short batch at a time with a pause between: the clicks go first."""
    try:
        while await store.compact_history():
            await asyncio.sleep(pause)
    except StoreError as error:
        log.error("compacting the history stopped: %s", error)


class BotOptions(TypedDict, total=False):
    """What a test or a tool may set of a `CardTableBot` (see `CardTableBot.__init__`)."""

    seed_source: Callable[[], int] | None
    edit_delay: float
    channel_edits: tuple[int, float]
    pacing_clock: Clock | None
    guild_ready_timeout: float
    sync_commands: bool
    owner_tools: bool
    policy_runner: PolicyRunner | None
    card_pictures: bool
    hand_pictures: bool


class ShardedCardTableBot(CardTableBot, commands.AutoShardedBot):
    """The bot connecting the shards SHARD_IDS of SHARD_COUNT (discord.py's AutoShardedBot):
    Discord sends it the events of those shards' guilds only, and its store owns their tables."""


def create_bot(
    settings: Settings,
    store: Store | None = None,
    clock: Clock | None = None,
    **options: Unpack[BotOptions],
) -> CardTableBot:
    """A bot ready to `start(token)`; with SHARD_COUNT set, one connecting its shards. Tests
    pass their own store, clock, a short `guild_ready_timeout`, `edit_delay`, `channel_edits`
    (edits per seconds in a channel) and `pacing_clock` (the time those seconds are counted in;
    real time by default), `seed_source` or `sync_commands=False`; the local table passes
    `owner_tools=False` (no `/admin`)."""
    reconnect.install()  # back within seconds of Discord's gateway, not minutes
    partition = settings.partition
    if partition is None:
        return CardTableBot(settings, store=store, clock=clock, **options)
    return ShardedCardTableBot(
        settings,
        store=store,
        clock=clock,
        shard_count=partition.count,
        shard_ids=list(partition.ids),
        **options,
    )


def rate_limit_trace(telemetry: Telemetry) -> aiohttp.TraceConfig:
    """Counts every 429 Discord answers (discord.py waits and retries them by itself)."""
    trace = aiohttp.TraceConfig()

    async def on_request_end(
        session: aiohttp.ClientSession, context: object, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status == 429:
            telemetry.refused_by_discord(params.method)

    trace.on_request_end.append(on_request_end)
    return trace


def configure_logging(settings: Settings) -> None:
    logs.configure(settings.log_level, settings.log_format)
    # The bot never joins voice: discord.py's warnings about missing voice libraries are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def run(settings: Settings) -> int:
    """Run until stopped; print one clear line (no traceback) for a known failure."""
    configure_logging(settings)
    token = settings.token
    if token is None:
        print("DISCORD_TOKEN is not set (see .env.example).", file=sys.stderr)
        return 2
    try:
        priority.run(_run(settings, token))
    except (KeyboardInterrupt, asyncio.CancelledError):  # stopped by a signal
        return 0
    except discord.LoginFailure:
        return _fail(REJECTED_TOKEN)
    except discord.PrivilegedIntentsRequired:
        return _fail(MISSING_INTENTS)
    except discord.Forbidden:
        return _fail(MISSING_ACCESS)
    except StoreError as error:
        return _fail(f"The database could not be opened: {error}")
    except (aiohttp.ClientConnectionError, OSError) as error:
        return _fail(NO_CONNECTION.format(error=error))
    return 0


async def _run(settings: Settings, token: str) -> None:
    stop_on_signals()  # SIGINT and SIGTERM, even when started with SIGINT ignored
    bot = create_bot(settings)
    async with bot:
        if settings.discord_api_url is None:
            await bot.start(token)
            return
        discord.http.Route.BASE = settings.discord_api_url
        await bot.login(token)
        await use_named_gateway(bot)
        await bot.connect()


async def use_named_gateway(bot: discord.Client) -> None:
    """Connect to the gateway the API names (GET /gateway/bot): discord.py asks only when it
    picks the shard count itself, and otherwise connects to Discord's."""
    _, url, _ = await bot.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1
