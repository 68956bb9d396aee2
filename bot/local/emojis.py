"""Application emojis as Discord keeps them, with Discord's rules.

They are uploaded by the bot (`POST /applications/{id}/emojis`), listed, renamed and deleted,
with Discord's rules on names, formats and sizes. The page shows their pictures
(`/emojis/{id}.png`) wherever a message uses `<:name:id>` or a component carries the emoji."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_EMOJIS = 2000
MAX_BYTES = 256 * 1024
NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
FORMATS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif"}
DATA_URI = re.compile(r"^data:(?P<type>image/[a-z]+);base64,(?P<data>.*)$", re.S)


class EmojiRefused(Exception):
    """What Discord answers to a bad emoji request: status, message, JSON error code."""

    def __init__(self, status: int, message: str, code: int) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


@dataclass
class Emoji:
    id: int
    name: str
    content_type: str
    image: bytes

    @property
    def animated(self) -> bool:
        return self.content_type == "image/gif"

    def payload(self, owner: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": owner,
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }

    def saved(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "content_type": self.content_type,
            "image": base64.b64encode(self.image).decode("ascii"),
        }

    @classmethod
    def from_saved(cls, saved: dict[str, Any]) -> Emoji:
        image = base64.b64decode(saved["image"])
        return cls(int(saved["id"]), str(saved["name"]), str(saved["content_type"]), image)


class ApplicationEmojis:
    def __init__(self, new_id: Callable[[], int]) -> None:
        self._new_id = new_id
        self.by_id: dict[int, Emoji] = {}

    def get(self, emoji_id: int | str) -> Emoji:
        try:
            return self.by_id[int(emoji_id)]
        except (KeyError, ValueError):
            raise EmojiRefused(404, "Unknown Emoji", 10014) from None

    def create(self, payload: dict[str, Any]) -> Emoji:
        name = self._checked_name(payload.get("name"))
        if len(self.by_id) >= MAX_EMOJIS:
            raise EmojiRefused(400, "Maximum number of emojis reached (2000)", 30008)
        found = DATA_URI.match(str(payload.get("image") or ""))
        if found is None or found["type"] not in FORMATS:
            raise EmojiRefused(400, "Invalid Form Body: image must be PNG, JPEG or GIF", 50035)
        try:
            image = base64.b64decode(found["data"], validate=True)
        except binascii.Error:
            raise EmojiRefused(400, "Invalid Form Body: image is not base64", 50035) from None
        if len(image) > MAX_BYTES:
            raise EmojiRefused(400, "Invalid Form Body: image is larger than 256 KiB", 50045)
        emoji = Emoji(self._new_id(), name, found["type"], image)
        self.by_id[emoji.id] = emoji
        return emoji

    def rename(self, emoji_id: str, payload: dict[str, Any]) -> Emoji:
        emoji = self.get(emoji_id)
        emoji.name = self._checked_name(payload.get("name"), renaming=emoji)
        return emoji

    def delete(self, emoji_id: str) -> None:
        del self.by_id[self.get(emoji_id).id]

    def _checked_name(self, name: object, renaming: Emoji | None = None) -> str:
        text = str(name or "")
        if not NAME.match(text):
            raise EmojiRefused(
                400, "Invalid Form Body: name must be 2-32 letters, digits or _", 50035
            )
        if any(e.name == text and e is not renaming for e in self.by_id.values()):
            raise EmojiRefused(400, "Invalid Form Body: name is already taken", 50035)
        return text
