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

from bot.render.actions import ButtonSpec, ComponentSpec, SectionSpec
from bot.render.table import RenderedMessage
from bot.ui.dynamic_items import action_rows, build_view, button_payload

IS_COMPONENTS_V2 = 1 << 15
CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR, SECTION, THUMBNAIL = 17, 10, 12, 14, 9, 11
TEXT = 4000  # characters across a message's text displays (Discord's limit)
COMPONENTS = 40  # in a message, nested ones counted (Discord's limit)
ACTION_ROW = 1
ROW_BUTTONS = 5
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
    embed: discord.Embed,
    components: tuple[ComponentSpec, ...] | list[ComponentSpec],
    sections: tuple[SectionSpec, ...] | list[SectionSpec] = (),
    seats: tuple[SectionSpec, ...] | list[SectionSpec] = (),
) -> LayoutComponentsView:
    """The V2 view showing this embed, its seats, its moves beside what they concern, and
    these buttons and menus."""
    rows = action_rows(components)
    return LayoutComponentsView(layout_components(dict(embed.to_dict()), rows, sections, seats))


def layout_message(
    embed: discord.Embed,
    components: tuple[ComponentSpec, ...] | list[ComponentSpec],
    sections: tuple[SectionSpec, ...] | list[SectionSpec] = (),
    seats: tuple[SectionSpec, ...] | list[SectionSpec] = (),
) -> dict[str, Any]:
    """The keyword arguments of a send or an edit that shows the message in V2: the view, and
    neither content nor embed (an edit of a message sent with them clears them: Discord sets
    the V2 flag on an edit only so)."""
    view = layout_view(embed, components, sections, seats)
    return {"view": view, "embed": None, "content": None}


def layout_components(
    embed: dict[str, Any],
    rows: list[dict[str, Any]],
    sections: tuple[SectionSpec, ...] | list[SectionSpec] = (),
    seats: tuple[SectionSpec, ...] | list[SectionSpec] = (),
) -> list[dict[str, Any]]:
    """The V2 components of an embed (as `Embed.to_dict` writes it), its seats, its sections
    and its action rows. The seats (whose lines are the embed's description) are sections
    under the heading while the message keeps room for every move beside them, else the
    description stays, their lines without their buttons. Sections that would take the
    message past Discord's 40 components give their buttons back to rows of five, the last
    sections first, so every move stays offered."""
    image = (embed.get("image") or {}).get("url")
    thumbnail = (embed.get("thumbnail") or {}).get("url")
    rows = list(rows)
    # Container, heading, gallery, body, small print, separator; then the rows with every
    # move's button in them (the most the moves can take), and three for each seat.
    fixed = 1 + 1 + bool(image) + bool(embed.get("fields")) + bool(embed.get("footer")) + 1
    fixed += 2 if thumbnail else 0
    worst = _count(rows + _rows_of([section.button for section in sections]))
    seated = bool(seats) and fixed + worst + 3 * len(seats) <= COMPONENTS
    if seated:  # the description is the seats' lines: shown beside their buttons instead
        embed = {key: value for key, value in embed.items() if key != "description"}
    head, body, small = _texts(embed, sum(len(seat.text) for seat in seats) if seated else 0)
    children: list[dict[str, Any]] = []
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
    if seated:
        children.extend(_section(seat) for seat in seats)
    if image:
        children.append({"type": MEDIA_GALLERY, "items": [{"media": {"url": image}}]})
    if body:
        children.append(_text(body))
    shown, rows = _fitting_sections(list(sections), rows, _count(children) + 1 + 1 + bool(small))
    children.extend(_section(section) for section in shown)
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


def _section(section: SectionSpec) -> dict[str, Any]:
    return {
        "type": SECTION,
        "components": [_text(section.text)],
        "accessory": button_payload(section.button),
    }


def _count(components: list[dict[str, Any]]) -> int:
    """Components counted as Discord counts them: each one, nested ones included."""
    total = 0
    for component in components:
        total += 1 + _count(component.get("components") or [])
        if component.get("accessory"):
            total += 1
    return total


def _fitting_sections(
    sections: list[SectionSpec], rows: list[dict[str, Any]], taken: int
) -> tuple[list[SectionSpec], list[dict[str, Any]]]:
    """The sections that fit beside `taken` components (container, texts, gallery, the
    separator) and the rows, and the rows with the buttons of those that do not."""
    given_back: list[ButtonSpec] = []
    while sections:
        extra = _rows_of(given_back)
        if taken + 3 * len(sections) + _count(rows + extra) <= COMPONENTS:
            return sections, rows + extra
        given_back.insert(0, sections.pop().button)
    return [], rows + _rows_of(given_back)


def _rows_of(buttons: list[ButtonSpec]) -> list[dict[str, Any]]:
    chunks = [buttons[i : i + ROW_BUTTONS] for i in range(0, len(buttons), ROW_BUTTONS)]
    return [
        {"type": ACTION_ROW, "components": [button_payload(b) for b in chunk]} for chunk in chunks
    ]


def _text(content: str) -> dict[str, Any]:
    return {"type": TEXT_DISPLAY, "content": content}


def _texts(embed: dict[str, Any], beside: int = 0) -> tuple[str, str, str]:
    """The heading (author, title, description), the body (the fields, each its name in bold
    over its value) and the small print (the footer), within `TEXT` characters in all with
    `beside` more (the seats' lines): the body gives way first, from its first fields (a
    table's log comes last and matters most)."""
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
    room = TEXT - len(head) - len(small) - beside
    while fields and len("\n\n".join(fields)) > room:
        fields.pop(0)
    body = "\n\n".join(fields)
    if len(head) + len(small) + beside > TEXT:  # an over-long description: cut, never refused
        head = head[: max(0, TEXT - len(small) - beside - len(ELLIPSIS))] + ELLIPSIS
    return head, body, small


def shown_as(rendered: RenderedMessage, embed: discord.Embed | None = None) -> dict[str, Any]:
    """The keyword arguments of the send or edit that shows `rendered` (`embed`: its embed as
    prepared for this send, its picture there or not yet): a V2 layout, or the embed and its
    buttons."""
    shown = rendered.embed if embed is None else embed
    if rendered.v2:
        return layout_message(shown, rendered.components, rendered.sections, rendered.seats)
    return {"embed": shown, "view": build_view(rendered.components)}


def words_message(words: str) -> dict[str, Any]:
    """The keyword arguments of an edit that leaves a message only these words, as a V2 text
    display (a V2 message may hold no content; an embed message becomes V2 so)."""
    return {"view": LayoutComponentsView([_text(words)]), "embed": None, "content": None}
