"""What the local Discord keeps across restarts, in one JSON file next to the database.

It keeps channels (threads included), messages and the files they carry, synced commands,
application emojis, each page user's language, the Activity's access tokens and its running
instances.

The bot's store already survives a restart; this file makes the Discord side survive it too,
so a restored table finds its message and the buttons already on the page keep working.
Writes are coalesced (one per burst of requests) and atomic (a temporary file renamed).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from bot.local.activities import LocalInstance
from bot.local.emojis import Emoji
from bot.local.records import EPHEMERAL
from bot.local.server import LocalDiscord

log = logging.getLogger(__name__)

WRITE_DELAY = 0.05  # seconds: one write per burst of requests


class SavedState(BaseModel):
    """The file's shape; ids are Discord's strings in messages and ints as keys."""

    channels: dict[int, dict[str, Any]] = Field(default_factory=dict)
    messages: dict[int, dict[str, Any]] = Field(default_factory=dict)
    commands: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    locales: dict[str, str] = Field(default_factory=dict)  # user name -> Discord locale
    emojis: list[dict[str, Any]] = Field(default_factory=list)  # the application's, images too
    files: dict[str, str] = Field(default_factory=dict)  # messages' attachments, base64
    activity_tokens: dict[str, str] = Field(default_factory=dict)  # access token -> user name
    activity_instances: list[dict[str, Any]] = Field(default_factory=list)  # LocalInstance's


def state_path(database_path: Path) -> Path:
    """`data/cardtable.sqlite3` keeps its local Discord in `data/cardtable.local.json`."""
    return database_path.with_name(database_path.stem + ".local.json")


def _expired_ephemeral(message: dict[str, Any], lifetime: float) -> bool:
    """An ephemeral message nobody can see again (a page shows those of its own visit) nor
    the bot edit (its token expired): not worth keeping, so the file does not grow forever."""
    if not int(message.get("flags") or 0) & EPHEMERAL:
        return False
    created = datetime.fromisoformat(str(message["timestamp"]))
    return (datetime.now(UTC) - created).total_seconds() > lifetime


class StateFile:
    """Loads the saved state into a server, then saves it after every change."""

    def __init__(self, path: Path, server: LocalDiscord, locales: dict[str, str]) -> None:
        self.path = path
        self._server = server
        self._locales = locales  # shared with the page: edited in place when a user switches
        self._pending: asyncio.TimerHandle | None = None

    def load(self) -> None:
        """Restore what a previous run saved (nothing if there is no file; a damaged file is
        set aside with a warning rather than stopping the table)."""
        if not self.path.exists():
            return
        try:
            saved = SavedState.model_validate_json(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            aside = self.path.with_suffix(".damaged.json")
            log.warning("local state %s unreadable (%s): moved to %s", self.path, error, aside)
            with contextlib.suppress(OSError):
                self.path.replace(aside)
            return
        server = self._server
        for channel_id, channel in saved.channels.items():
            server.channels.setdefault(channel_id, channel)
        server.messages.update(saved.messages)
        for scope, commands in saved.commands.items():
            server.commands[None if scope == "global" else int(scope)] = commands
        self._locales.update({k: v for k, v in saved.locales.items() if k in server.users})
        server.files.update(
            {address: base64.b64decode(content) for address, content in saved.files.items()}
        )
        for token, name in saved.activity_tokens.items():
            if name in server.users:
                server.oauth.keep(token, server.users[name])
        for entry in saved.activity_instances:
            with contextlib.suppress(TypeError):  # a damaged entry: that instance is gone
                server.activities.keep(LocalInstance(**entry))
        for entry in saved.emojis:
            emoji = Emoji.from_saved(entry)
            server.emojis.by_id[emoji.id] = emoji
        known = [*server.channels, *server.messages, *server.emojis.by_id]
        if known:
            server.continue_ids_after(max(known))

    def changed(self) -> None:
        """Save soon (coalesced with the other changes of the same burst)."""
        if self._pending is None:
            loop = asyncio.get_running_loop()
            self._pending = loop.call_later(WRITE_DELAY, self.save)

    def save(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        server = self._server
        messages = {
            message_id: message
            for message_id, message in server.messages.items()
            if not _expired_ephemeral(message, server.token_lifetime)
        }
        carried = {
            str(attachment.get("url"))
            for message in messages.values()
            for attachment in message.get("attachments") or ()
        }
        state = SavedState(
            channels=server.channels,
            messages=messages,
            commands={
                ("global" if scope is None else str(scope)): commands
                for scope, commands in server.commands.items()
            },
            locales=self._locales,
            emojis=[emoji.saved() for emoji in server.emojis.by_id.values()],
            files={
                address: base64.b64encode(content).decode("ascii")
                for address, content in server.files.items()
                if address in carried
            },
            activity_tokens={token: user.name for token, user in server.oauth.tokens.items()},
            activity_instances=[i.saved() for i in server.activities.instances.values()],
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(state.model_dump(mode="json")), encoding="utf-8")
        os.replace(temporary, self.path)
