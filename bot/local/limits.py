"""Discord's limits on a message payload, so the local server refuses what Discord refuses.

A refusal is a 400 with code 50035. The limits cover content, embeds and components (a
Components V2 message's layout rules are in layout.py). From Discord's API documentation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bot.local import layout

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
EMBEDS_TOTAL = 6000
ACTION_ROWS = 5
ROW_BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
LINK_STYLE = 5


def message_errors(data: Mapping[str, Any], *, creating: bool) -> list[str]:
    """What Discord would refuse in this message payload (empty: it is accepted)."""
    if layout.is_v2(data.get("flags")):
        refused = layout.v2_message_errors(data)
        _item_errors(data.get("components") or [], refused)
        if creating and not data.get("components"):
            refused.append("cannot send an empty message")
        return refused
    errors: list[str] = []
    content = data.get("content")
    if content is not None and len(str(content)) > CONTENT:
        errors.append(f"content: {len(str(content))} > {CONTENT} characters")
    embeds = data.get("embeds") or []
    if len(embeds) > EMBEDS:
        errors.append(f"embeds: {len(embeds)} > {EMBEDS}")
    total = 0
    for index, embed in enumerate(embeds):
        total += _embed_errors(embed, f"embeds[{index}]", errors)
    if total > EMBEDS_TOTAL:
        errors.append(f"embeds: {total} > {EMBEDS_TOTAL} characters in all")
    _component_errors(data.get("components") or [], errors)
    _item_errors(data.get("components") or [], errors)
    if creating and not (
        content or embeds or data.get("components") or data.get("attachments_uploaded")
    ):
        errors.append("cannot send an empty message")
    return errors


def _embed_errors(embed: dict[str, Any], where: str, errors: list[str]) -> int:
    size = 0
    for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
        value = str(embed.get(key) or "")
        size += len(value)
        if len(value) > limit:
            errors.append(f"{where}.{key}: {len(value)} > {limit} characters")
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS:
        errors.append(f"{where}.fields: {len(fields)} > {EMBED_FIELDS}")
    for index, field in enumerate(fields):
        name, value = str(field.get("name") or ""), str(field.get("value") or "")
        size += len(name) + len(value)
        if not name.strip() or not value.strip():
            errors.append(f"{where}.fields[{index}]: name and value must not be empty")
        if len(name) > FIELD_NAME:
            errors.append(f"{where}.fields[{index}].name: {len(name)} > {FIELD_NAME}")
        if len(value) > FIELD_VALUE:
            errors.append(f"{where}.fields[{index}].value: {len(value)} > {FIELD_VALUE}")
    footer = str((embed.get("footer") or {}).get("text") or "")
    author = str((embed.get("author") or {}).get("name") or "")
    size += len(footer) + len(author)
    if len(footer) > FOOTER_TEXT:
        errors.append(f"{where}.footer.text: {len(footer)} > {FOOTER_TEXT}")
    if len(author) > AUTHOR_NAME:
        errors.append(f"{where}.author.name: {len(author)} > {AUTHOR_NAME}")
    return size


def _component_errors(rows: list[dict[str, Any]], errors: list[str]) -> None:
    """The layout of a message without the V2 flag: up to 5 action rows and nothing else."""
    if len(rows) > ACTION_ROWS:
        errors.append(f"components: {len(rows)} > {ACTION_ROWS} action rows")
    errors.extend(layout.legacy_components(rows))
    for r, row in enumerate(rows):
        if row.get("type") != ACTION_ROW:
            errors.append(f"components[{r}]: top level must be action rows")
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") != BUTTON]
        if not children or len(children) > ROW_BUTTONS or (selects and len(children) > 1):
            errors.append(f"components[{r}]: 1-5 buttons, or one select, per row")


def _interactive(components: list[dict[str, Any]], where: str) -> Iterator[tuple[str, Any]]:
    """Every button and select of a message, wherever it is nested (rows, containers, a
    section's accessory), with where it is."""
    for index, component in enumerate(components):
        here = f"{where}[{index}]"
        if component.get("type") == BUTTON or component.get("type") in layout.SELECTS:
            yield here, component
        yield from _interactive(component.get("components") or [], f"{here}.components")
        accessory = component.get("accessory")
        if accessory:
            yield from _interactive([accessory], f"{here}.accessory")


def _item_errors(components: list[dict[str, Any]], errors: list[str]) -> None:
    """Buttons and selects: custom ids 1-100 characters and unique in the message, labels."""
    seen: set[str] = set()
    for where, child in _interactive(components, "components"):
        where = where.replace(".accessory[0]", ".accessory")
        custom_id = child.get("custom_id")
        if child.get("type") == BUTTON and child.get("style") == LINK_STYLE:
            continue
        if not custom_id or len(str(custom_id)) > CUSTOM_ID:
            errors.append(f"{where}.custom_id: must be 1-{CUSTOM_ID} characters")
        elif custom_id in seen:
            errors.append(f"{where}.custom_id: {custom_id!r} is not unique")
        seen.add(str(custom_id))
        if child.get("type") == BUTTON:
            label = str(child.get("label") or "")
            if len(label) > BUTTON_LABEL:
                errors.append(f"{where}.label: {len(label)} > {BUTTON_LABEL}")
            if not label and not child.get("emoji"):
                errors.append(f"{where}: a button needs a label or an emoji")
        elif child.get("type") == STRING_SELECT:
            _select_errors(child, where, errors)


def edit_errors(stored: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
    """What Discord would refuse in an edit of the `stored` message: the V2 flag dropped, or
    the message as it would be after the edit breaking a limit (content left on a message the
    edit makes V2, text displays in a message that is not)."""
    errors = layout.edit_errors(int(stored.get("flags") or 0), data)
    return errors + message_errors(edited(stored, data), creating=False)


def edited(stored: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The payload parts of `stored` after the edit `data` (a key sent as null clears it)."""
    after: dict[str, Any] = {
        key: stored.get(key) for key in ("content", "embeds", "components", "flags")
    }
    for key in ("content", "embeds", "components", "poll"):
        if key in data:
            after[key] = data[key]
    if data.get("embed") is not None:
        after["embeds"] = [data["embed"]]
    if data.get("flags") is not None:
        after["flags"] = data["flags"]
    return after


def _select_errors(select: dict[str, Any], where: str, errors: list[str]) -> None:
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS:
        errors.append(f"{where}.options: {len(options)} not in 1-{SELECT_OPTIONS}")
    values = [str(o.get("value")) for o in options]
    if len(set(values)) != len(values):
        errors.append(f"{where}.options: values are not unique")
    for index, option in enumerate(options):
        for key in ("label", "value", "description"):
            text = str(option.get(key) or "")
            if len(text) > OPTION_TEXT:
                errors.append(f"{where}.options[{index}].{key}: {len(text)} > {OPTION_TEXT}")
        if not str(option.get("label") or "") or not str(option.get("value") or ""):
            errors.append(f"{where}.options[{index}]: label and value must not be empty")
    least, most = int(select.get("min_values", 1)), int(select.get("max_values", 1))
    if not 0 <= least <= most or not 1 <= most <= min(SELECT_OPTIONS, max(1, len(options))):
        errors.append(f"{where}: min_values {least}, max_values {most} out of bounds")
    placeholder = str(select.get("placeholder") or "")
    if len(placeholder) > PLACEHOLDER:
        errors.append(f"{where}.placeholder: {len(placeholder)} > {PLACEHOLDER}")
