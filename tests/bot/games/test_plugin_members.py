"""Every plug-in implements every member of the protocol the shared frame calls."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import plugins
from bot.games.plugin import GamePlugin

METHODS = sorted(
    name
    for name, member in vars(GamePlugin).items()
    if not name.startswith("_") and callable(member)
)
# name, seat_layout, action_styles, button_families, accent: read-only attributes of the protocol
ATTRIBUTES = sorted(
    name for name, member in vars(GamePlugin).items() if isinstance(member, property)
)


@pytest.mark.parametrize("plugin", plugins(), ids=lambda p: p.name)
def test_every_protocol_member_is_implemented(plugin: GamePlugin[Any]) -> None:
    assert {"round_end_picture", "action_emoji", "seat_lines"} <= set(METHODS)
    assert {"name", "seat_layout", "action_styles", "button_families", "accent"} == set(ATTRIBUTES)
    missing = [name for name in METHODS if not callable(getattr(plugin, name, None))]
    missing += [name for name in ATTRIBUTES if not hasattr(plugin, name)]
    assert not missing, f"{plugin.name} lacks {missing}"
