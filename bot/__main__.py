"""`python -m bot`: load settings, then connect to Discord (or say exactly what is missing).

- `python -m bot` needs DISCORD_TOKEN: a deployment without one fails loudly.
- `python -m bot --local` runs the local table (the bot playing in a browser page on
  127.0.0.1) whether or not a token is set.
- `python -m bot --local-without-token` (what `make run` uses) connects to Discord when a token
  is set and runs the local table when none is.
- `python -m bot invite [APPLICATION_ID]` prints the link that adds the bot to a server (the id
  is read from DISCORD_TOKEN when not given).
"""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from bot.settings import Settings, load_settings

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
    "(Discord Developer Portal > your application > Bot > Reset Token), "
    "or run `python -m bot --local` to play in your browser without Discord."
)
NO_TOKEN_LOCAL = (
    "No DISCORD_TOKEN: playing locally at {url} — put a token in .env to connect to Discord"
)
LOCAL_ON_PURPOSE = "Playing locally at {url} (--local: DISCORD_TOKEN is not used)"


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--local",
        action="store_true",
        help="play in the browser against a Discord-compatible server in this process",
    )
    mode.add_argument(
        "--local-without-token",
        action="store_true",
        help="connect to Discord if DISCORD_TOKEN is set, else play locally",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["invite"]:
        return invite(args[1:])
    arguments = parse_arguments(args)
    try:
        settings = load_settings()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        print(f"Invalid setting {where}: {message} (see .env.example).", file=sys.stderr)
        return 2
    if arguments.local:
        return _local(settings, LOCAL_ON_PURPOSE if settings.token else NO_TOKEN_LOCAL)
    if settings.token is None:
        if arguments.local_without_token:
            return _local(settings, NO_TOKEN_LOCAL)
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    from bot.app import run  # imported late: discord.py is only needed to really run

    return run(settings)


def invite(args: list[str]) -> int:
    from bot.invite import application_id_from_token, application_id_of, invite_url

    application_id: int | None
    if args:
        application_id = application_id_of(args[0])
    else:
        try:
            token = load_settings().token
        except ValidationError:
            token = None
        application_id = application_id_from_token(token) if token else None
    if application_id is None:
        print(INVITE_USAGE, file=sys.stderr)
        return 2
    print(invite_url(application_id))
    return 0


INVITE_USAGE = (
    "Usage: python -m bot invite APPLICATION_ID (Developer Portal > your application > "
    "General Information > Application ID), or set DISCORD_TOKEN in .env."
)


def _local(settings: Settings, announce: str) -> int:
    from bot.local.table import run_local

    return run_local(settings, announce)


if __name__ == "__main__":
    raise SystemExit(main())
