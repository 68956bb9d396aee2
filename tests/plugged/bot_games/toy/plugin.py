"""The toy game's plug-in: its cards in "My cards" and the draw button's colour; the rest is
the common behaviour of `BasePlugin` and the texts in i18n/."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.games.base import BasePlugin
from bot.games.plugin import TableContext
from bot.i18n import text
from bot.render.card_text import shown
from bot.snapshots import PrivateSnapshot, Reveal
from tests.games.toygame import ToyView


class ToyPlugin(BasePlugin[ToyView]):
    name = "toy"
    action_styles: ClassVar[Mapping[str, str]] = {"draw": "primary"}

    def private_lines(
        self, private: PrivateSnapshot[ToyView], table: TableContext, reveals: Sequence[Reveal]
    ) -> list[str]:
        cards = " ".join(shown(card) for card in private.round_view.own)
        return [text(table.language, "toy.hand", cards=cards or "—")]
