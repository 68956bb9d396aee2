"""The one dynamic item every component of the bot is: a button or a select whose custom id
is its whole meaning (`ct:<table_id>:<round_no>:<action>`), parsed and distrusted on click.

Its template matches *any* custom id, so a forged or outdated id still reaches the table
controller, which answers it with one short sentence instead of letting the click time out.
A single class (not one per component type) because discord.py offers every click to every
dynamic item class whose template matches.
"""

from __future__ import annotations

import logging
import re
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


class TableItem(DynamicItem[Item[Any]], template=r"(?s)(?P<custom_id>.+)"):
    # (?s): an id with a newline is one too (forged); it must reach the controller's answer.
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
        bot: CardTableBot = interaction.client  # type: ignore[assignment]
        await bot.tables.on_component(interaction, self.custom_id, values)


def build_view(components: tuple[ComponentSpec, ...] | list[ComponentSpec]) -> discord.ui.View:
    """A persistent view (no timeout) of dynamic items from rendered component specs. Never
    beyond Discord's limits, never an empty select (Discord refuses the whole message, and the
    click it answers is lost): a component that does not fit is left out, and logged."""
    view = discord.ui.View(timeout=None)
    for spec in components:
        try:
            item = _item(spec)
            if item is not None:
                view.add_item(item)
        except ValueError as error:  # a row past the fifth, a full row, a full view
            log.warning("component %r left out: %s", spec.custom_id, error)
    return view


def _item(spec: ComponentSpec) -> TableItem | None:
    if isinstance(spec, ButtonSpec):
        return TableItem.button(
            spec.custom_id, spec.label, STYLES[spec.style], spec.row, spec.emoji
        )
    if not spec.options:
        log.warning("select %r left out: it has no options", spec.custom_id)
        return None
    if len(spec.options) > SELECT_OPTIONS:
        log.warning("select %r cut to %s options", spec.custom_id, SELECT_OPTIONS)
    emojis = spec.emojis or (None,) * len(spec.options)
    options = [
        discord.SelectOption(label=label[:OPTION_LABEL_LIMIT], value=value, emoji=emoji)
        for (label, value), emoji in list(zip(spec.options, emojis, strict=True))[:SELECT_OPTIONS]
    ]
    # A pick takes at least one and at most every option (Discord refuses anything else).
    most = max(1, min(spec.max_values, len(options)))
    least = max(0, min(spec.min_values, most))
    return TableItem.select(
        spec.custom_id, spec.placeholder, options, spec.row, min_values=least, max_values=most
    )


def is_routed(message: discord.Message | None, component_type: object, custom_id: object) -> bool:
    """Whether discord.py hands this click to a `TableItem`: only when the message the click
    comes from holds a component of that type and custom id (the template takes any id)."""
    if message is None or not isinstance(custom_id, str) or not custom_id:
        return False
    for row in message.components:
        for child in getattr(row, "children", (row,)):
            if getattr(child, "custom_id", None) != custom_id:
                continue
            if getattr(child.type, "value", None) == component_type:
                return True
    return False
