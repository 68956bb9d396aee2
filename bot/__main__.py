"""`python -m bot`: load settings, then run the bot (or say exactly what is missing)."""

from __future__ import annotations

import sys

from pydantic import ValidationError

from bot.settings import load_settings

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
    "(Discord Developer Portal > your application > Bot > Reset Token)."
)


def main() -> int:
    try:
        settings = load_settings()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        print(f"Invalid setting {where}: {first['msg']} (see .env.example).", file=sys.stderr)
        return 2
    if settings.token is None:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    from bot.app import run  # imported late: discord.py is only needed to really run

    return run(settings)


if __name__ == "__main__":
    raise SystemExit(main())
