"""Dutch's "My cards" menu while holding a drawn card.

It is shown when the turn does not end with the discard (house rules: matching discards, or
Dutch called at the end of one's turn).

There, a turn is draw, swap (or discard), then End the turn, Match or Call Dutch: three clicks
for the usual turn, which ends at once. So the swaps and the discard are offered as buttons
that also end the turn, one click (`p=swap 2;end`: the controller plays both moves, each
checked, and leaves `end` out if the turn already ended), and the same moves without the end
are in a select below, for a player who means to match or call Dutch after them. A discard that
opens a Queen's or Jack's power is its own button: the turn goes on with the power, and a
button's moves are played whole or not at all. A 9's power
is a row of buttons, the drawn 9 and each own card (`powers.py`: each opens the row of the other
players' cards); every other move (a 7's power) is the shared action menu's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.custom_ids import THEN, play_id, select_id
from bot.games.dutch import powers
from bot.games.plugin import TableContext
from bot.i18n import text
from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    ButtonSpec,
    ComponentSpec,
    MenuText,
    SelectSpec,
    action_menu,
    verb,
)
from bot.snapshots import PrivateSnapshot
from games.cards import JOKER
from games.dutch.views import DutchView

DRAWN = "drawn"
END = "end"
PLACED = ("swap", "discard")  # the moves that place the held card
KEEP_OPEN = "placed"  # the custom id of the select of those moves without the end


def turn_goes_on(options: Mapping[str, object]) -> bool:
    """Does a discard leave choices before the turn ends (matching, a Dutch call at the end)?"""
    return bool(options.get("matching_discards")) or options.get("dutch_call") == "end_of_turn"


def opens_a_power(view: DutchView, options: Mapping[str, object]) -> bool:
    """Does discarding the held card open its power (a Queen or Jack drawn from the stock, a
    joker being no Jack)? Then the turn goes on with the power, not to its end."""
    rank = view.held[:-1] if view.held and view.held != JOKER else ""
    return (
        bool(options.get("queen_jack_powers")) and view.held_from == "stock" and rank in ("Q", "J")
    )


def components(
    private: PrivateSnapshot[DutchView], prefix: str, table: TableContext, labels: MenuText
) -> list[ComponentSpec] | None:
    """The held card's moves at the top of "My cards" (None: the shared action menu)."""
    view = private.view
    if prefix or view is None or view.phase != DRAWN or not turn_goes_on(table.snapshot.options):
        return None
    placed = [a for a in private.legal if verb(a) in PLACED]
    others = [a for a in private.legal if verb(a) not in PLACED]
    if not placed:
        return None
    language = table.language
    table_id, round_no = private.table_id, private.round_no or 0
    specs: list[ComponentSpec] = []
    row = 0
    for start in range(0, len(placed), MAX_BUTTONS_PER_ROW):
        for action in placed[start : start + MAX_BUTTONS_PER_ROW]:
            label = text(language, "dutch.menu.then_end", action=labels.action_label(action))
            style = "primary" if verb(action) == "discard" else "secondary"
            custom_id = play_id(table_id, round_no, f"{action}{THEN}{END}")
            if verb(action) == "discard" and opens_a_power(view, table.snapshot.options):
                # the turn goes on with the power: a button's moves are played whole or not
                label, custom_id = labels.action_label(action), play_id(table_id, round_no, action)
            specs.append(ButtonSpec(custom_id, label, style, row, labels.action_emoji(action)))
        row += 1
    options = tuple((labels.action_label(a), a) for a in placed)
    placeholder = text(language, "dutch.menu.keep_turn")
    specs.append(SelectSpec(select_id(table_id, round_no, KEEP_OPEN), placeholder, options, row))
    row += 1
    nines = [a for a in others if verb(a) == powers.NINE]
    steps = powers.step_buttons(private, nines, row, language) if nines else None
    if steps is not None:  # the 9's first piece as buttons, the rest as the shared menu's
        specs += steps
        row += 1
        others = [a for a in others if verb(a) != powers.NINE]
    if others:
        shown = action_menu(others, "", table_id=table_id, round_no=round_no, labels=labels)
        specs += [replace(s, row=s.row + row) for s in shown]
    if max(s.row for s in specs) >= MAX_ROWS:
        return None  # more than a message holds: the shared menu's steps
    return specs
