"""What the local Discord knows and records.

It knows its users and the interactions it injects, and records every request the client makes
(with whom it answers and whether only that user sees it)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

EPHEMERAL = 64
LOADING = 128
TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
# What an ordinary member may do in the table channel (view, send, read history, use commands…).
MEMBER_PERMISSIONS = 0x0000_0000_0006_4C40 | (1 << 31)
BOT_PERMISSIONS = 0x0000_0007_FFFF_FFFF & ~ADMINISTRATOR

# Interaction callback types (Discord's InteractionResponseType).
CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE = 7
CALLBACK_MODAL = 9
CALLBACK_LAUNCH_ACTIVITY = 12  # open the application's Activity for the clicker


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class LocalUser:
    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS
    bot: bool = False

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self) -> dict[str, Any]:
        return {
            "user": self.user_payload(),
            "nick": None,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(self.permissions),
        }


@dataclass
class LocalGuild:
    """A guild: its two text channels, and its members besides the bot, the owner and the
    admin (who are members of every guild)."""

    id: int
    name: str
    channel_id: int
    other_channel_id: int
    users: list[LocalUser]


@dataclass
class LocalInteraction:
    """One injected interaction and everything the client sent in answer to it."""

    id: int
    token: str
    user: LocalUser
    kind: str  # "command" | "button" | "select"
    data: dict[str, Any]
    channel_id: int
    message_id: int | None = None  # the message a component sits on
    custom_id: str | None = None
    callback_type: int | None = None
    launched_activity: bool = False  # answered by opening the Activity (the local page shows it)
    activity_instance_id: str | None = None  # the instance it opened (its channel's)
    original_message_id: int | None = None
    requests: list[RecordedRequest] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    created_at: float = field(default_factory=time.monotonic)
    event: dict[str, Any] | None = None  # the INTERACTION_CREATE payload delivered

    async def wait_answered(self, timeout: float = 5.0) -> LocalInteraction:
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not answer {self.kind} {self.describe()}") from None
        return self

    def describe(self) -> str:
        return self.custom_id or json.dumps(self.data.get("name"))


@dataclass
class RecordedRequest:
    method: str
    route: str  # the route template, e.g. "PATCH /channels/{channel_id}/messages/{message_id}"
    path: str
    payload: Any
    status: int
    interaction: LocalInteraction | None = None
    ephemeral: bool = False  # the message it creates or edits is only seen by interaction.user
    message_id: int | None = None  # the message created or edited
    at: float = field(default_factory=time.monotonic)

    @property
    def user_id(self) -> int | None:
        return self.interaction.user.id if self.interaction else None

    @property
    def is_public(self) -> bool:
        return not self.ephemeral

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def shows_message(self) -> bool:
        """Whether this request puts text in front of someone (creates or edits a message)."""
        return self.ok and self.message_id is not None and self.method in ("POST", "PATCH")


def iter_components(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every component of a message, depth first (action rows and their children; in a
    Components V2 message containers, sections and a section's accessory after its text)."""
    stack = list(reversed(message.get("components") or []))
    while stack:
        component = stack.pop()
        yield component
        if component.get("accessory"):
            stack.append(component["accessory"])
        stack.extend(reversed(component.get("components") or []))
