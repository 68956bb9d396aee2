"""The invite link a server admin opens to add the bot: `python -m bot invite [APPLICATION_ID]`.

The permissions are exactly what the bot uses: see and post in the channel and in threads
(the table message, turn mentions, answers to a mention), embeds, the round-end picture as an
attached file, a thread per table when the server turns that setting on, and a private
thread per guided hand (`/<game> learn`).
"""

from __future__ import annotations

import base64
import binascii
import re

import discord

SCOPES = ("bot", "applications.commands")
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    create_public_threads=True,
    create_private_threads=True,  # a guided hand (`/<game> learn`): a thread for its learner
)


SNOWFLAKE = re.compile(r"[0-9]{1,20}")  # ASCII digits only: "²".isdigit() is True


def application_id_of(text: str) -> int | None:
    """An application id as typed or decoded (ASCII digits), else None."""
    return int(text) if SNOWFLAKE.fullmatch(text) else None


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def application_id_from_token(token: str) -> int | None:
    """A bot token starts with its user id in base64, which is the application's id."""
    head = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    return application_id_of(decoded)
