"""The words a page shows beside the pictures, in its viewer's language, as the messages say them.

The page draws the table from the frame's data; what it writes (the label of each move, the
recent log, what the table waits for) comes from the game's plug-in, worded by the same code
the table message uses, from the same snapshot: nothing a frame did not already hold. Each card
in those words is its mark (`bot.render.card_text.as_marks`), which the page draws as the
card's picture. The page's own texts (titles, marks, hints) are the `activity.` keys of the
catalogs.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from bot.games import plugin_for
from bot.i18n import catalog
from bot.render.card_text import as_marks
from bot.render.table import table_text
from bot.snapshots import PrivateSnapshot, PublicSnapshot

PAGE_PREFIX = "activity."
LOG_LINES = 6  # the recent log the page shows under the table
_EMPHASIS = re.compile(r"\*\*|__|~~|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")
_ESCAPED = re.compile(r"\\(.)")
_CUSTOM_EMOJI = re.compile(r"<a?:(\w+):\d+>")


def page_texts(language: str) -> dict[str, str]:
    """The page's own texts in `language` (keys without their `activity.` prefix)."""
    return {
        key.removeprefix(PAGE_PREFIX): template
        for key, template in catalog(language).items()
        if key.startswith(PAGE_PREFIX)
    }


@functools.lru_cache(maxsize=16_384)  # a log line recurs in the frames of several changes
def plain_text(text: str) -> str:
    """A message line as the page writes it: no markdown emphasis or escapes, no emoji ids."""
    text = _CUSTOM_EMOJI.sub(r"\1", text)
    return _ESCAPED.sub(r"\1", _EMPHASIS.sub("", text)).strip()


def table_words(public: PublicSnapshot, language: str) -> dict[str, Any]:
    """What the table says to everyone: what it waits for, and the recent log."""
    plugin = plugin_for(public.game)
    table = table_text(public, language)
    status = ""
    with as_marks():
        if public.view is not None:
            status = plugin.status_line(public.view, table)
        lines = plugin.recent_log_lines(public.log, table, LOG_LINES)
    return {"status": plain_text(status), "lines": [plain_text(line) for line in lines]}


def move_labels(
    public: PublicSnapshot, private: PrivateSnapshot[Any], language: str
) -> dict[str, str]:
    """Each legal move of the viewer, labelled as its button in the messages."""
    if private.view is None:
        return {}
    with as_marks():
        label = plugin_for(public.game).action_labeler(private.view, table_text(public, language))
        return {action: plain_text(label(action)) for action in private.legal}
