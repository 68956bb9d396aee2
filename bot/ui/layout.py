"""A rendered message as Discord's Components V2 lay it out.

One container (its accent the embed's colour) holds, in this order, the heading and text as text
displays, the picture across it in a media gallery, the small print, and the buttons and menus
in action rows.

The renderers keep building one description of a message (an embed's texts and picture, and
the component specs); this module writes the V2 payload from it, so every message reads the
same whichever way it is sent, and the texts are worded in one place. Like `build_view`, the
payload is written directly (`LayoutComponentsView`), without discord.py's item objects: every
click reaches `TableItem` by its template, never through a stored view.

Discord's limits hold by construction: at most 40 components counting nested ones (a message
has one container, a handful of text displays, one gallery and at most five rows of five), and
4,000 characters across the text displays (the texts are cut, the oldest parts first, to fit).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.render.actions import ComponentSpec
from bot.render.table import RenderedMessage
from bot.ui.dynamic_items import build_view

IS_COMPONENTS_V2 = 1 << 15
CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR, SECTION, THUMBNAIL = 17, 10, 12, 14, 9, 11
TEXT = 4000  # characters across a message's text displays (Discord's limit)
ELLIPSIS = "…"


class LayoutComponentsView(discord.ui.LayoutView):
    """A persistent Components V2 view whose payload is written as it is (no item objects)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True


def layout_view(
    embed: discord.Embed, components: tuple[ComponentSpec, ...] | list[ComponentSpec]
) -> LayoutComponentsView:
    """The V2 view showing this embed and these buttons and menus."""
    rows = build_view(components).rows
    return LayoutComponentsView(layout_components(dict(embed.to_dict()), rows))


def layout_message(
    embed: discord.Embed, components: tuple[ComponentSpec, ...] | list[ComponentSpec]
) -> dict[str, Any]:
    """The keyword arguments of a send or an edit that shows the message in V2: the view, and
    neither content nor embed (an edit of a message sent with them clears them: Discord sets
    the V2 flag on an edit only so)."""
    return {"view": layout_view(embed, components), "embed": None, "content": None}


def layout_components(embed: dict[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The V2 components of an embed (as `Embed.to_dict` writes it) and its action rows."""
    head, body, small = _texts(embed)
    children: list[dict[str, Any]] = []
    thumbnail = (embed.get("thumbnail") or {}).get("url")
    if head and thumbnail:  # the thumbnail beside the heading, as in an embed
        children.append(
            {
                "type": SECTION,
                "components": [_text(head)],
                "accessory": {"type": THUMBNAIL, "media": {"url": thumbnail}},
            }
        )
    elif head:
        children.append(_text(head))
    image = (embed.get("image") or {}).get("url")
    if image:
        children.append({"type": MEDIA_GALLERY, "items": [{"media": {"url": image}}]})
    if body:
        children.append(_text(body))
    if small:
        children.append(_text(small))
    if rows and children:
        children.append({"type": SEPARATOR, "divider": True, "spacing": 1})
    children.extend(rows)
    if not children:
        return []
    container: dict[str, Any] = {"type": CONTAINER, "components": children}
    if embed.get("color") is not None:
        container["accent_color"] = int(embed["color"])
    return [container]


def _text(content: str) -> dict[str, Any]:
    return {"type": TEXT_DISPLAY, "content": content}


def _texts(embed: dict[str, Any]) -> tuple[str, str, str]:
    """The heading (author, title, description), the body (the fields, each its name in bold
    over its value) and the small print (the footer), within `TEXT` characters in all: the
    body gives way first, from its first fields (a table's log comes last and matters most)."""
    head_parts = []
    author = (embed.get("author") or {}).get("name")
    if author:
        head_parts.append(f"-# {author}")
    if embed.get("title"):
        head_parts.append(f"### {embed['title']}")
    if embed.get("description"):
        head_parts.append(str(embed["description"]))
    head = "\n".join(head_parts)
    fields = [
        f"**{field.get('name', '')}**\n{field.get('value', '')}"
        for field in embed.get("fields") or []
    ]
    footer = (embed.get("footer") or {}).get("text")
    small = f"-# {footer}" if footer else ""
    room = TEXT - len(head) - len(small)
    while fields and len("\n\n".join(fields)) > room:
        fields.pop(0)
    body = "\n\n".join(fields)
    if len(head) + len(small) > TEXT:  # an over-long description: cut, never refused
        head = head[: max(0, TEXT - len(small) - len(ELLIPSIS))] + ELLIPSIS
    return head, body, small


def shown_as(rendered: RenderedMessage, embed: discord.Embed | None = None) -> dict[str, Any]:
    """The keyword arguments of the send or edit that shows `rendered` (`embed`: its embed as
    prepared for this send, its picture there or not yet): a V2 layout, or the embed and its
    buttons."""
    shown = rendered.embed if embed is None else embed
    if rendered.v2:
        return layout_message(shown, rendered.components)
    return {"embed": shown, "view": build_view(rendered.components)}


def words_message(words: str) -> dict[str, Any]:
    """The keyword arguments of an edit that leaves a message only these words, as a V2 text
    display (a V2 message may hold no content; an embed message becomes V2 so)."""
    return {"view": LayoutComponentsView([_text(words)]), "embed": None, "content": None}
