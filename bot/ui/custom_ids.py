"""The custom ids under their former path, for the glue's code not yet moved to `bot.custom_ids`.

The ids are a shared leaf (`bot/custom_ids.py`): the renderers and the plug-ins build them
without importing the ui, which sits above them.
"""

from __future__ import annotations

from bot.custom_ids import (
    MAX_LENGTH,
    PREFIX,
    THEN,
    BadCustomId,
    ComponentId,
    Kind,
    Verb,
    moves,
    navigate_id,
    parse,
    pick_id,
    play_id,
    select_id,
    verb_id,
)

__all__ = [
    "MAX_LENGTH",
    "PREFIX",
    "THEN",
    "BadCustomId",
    "ComponentId",
    "Kind",
    "Verb",
    "moves",
    "navigate_id",
    "parse",
    "pick_id",
    "play_id",
    "select_id",
    "verb_id",
]
