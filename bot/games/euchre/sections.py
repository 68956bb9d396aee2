"""Euchre's moves beside what they concern on "My cards" (Components V2 sections).

Each playable card is a section: its picture, a word when it is a trump or a bower, and the
Play button beside it; the dealer's discard the same with Discard. In the first round of
bidding the turned card sits beside "Order it up", and going alone beside what it costs (the
partner sits out); in the second, each suit that may be named shows the cards of the hand it
would make trumps, beside its Call button. Every button is the menu's own (same custom id,
relabelled without the card's name, which the picture beside it shows), so no turn takes one
more click; the rest (Pass, calls alone) stays in the rows, packed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.custom_ids import play_id
from bot.games.euchre.render import sorted_hand, suit_symbol
from bot.games.plugin import TableContext
from bot.i18n import text
from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    ButtonSpec,
    ComponentSpec,
    SectionSpec,
    verb,
)
from bot.render.card_text import NO_CARD, shown
from bot.snapshots import PrivateSnapshot
from games.cards import card
from games.euchre.ranking import EFFECTIVE, SAME_COLOUR
from games.euchre.views import EuchreView

CARD_MOVES = ("play", "discard")


def move_sections(
    private: PrivateSnapshot[EuchreView],
    prefix: str,
    table: TableContext,
    components: list[ComponentSpec],
) -> tuple[list[SectionSpec], list[ComponentSpec]]:
    """The sections of this turn's moves, and the components left in rows (their rows
    packed from 0, in the menu's order)."""
    view = private.view
    if prefix or view is None or not private.legal:
        return [], components
    moves = {play_id(private.table_id, private.round_no or 0, a): a for a in private.legal}
    sections: list[SectionSpec] = []
    left: list[ComponentSpec] = []
    for component in components:
        action = moves.get(component.custom_id) if isinstance(component, ButtonSpec) else None
        line = None if action is None else _line(action, view, private.seat, table)
        if line is None or not isinstance(component, ButtonSpec):
            left.append(component)
            continue
        words, label = line
        sections.append(SectionSpec(words, dataclasses.replace(component, label=label, emoji=None)))
    return sections, _packed(left, moves)


def _line(action: str, view: EuchreView, seat: int, table: TableContext) -> tuple[str, str] | None:
    """The section's text and its button's label for `action`, or None: left in a row."""
    language = table.language
    words = action.split()
    head, alone = words[0], words[-1] == "alone"
    if head in CARD_MOVES and len(words) == 2:
        return _card_words(words[1], view.trump, language), text(language, f"euchre.section.{head}")
    if head == "order":
        if alone:
            partner = table.name((seat + 2) % 4)
            words_ = text(language, "euchre.section.alone", name=partner)
            return words_, text(language, "euchre.section.order_alone")
        turned = text(language, "euchre.turned_line", card=shown(view.turned))
        return turned, text(language, "euchre.section.order")
    if head == "call" and len(words) == 2:
        suit = words[1]
        cards = _would_be_trumps(view.hand, suit)
        return (
            text(language, "euchre.section.call", suit=suit_symbol(suit), cards=cards),
            text(language, "euchre.action.call", suit=suit_symbol(suit)),
        )
    return None  # pass, a call alone: in the rows


def _card_words(name: str, trump: str | None, language: str) -> str:
    """The card's picture, and what it is once trump is known (a bower, a trump)."""
    picture = shown(name)
    if trump is None:
        return picture
    if name.startswith("J") and name[-1] == trump:
        note = "euchre.section.right_bower"
    elif name.startswith("J") and name[-1] == SAME_COLOUR[trump]:
        note = "euchre.section.left_bower"
    elif EFFECTIVE[trump][card(name)] == trump:
        note = "euchre.section.trump"
    else:
        return picture
    return f"{picture} {text(language, note)}"


def _would_be_trumps(hand: Sequence[str], suit: str) -> str:
    """The hand's cards that naming `suit` makes trumps (its bowers first), as pictures."""
    trumps = [n for n in hand if EFFECTIVE[suit][card(n)] == suit]
    if not trumps:
        return NO_CARD
    return " ".join(shown(n) for n in sorted_hand(trumps, suit)[0])


def _packed(components: list[ComponentSpec], moves: dict[str, str]) -> list[ComponentSpec]:
    """The components in rows numbered 0, 1, … in their order: the buttons of one family
    (the calls alone) share rows of five again, a row emptied is gone."""
    packed: list[ComponentSpec] = []
    row, family, filled = -1, "", MAX_BUTTONS_PER_ROW
    for component in components:
        kind = verb(moves.get(component.custom_id, "")) or component.custom_id
        button = isinstance(component, ButtonSpec)
        if not button or kind != family or filled == MAX_BUTTONS_PER_ROW:
            row, filled = row + 1, 0
        family = kind if button else ""
        filled = filled + 1 if button else MAX_BUTTONS_PER_ROW
        packed.append(dataclasses.replace(component, row=row))
    return packed
