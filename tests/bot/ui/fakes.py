"""Stand-ins for discord.py's Interaction: they record every answer the controller gives."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

from bot.local.records import iter_components

BUTTON, STRING_SELECT = 2, 3

_ids = itertools.count(9000)


@dataclass
class Answer:
    kind: str  # send, edit, defer, followup, edit_original
    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    ephemeral: bool = False
    files: list[str] | None = None  # the files sent (None: the message keeps its own)

    def text(self) -> str:
        import json

        parts = [self.content or ""]
        if self.embed is not None:
            parts.append(json.dumps(self.embed.to_dict(), ensure_ascii=False))
        if self.view is not None and self.view.has_components_v2():  # its texts are components
            parts.append(json.dumps(self.view.to_components(), ensure_ascii=False))
        return " ".join(parts)

    def components(self) -> list[dict[str, Any]]:
        """The components as sent (the payload of each, row by row)."""
        return components(self.view)

    def custom_ids(self) -> list[str]:
        return [item["custom_id"] for item in self.components()]


def components(view: discord.ui.View | None) -> list[dict[str, Any]]:
    """A view's buttons and menus as discord.py sends them, row by row (in a Components V2
    view, wherever they are nested)."""
    if view is None:
        return []
    if view.has_components_v2():
        every = iter_components({"components": view.to_components()})
        return [item for item in every if item.get("type") in (BUTTON, STRING_SELECT)]
    return [item for row in view.to_components() for item in row["components"]]


@dataclass
class FakeResponse:
    answers: list[Answer]
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        ephemeral: bool = False,
        files: list[discord.File] | None = None,
    ) -> Any:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.answers.append(Answer("send", content, embed, view, ephemeral, _names(files)))
        return SimpleNamespace(message_id=next(_ids))

    async def edit_message(
        self,
        *,
        content: str | None = None,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        attachments: list[discord.File] | None = None,
    ) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.answers.append(Answer("edit", content, embed, view, files=_names(attachments)))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.answers.append(Answer("defer", ephemeral=ephemeral))


@dataclass
class FakeFollowup:
    answers: list[Answer]

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        self.answers.append(
            Answer(
                "followup",
                content,
                kwargs.get("embed"),
                kwargs.get("view"),
                kwargs.get("ephemeral", False),
                _names(kwargs.get("files")),
            )
        )
        return SimpleNamespace(id=next(_ids))


@dataclass
class FakeInteraction:
    user_id: int
    name: str = "Player"
    locale: discord.Locale = discord.Locale.american_english
    guild_id: int = 1
    guild_locale: discord.Locale | None = None
    ephemeral_message: bool = False
    manage_guild: bool = False
    channel_id: int = 10
    answers: list[Answer] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.id = next(_ids)
        self.user = SimpleNamespace(id=self.user_id, display_name=self.name)
        self.response = FakeResponse(self.answers)
        self.followup = FakeFollowup(self.answers)
        self.permissions = discord.Permissions(manage_guild=self.manage_guild)
        self.channel = SimpleNamespace(id=self.channel_id)
        self.message = SimpleNamespace(
            id=next(_ids), flags=SimpleNamespace(ephemeral=self.ephemeral_message)
        )

    async def edit_original_response(
        self,
        *,
        content: str | None = None,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        attachments: list[discord.File] | None = None,
    ) -> None:
        answer = Answer("edit_original", content, embed, view, files=_names(attachments))
        self.answers.append(answer)

    @property
    def only(self) -> Answer:
        assert len(self.answers) == 1, self.answers
        return self.answers[0]


def _names(files: list[discord.File] | None) -> list[str] | None:
    return None if files is None else [f.filename for f in files]
