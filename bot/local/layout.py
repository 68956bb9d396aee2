"""Discord's rules for a Components V2 message (the IS_COMPONENTS_V2 flag).

They say which components go where, how many, how much text, and what the flag forbids, so the
local server refuses (400, code 50035) what Discord refuses. From Discord's components
reference."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = frozenset({3, 5, 6, 7, 8})  # string, user, role, mentionable and channel selects
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)

COMPONENTS = 40  # in a message, nested ones counted
TEXT = 4000  # characters across a message's text displays
SECTION_TEXTS = 3
GALLERY_ITEMS = 10
MEDIA_DESCRIPTION = 1024
ROW_BUTTONS = 5
ACCENT_MAX = 0xFFFFFF

TOP_LEVEL = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
ACCESSORIES = frozenset({BUTTON, THUMBNAIL})
# Keys a V2 message may not carry with anything in them.
LEGACY_FIELDS = ("content", "embeds", "embed", "poll", "sticker_ids")

Check = Callable[[dict[str, Any], str, "_Walk"], None]


def is_v2(flags: object) -> bool:
    """Whether a message's flags hold IS_COMPONENTS_V2."""
    return bool(int(flags or 0) & IS_COMPONENTS_V2)  # type: ignore[call-overload]


def v2_message_errors(data: Mapping[str, Any]) -> list[str]:
    """What Discord would refuse in the payload of a V2 message (empty: it is accepted). The
    per-button and per-select rules (labels, custom ids, options) are the caller's."""
    errors = [
        f"{key}: cannot be used with the IS_COMPONENTS_V2 flag"
        for key in LEGACY_FIELDS
        if data.get(key)
    ]
    walk = _Walk(errors)
    for index, component in enumerate(data.get("components") or []):
        walk.component(component, f"components[{index}]", TOP_LEVEL)
    if walk.count > COMPONENTS:
        errors.append(f"components: {walk.count} > {COMPONENTS} components, nested ones counted")
    if walk.text > TEXT:
        errors.append(f"components: {walk.text} > {TEXT} characters across text displays")
    ids = [i for i in walk.ids if i is not None]
    if len(set(ids)) != len(ids):
        errors.append("components: the ids of components are not unique")
    return errors


def edit_errors(stored_flags: int, data: Mapping[str, Any]) -> list[str]:
    """What Discord refuses in an edit because of the V2 flag the message has: dropping it.
    (Setting it on a message sent without it is accepted when the edit leaves no content and
    no embeds, which `v2_message_errors` on the edited message checks.)"""
    if is_v2(stored_flags) and data.get("flags") is not None and not is_v2(data["flags"]):
        return ["flags: the IS_COMPONENTS_V2 flag cannot be removed from a message"]
    return []


def legacy_components(rows: list[dict[str, Any]]) -> list[str]:
    """The components of a message without the V2 flag that only a V2 message may hold."""
    return [
        f"components[{i}]: type {row.get('type')} needs the IS_COMPONENTS_V2 flag"
        for i, row in enumerate(rows)
        if row.get("type") in TOP_LEVEL - {ACTION_ROW}
    ]


class _Walk:
    """One pass over a V2 message's components: counts them and their text, collects ids."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        self.count = 0
        self.text = 0
        self.ids: list[int | None] = []

    def component(self, component: dict[str, Any], where: str, allowed: frozenset[int]) -> None:
        self.count += 1
        self.ids.append(component.get("id"))
        kind = component.get("type")
        if kind not in allowed:
            self.errors.append(f"{where}: a component of type {kind} cannot be here")
            return
        check = _CHECKS.get(int(kind))
        if check is not None:
            check(component, where, self)


def _container(component: dict[str, Any], where: str, walk: _Walk) -> None:
    children = component.get("components") or []
    if not children:
        walk.errors.append(f"{where}.components: a container holds at least one component")
    for index, child in enumerate(children):
        walk.component(child, f"{where}.components[{index}]", IN_CONTAINER)
    accent = component.get("accent_color")
    if accent is not None and not (isinstance(accent, int) and 0 <= accent <= ACCENT_MAX):
        walk.errors.append(f"{where}.accent_color: {accent!r} is not a colour 0-0xFFFFFF")


def _section(component: dict[str, Any], where: str, walk: _Walk) -> None:
    texts = component.get("components") or []
    if not 1 <= len(texts) <= SECTION_TEXTS:
        walk.errors.append(f"{where}.components: {len(texts)} not in 1-{SECTION_TEXTS}")
    for index, child in enumerate(texts):
        walk.component(child, f"{where}.components[{index}]", frozenset({TEXT_DISPLAY}))
    accessory = component.get("accessory")
    if not accessory:
        walk.errors.append(f"{where}.accessory: a section needs an accessory")
        return
    walk.component(accessory, f"{where}.accessory", ACCESSORIES)


def _text_display(component: dict[str, Any], where: str, walk: _Walk) -> None:
    content = component.get("content")
    if not isinstance(content, str) or not content:
        walk.errors.append(f"{where}.content: a text display needs text")
        return
    walk.text += len(content)


def _media(item: Mapping[str, Any], where: str, errors: list[str]) -> None:
    url = str((item.get("media") or {}).get("url") or "")
    if not url.startswith(("https://", "http://", "attachment://")):
        errors.append(f"{where}.media.url: {url!r} is not a URL nor attachment://")
    description = item.get("description")
    if description is not None and len(str(description)) > MEDIA_DESCRIPTION:
        errors.append(f"{where}.description: {len(str(description))} > {MEDIA_DESCRIPTION}")


def _thumbnail(component: dict[str, Any], where: str, walk: _Walk) -> None:
    _media(component, where, walk.errors)


def _gallery(component: dict[str, Any], where: str, walk: _Walk) -> None:
    items = component.get("items") or []
    if not 1 <= len(items) <= GALLERY_ITEMS:
        walk.errors.append(f"{where}.items: {len(items)} not in 1-{GALLERY_ITEMS}")
    for index, item in enumerate(items):
        _media(item, f"{where}.items[{index}]", walk.errors)


def _file(component: dict[str, Any], where: str, walk: _Walk) -> None:
    url = str((component.get("file") or {}).get("url") or "")
    if not url.startswith("attachment://"):
        walk.errors.append(f"{where}.file.url: a file component names an attachment://")


def _separator(component: dict[str, Any], where: str, walk: _Walk) -> None:
    if component.get("spacing", 1) not in (1, 2):
        walk.errors.append(f"{where}.spacing: {component.get('spacing')!r} is not 1 or 2")


def _action_row(component: dict[str, Any], where: str, walk: _Walk) -> None:
    children = component.get("components") or []
    selects = [c for c in children if c.get("type") in SELECTS]
    if not children or len(children) > ROW_BUTTONS or (selects and len(children) > 1):
        walk.errors.append(f"{where}: 1-5 buttons, or one select, per row")
    for index, child in enumerate(children):
        walk.component(child, f"{where}.components[{index}]", SELECTS | {BUTTON})


_CHECKS: dict[int, Check] = {
    CONTAINER: _container,
    SECTION: _section,
    TEXT_DISPLAY: _text_display,
    THUMBNAIL: _thumbnail,
    MEDIA_GALLERY: _gallery,
    FILE: _file,
    SEPARATOR: _separator,
    ACTION_ROW: _action_row,
}
