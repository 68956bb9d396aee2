"""The local table: the real bot connected to the Discord-compatible server in this process.

The bot has the same cogs, client, store and click path; the page to play on is
http://127.0.0.1:PORT.

`run_local(settings, announce)` is what `python -m bot --local` (and `make run` without a token)
calls. Everything listens on the loopback interface only; the address printed at start carries
this run's secret, without which the page is not served (bot/local/guard.py).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

from pydantic import SecretStr

from bot.app import configure_logging, create_bot
from bot.local.page import LocalPage
from bot.local.records import MANAGE_GUILD
from bot.local.server import LocalDiscord
from bot.local.state import StateFile, state_path
from bot.runtime import priority
from bot.settings import Settings
from bot.stopping import stop_on_signals
from storage.errors import StoreError

# Four people share the machine; the first one manages the server (may use /settings).
PAGE_USERS = ("alice", "bob", "carol", "dave")
DEFAULT_LOCALES = {"alice": "en-US", "bob": "fr", "carol": "en-US", "dave": "fr"}
PORT_IN_USE = "Port {port} is in use: set LOCAL_PORT in .env to a free port."
# discord.py's line at login: here the token is the local server's own, made for this run, so
# the line would only mislead someone who just read "No DISCORD_TOKEN".
STATIC_TOKEN_LINE = "logging in using static token"


class WithoutStaticTokenLine(logging.Filter):
    """Drops discord.py's "logging in using static token" from the local table's console."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != STATIC_TOKEN_LINE


def run_local(
    settings: Settings, announce: str, *, seed_source: Callable[[], int] | None = None
) -> int:
    """Run until stopped (Ctrl-C or SIGTERM); `announce` is printed, with `{url}` filled in,
    once the bot is connected and the page answers. `seed_source` gives each round's seed
    (random by default; the browser tests deal from known seeds to replay the same games)."""
    configure_logging(settings)
    logging.getLogger("discord.client").addFilter(WithoutStaticTokenLine())
    try:
        priority.run(_serve(settings, announce, seed_source))
    except (KeyboardInterrupt, asyncio.CancelledError):
        return 0
    except StoreError as error:
        return _fail(f"The database could not be opened: {error}")
    except OSError as error:
        if error.errno in (98, 48, 10048):  # address already in use (Linux, macOS, Windows)
            return _fail(PORT_IN_USE.format(port=settings.local_port))
        return _fail(f"The local table could not start: {error}")
    return 0


async def _serve(settings: Settings, announce: str, seed_source: Callable[[], int] | None) -> None:
    server = LocalDiscord(user_names=PAGE_USERS)
    server.users[PAGE_USERS[0]].permissions |= MANAGE_GUILD
    locales = dict(DEFAULT_LOCALES)
    state = StateFile(state_path(settings.database_path), server, locales)
    state.load()
    server.oauth.on_change = state.changed
    server.activities.on_change = state.changed
    # the table as an Activity too: its own server, on the local Discord's sign-in
    activity_url = f"http://127.0.0.1:{settings.activity_port}"
    page = LocalPage(server, locales, on_change=state.changed, activity_url=activity_url)
    await server.start(port=settings.local_port, extend=page.install)
    stop_on_signals()
    try:
        with server.pointed_at():
            # Commands sync to the local guild, so they are listed at once.
            local = settings.model_copy(
                update={
                    "dev_guild_id": server.guild_id,
                    "activity_enabled": True,
                    "activity_host": "127.0.0.1",
                    "discord_client_secret": SecretStr(server.oauth.client_secret),
                }
            )
            # The local Discord limits no edit rate: table messages follow every click.
            bot = create_bot(
                local,
                guild_ready_timeout=0.1,
                channel_edits=(1_000, 1.0),
                seed_source=seed_source,
                owner_tools=False,  # `/admin` is for a real development server's owners
            )
            async with bot:
                running = asyncio.create_task(bot.start(server.bot_token), name="local-bot")
                ready = asyncio.create_task(bot.wait_until_ready())
                await asyncio.wait({running, ready}, return_when=asyncio.FIRST_COMPLETED)
                if ready.done():
                    print(announce.format(url=page.entry_url()), flush=True)
                else:
                    ready.cancel()
                await running
    finally:
        state.save()
        await page.close()
        await server.stop()


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1
