"""Dutch's "My cards" moves laid beside what they concern.

The held card stands beside its discard, each slot of the grid beside its swap (or its match, a
Queen's look, a Jack's first step).

The buttons are the menu's own (`menu.py`, `powers.py`, the shared menu): the same custom ids,
so a turn takes the clicks it took in rows; only their labels are shorter, as the line beside
them already shows the card (its emoji) and the slot's number. Drawing, the Dutch call (which
keeps its confirming stage, `calling.py`), selects and the other players' cards stay in rows.
A grid too big to lay every slot beside its move within Discord's 40 components keeps its
slots' moves in rows (the held card's discard still beside it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.custom_ids import THEN, navigate_id, play_id
from bot.games.dutch.render import discard_key, overlay
from bot.games.plugin import ActionLabel, TableContext
from bot.i18n import text
from bot.render.actions import MAX_ROWS, ButtonSpec, ComponentSpec, SectionSpec, verb
from bot.render.card_text import card_emoji, face, shown
from bot.snapshots import PrivateSnapshot
from games.dutch.views import DutchView, SlotView

END = "end"
START = "start"  # the phase before drawing
PEEK = "peek"
COMPONENTS = 40  # in a message, nested ones counted (Discord's limit)
# Besides the sections and the rows: the container, the heading, the hand's picture, the cards
# just seen (a text) and the separator above the rows.
AROUND = 5
SECTION = 3  # a section, its text and its button
LATER = 3  # what "My cards" adds after the menu: Refresh on a row of its own, the coach's hint
# Slots laid beside their moves at most: eight sections and the held card's take 27 of the 40
# components, the rows (the select, Call Dutch…, Refresh) and the rest of the message fit.
MOST_SLOTS = 8
SLOT_MOVES = ("swap", "look", "jack", "match")


def move_sections(
    private: PrivateSnapshot[DutchView],
    prefix: str,
    table: TableContext,
    components: list[ComponentSpec],
) -> tuple[list[SectionSpec], list[ComponentSpec]]:
    """The sections (the held card, then the slots in order) and the components left in rows,
    renumbered so that no row stays empty. `private.reveals`: the cards shown just now."""
    view = private.view
    if prefix or view is None or view.turn != private.seat or not private.legal:
        return [], components
    language = table.language
    buttons = {c.custom_id: c for c in components if isinstance(c, ButtonSpec)}
    sections: list[SectionSpec] = []
    held = _held_section(private, table, buttons)
    if held is not None:
        sections.append(held)
    # the grid as the hand's picture shows it: a card just seen face up
    grid = overlay(view.grids[private.seat], private.seat, private.reveals)
    slots = [
        section
        for slot in grid
        if (section := _slot_section(private, slot, buttons, language)) is not None
    ]
    if len(slots) > MOST_SLOTS:
        slots = []  # too many slots to lay beside their moves: they stay in rows
    left = _without(components, sections + slots)
    if _count(sections + slots, left) > COMPONENTS:
        slots = []  # too many slots to lay beside their moves: they stay in rows
        left = _without(components, sections)
    if _count(sections + slots, left) > COMPONENTS:
        return [], components
    return sections + slots, [_take_pictured(c, private, language) for c in left]


def pictured(
    label: ActionLabel, view: DutchView | None, language: str, *, powers: bool
) -> ActionLabel:
    """`label`, but a discard or a take whose card has a picture (on its button, or beside
    it) leaves the card out of its words: a card is never written as text where it is shown."""

    def words(action: str) -> str:
        if view is not None and action == "discard" and card_emoji(view.held) is not None:
            key = discard_key(view, powers).rpartition(".")[2]
            return text(language, f"dutch.section.{key}")
        if view is not None and action == "take" and card_emoji(view.discard_top) is not None:
            return text(language, "dutch.section.take")
        return label(action)

    return words


def _take_pictured(
    component: ComponentSpec, private: PrivateSnapshot[DutchView], language: str
) -> ComponentSpec:
    """Taking the discard (from the shared menu) shows its card as the button's picture, not
    as words too."""
    take = play_id(private.table_id, private.round_no or 0, "take")
    if isinstance(component, ButtonSpec) and component.custom_id == take and component.emoji:
        return replace(component, label=text(language, "dutch.section.take"))
    return component


def slots_beside(private: PrivateSnapshot[DutchView]) -> bool:
    """Do the grid's slots stand beside their moves (so no line above lists the grid)? On the
    player's turn, past its start, a move of a slot offered, the grid not too big."""
    view = private.view
    if view is None or view.turn != private.seat or view.phase in (PEEK, START):
        return False
    own = [s for s in view.grids[private.seat] if not s.empty]
    return len(own) <= MOST_SLOTS and any(verb(a) in SLOT_MOVES for a in private.legal)


def held_beside(private: PrivateSnapshot[DutchView]) -> bool:
    """Is the held card shown beside its discard (so "My cards" need not say it again)?"""
    view = private.view
    return (
        view is not None
        and view.held is not None
        and view.turn == private.seat
        and "discard" in private.legal
    )


def _held_section(
    private: PrivateSnapshot[DutchView], table: TableContext, buttons: dict[str, ButtonSpec]
) -> SectionSpec | None:
    """The held card beside its discard; a discard that opens a Queen's or a Jack's power says
    so, as the menu's button does."""
    view = private.view
    if view is None or view.held is None or not held_beside(private):
        return None
    table_id, round_no = private.table_id, private.round_no or 0
    powers = bool(table.snapshot.options.get("queen_jack_powers"))
    power = discard_key(view, powers).rpartition(".")[2]  # discard_card, _queen or _jack
    for notation, key in ((f"discard{THEN}{END}", "discard_end"), ("discard", power)):
        button = buttons.get(play_id(table_id, round_no, notation))
        if button is not None:
            label = text(table.language, f"dutch.section.{key}")
            words = text(table.language, "private.held", card=shown(view.held))
            return SectionSpec(words, replace(button, label=label, emoji=None))
    return None


def _slot_section(
    private: PrivateSnapshot[DutchView],
    slot: SlotView,
    buttons: dict[str, ButtonSpec],
    language: str,
) -> SectionSpec | None:
    """The slot beside the first of its moves offered as a button: a swap (ending the turn or
    not), a Queen's look at it, a Jack's first step from it, a match after the discard."""
    if slot.empty:
        return None
    view = private.view
    table_id, round_no = private.table_id, private.round_no or 0
    number = slot.slot
    candidates = [
        (play_id(table_id, round_no, f"swap {number}{THEN}{END}"), "swap_end", True),
        (play_id(table_id, round_no, f"swap {number}"), "swap", True),
        (play_id(table_id, round_no, f"look {private.seat}:{number}"), "look", False),
        (navigate_id(table_id, round_no, f"jack {number}"), "jack", False),
    ]
    if view is not None and view.phase != START:
        # after the turn's discard; before drawing, the draw comes first and matches stay in
        # the rows under it
        candidates.append((play_id(table_id, round_no, f"match {number}"), "match", False))
    for custom_id, key, held_emoji in candidates:
        button = buttons.get(custom_id)
        if button is not None:
            label = text(language, f"dutch.section.{key}")
            words = f"**{number}** {face(slot.card)}"
            # a swap shows the card it puts there; the line already shows the slot's card
            emoji = button.emoji if held_emoji else None
            return SectionSpec(words, replace(button, label=label, emoji=emoji))
    return None


def _without(
    components: Sequence[ComponentSpec], sections: Sequence[SectionSpec]
) -> list[ComponentSpec]:
    """The components whose buttons are not in `sections`, their rows renumbered from 0."""
    moved = {s.button.custom_id for s in sections}
    kept = [c for c in components if not (isinstance(c, ButtonSpec) and c.custom_id in moved)]
    rows = {row: index for index, row in enumerate(sorted({c.row for c in kept}))}
    return [replace(c, row=rows[c.row]) for c in kept]


def _count(sections: Sequence[SectionSpec], left: Sequence[ComponentSpec]) -> int:
    """The components of "My cards" with these sections and rows, counted as Discord does,
    the most the message around them may add included."""
    rows = len({c.row for c in left})
    later = LATER if rows < MAX_ROWS else 1
    return AROUND + SECTION * len(sections) + len(left) + rows + later
