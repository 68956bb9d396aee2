"""Every plug-in implements every member of the protocol the shared frame calls."""

from __future__ import annotations

import pytest

from bot.games import plugins
from bot.games.plugin import GamePlugin

MEMBERS = sorted(
    name
    for name in vars(GamePlugin)
    if not name.startswith("_") and callable(getattr(GamePlugin, name, None))
)


@pytest.mark.parametrize("plugin", plugins(), ids=lambda p: p.name)
def test_every_protocol_member_is_implemented(plugin: GamePlugin) -> None:
    assert {"round_end_picture", "action_emoji", "seat_lines"} <= set(MEMBERS)
    missing = [name for name in MEMBERS if not callable(getattr(plugin, name, None))]
    assert not missing, f"{plugin.name} lacks {missing}"
