"""`python -m bot`: load settings, then run the bot (or say exactly what is missing).

`python -m bot invite [APPLICATION_ID]` prints the link that adds the bot to a server (the id
is read from DISCORD_TOKEN when not given).
"""

from __future__ import annotations

import sys

from pydantic import ValidationError

from bot.settings import load_settings

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
    "(Discord Developer Portal > your application > Bot > Reset Token)."
)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["invite"]:
        return invite(args[1:])
    try:
        settings = load_settings()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        print(f"Invalid setting {where}: {message} (see .env.example).", file=sys.stderr)
        return 2
    if settings.token is None:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    from bot.app import run  # imported late: discord.py is only needed to really run

    return run(settings)


def invite(args: list[str]) -> int:
    from bot.invite import application_id_from_token, invite_url

    if args and args[0].isdigit():
        application_id: int | None = int(args[0])
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


if __name__ == "__main__":
    raise SystemExit(main())
