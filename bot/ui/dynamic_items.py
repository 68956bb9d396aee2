"""The one dynamic item every component of the bot is.

It is a button or a select whose custom id is its whole meaning
(`ct:<table_id>:<round_no>:<action>`), parsed and distrusted on click.

Its template matches *any* custom id, so a forged or outdated id still reaches the table
controller, which answers it with one short sentence instead of letting the click time out.
A single class (not one per component type) because discord.py offers every click to every
dynamic item class whose template matches.

`build_view` does not build a `TableItem` per component to send: the payload of a view is
written straight from the rendered specs (`ComponentsView`), as discord.py's items would write
it (tested against them). Building discord.py's items took a large share of a click's CPU,
several times what writing the payload here takes (docs/performance.md); a view without item
objects changes nothing for a click: discord.py routes every click to `TableItem` by its
template, registered once at start (`CardTableBot.setup_hook`), never through a stored view.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord
from discord.ui import Button, DynamicItem, Item, Select

from bot.render.actions import ButtonSpec, ComponentSpec

if TYPE_CHECKING:
    from bot.app import CardTableBot

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
LABEL_LIMIT = 80
OPTION_LABEL_LIMIT = 100
PLACEHOLDER_LIMIT = 150
SELECT_OPTIONS = 25

log = logging.getLogger(__name__)


class TableItem(
    DynamicItem[Item[Any]],
    template=r"(?s)(?!(?:privacy|hist|rp|rpf|rpr|help|tn):)(?P<custom_id>.+)",
):
    # (?s): an id with a newline is one too (forged); it must reach the controller's answer.
    # `privacy:`, `hist:`, `rp:`, `rpf:`, `rpr:`, `help:` and `tn:` ids belong to other items
    # (bot/cogs/privacy.py, bot/cogs/history.py, bot/cogs/help.py).
    def __init__(self, item: Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    def button(
        cls,
        custom_id: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        emoji: str | None = None,
    ) -> TableItem:
        label = label[:LABEL_LIMIT] if label else None
        return cls(Button(custom_id=custom_id, label=label, style=style, emoji=emoji), row=row)

    @classmethod
    def select(
        cls,
        custom_id: str,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
        *,
        min_values: int = 1,
        max_values: int = 1,
    ) -> TableItem:
        placeholder = placeholder[:PLACEHOLDER_LIMIT] if placeholder else None
        select: Select[Any] = Select(
            custom_id=custom_id,
            placeholder=placeholder,
            options=options or [],
            min_values=min_values,
            max_values=max_values,
        )
        return cls(select, row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: Item[Any],
        match: re.Match[str],
        /,
    ) -> TableItem:
        custom_id = match["custom_id"]
        if isinstance(item, Select):
            return cls.select(custom_id)
        return cls.button(custom_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = tuple(self.item.values) if isinstance(self.item, Select) else ()
        bot: CardTableBot = interaction.client
        await bot.tables.on_component(interaction, self.custom_id, values)


class ComponentsView(discord.ui.View):
    """A persistent view (no timeout) whose components are the action rows given, sent as they
    are. It holds no item object: see the module docstring."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


ROWS = 5  # a message's action rows (discord.py: `Item.row` is 0 to 4)
ROW_WIDTH = 5  # a button takes one place of its row, a select the whole row
VIEW_ITEMS = 25  # components in a message (discord.py's `View.add_item`)


def build_view(components: tuple[ComponentSpec, ...] | list[ComponentSpec]) -> ComponentsView:
    """A persistent view of the rendered component specs (`action_rows`)."""
    return ComponentsView(action_rows(components))


def action_rows(
    components: tuple[ComponentSpec, ...] | list[ComponentSpec],
) -> list[dict[str, Any]]:
    """The action rows of the rendered component specs. Never beyond Discord's limits, never
    an empty select (Discord refuses the whole message, and the click it answers is lost): a
    component that does not fit is left out, and logged, where discord.py's `View.add_item`
    would refuse it."""
    widths = [0] * ROWS
    placed: list[tuple[int, dict[str, Any]]] = []
    for spec in components:
        try:
            component = _component(spec)
            if component is None:
                continue
            row = _place(spec, component, widths, len(placed))
        except ValueError as error:  # a row past the fifth, a full row, a full view
            log.warning("component %r left out: %s", spec.custom_id, error)
            continue
        placed.append((row, component))
    placed.sort(key=_row_of)  # stable: a row keeps its components in the order given
    rows: list[dict[str, Any]] = []
    current: int | None = None
    for row, component in placed:
        if row != current:
            rows.append({"type": ACTION_ROW, "components": []})
            current = row
        rows[-1]["components"].append(component)
    return rows


ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3  # Discord's component types


def _place(spec: ComponentSpec, component: dict[str, Any], widths: list[int], count: int) -> int:
    """The row discord.py renders the component in (its place taken in `widths`), or the
    ValueError with which discord.py refuses it. A button goes in the row its spec names; a
    select in the first empty row, whatever row its spec names (discord.py 2.7's select keeps
    its `row` in a slot of its own, which the view's row weights never read)."""
    if component["type"] == BUTTON:
        row = spec.row
        if not 0 <= row < ROWS:
            raise ValueError("row cannot be negative or greater than or equal to 5")
        if count >= VIEW_ITEMS:
            raise ValueError("maximum number of children exceeded")
        if widths[row] + 1 > ROW_WIDTH:
            raise ValueError(f"item would not fit at row {row} ({widths[row] + 1} > 5 width)")
        widths[row] += 1
        return row
    if count >= VIEW_ITEMS:
        raise ValueError("maximum number of children exceeded")
    for row, width in enumerate(widths):
        if width == 0:
            widths[row] = ROW_WIDTH
            return row
    raise ValueError("could not find open space for item")


def _row_of(placed: tuple[int, dict[str, Any]]) -> int:
    return placed[0]


def button_payload(spec: ButtonSpec) -> dict[str, Any]:
    """A button's payload as it stands in a row, or beside a section's text (V2)."""
    payload = _component(spec)
    assert payload is not None  # only a select is ever left out
    return payload


def _component(spec: ComponentSpec) -> dict[str, Any] | None:
    """The component's payload, as `TableItem.button(...)` or `TableItem.select(...)` would
    write it (`to_component_dict`); None for a select left out."""
    if not spec.custom_id:
        raise ValueError("an empty custom id matches no template")
    if isinstance(spec, ButtonSpec):
        button: dict[str, Any] = {
            "type": BUTTON,
            "style": STYLES[spec.style].value,
            "disabled": spec.disabled,
        }
        if spec.label:
            button["label"] = spec.label[:LABEL_LIMIT]
        button["custom_id"] = spec.custom_id
        if spec.emoji is not None:
            button["emoji"] = _emoji(spec.emoji)
        return button
    if not spec.options:
        log.warning("select %r left out: it has no options", spec.custom_id)
        return None
    if len(spec.options) > SELECT_OPTIONS:
        log.warning("select %r cut to %s options", spec.custom_id, SELECT_OPTIONS)
    shown = spec.options[:SELECT_OPTIONS]
    if spec.emojis:
        pairs = list(zip(spec.options, spec.emojis, strict=True))[:SELECT_OPTIONS]
        options = [_option(label, value, emoji) for (label, value), emoji in pairs]
    else:
        options = [
            {"label": label[:OPTION_LABEL_LIMIT], "value": value, "default": False}
            for label, value in shown
        ]
    # A pick takes at least one and at most every option (Discord refuses anything else).
    most = max(1, min(spec.max_values, len(options)))
    least = max(0, min(spec.min_values, most))
    select: dict[str, Any] = {
        "type": STRING_SELECT,
        "custom_id": spec.custom_id,
        "min_values": least,
        "max_values": most,
        "disabled": False,
        "required": True,  # discord.ui.Select's default (it means something in modals only)
    }
    if spec.placeholder:
        select["placeholder"] = spec.placeholder[:PLACEHOLDER_LIMIT]
    select["options"] = options
    return select


def _option(label: str, value: str, emoji: str | None) -> dict[str, Any]:
    option: dict[str, Any] = {"label": label[:OPTION_LABEL_LIMIT], "value": value, "default": False}
    if emoji is not None:
        option["emoji"] = _emoji(emoji)
    return option


def _emoji(markup: str) -> dict[str, Any]:
    return dict(_emoji_payload(markup))


# Bounded: the card pictures (55 faces and a back) and the few unicode emojis the bot shows.
@lru_cache(maxsize=256)
def _emoji_payload(markup: str) -> dict[str, Any]:
    """discord.py's own reading of an emoji's markup (`<:name:id>` or a unicode emoji)."""
    return dict(discord.PartialEmoji.from_str(markup).to_dict())


def is_routed(message: discord.Message | None, component_type: object, custom_id: object) -> bool:
    """Whether discord.py hands this click to a `TableItem`: only when the message the click
    comes from holds a component of that type and custom id (the template takes any id), in
    an action row or, in a Components V2 message, nested in its container or beside a
    section's text."""
    if message is None or not isinstance(custom_id, str) or not custom_id:
        return False
    for child in _nested(message.components):
        if getattr(child, "custom_id", None) != custom_id:
            continue
        if getattr(child.type, "value", None) == component_type:
            return True
    return False


def _nested(components: Iterable[Any]) -> Iterator[Any]:
    """Every component, the nested ones too (a row's, a container's, a section's accessory)."""
    for component in components:
        yield component
        yield from _nested(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory
