"""Dutch's "My cards" menu for a Queen's or a Jack's power: the cards as buttons.

The shared menu puts a Queen's sixteen looks in a select (open, choose: two clicks) and a Jack's
swaps in two selects (own card, then the other card: four clicks). Here each card is a button,
one row per player, so a Queen's look is one click and a Jack's swap two: first a row of "Your
card N" buttons (each opens the next step, `n=jack N`), then the other players' cards, a row
each, every button the whole swap (`p=jack 2 1:3`). A card the player may know shows its
picture, any other the card back. When the rows do not fit a message (more players than rows, a
row past five cards with penalty cards), the shared menu's selects stay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    ButtonSpec,
    ComponentSpec,
    MenuText,
    under,
    verb,
)
from bot.render.cards import card_emoji
from bot.service.snapshots import PrivateSnapshot
from bot.ui.custom_ids import navigate_id, play_id
from games.dutch.views import DutchView

POWER = "power"
LOOK = "look"
JACK = "jack"


def components(
    private: PrivateSnapshot, prefix: str, labels: MenuText
) -> list[ComponentSpec] | None:
    """The power's buttons at `prefix` ("" or `jack N`), or None: the shared menu's selects."""
    view: DutchView | None = private.view
    if view is None or view.phase != POWER:
        return None
    table_id, round_no = private.table_id, private.round_no or 0
    legal = list(private.legal)
    if prefix:
        words = prefix.split()
        if len(words) != 2 or words[0] != JACK:
            return None
        targets = [a for a in under(legal, prefix) if len(a.split()) == 3]
        rows = _by_seat(targets, lambda a: a.split()[2])
        back = ButtonSpec(navigate_id(table_id, round_no, ""), labels.back, "secondary")
        return _laid_out([], rows, [back], table_id, round_no, labels, view)
    singles = [a for a in legal if " " not in a]  # skip
    looks = [a for a in legal if verb(a) == LOOK]
    swaps = [a for a in legal if verb(a) == JACK]
    if len(singles) + len(looks) + len(swaps) != len(legal) or bool(looks) == bool(swaps):
        return None  # something this layout does not know: the shared menu
    if looks:
        rows = _by_seat(looks, lambda a: a.split()[1])
        return _laid_out(singles, rows, [], table_id, round_no, labels, view)
    own: list[str] = []
    for action in swaps:
        slot = action.split()[1]
        if slot not in own:
            own.append(slot)
    if len(own) > MAX_BUTTONS_PER_ROW:
        return None
    specs = _singles(singles, table_id, round_no, labels)
    row = 1 if specs else 0
    for slot in own:
        label = labels.piece_label(JACK, slot)
        emoji = _emoji(view, view.viewer, slot)
        step = navigate_id(table_id, round_no, f"{JACK} {slot}")
        specs.append(ButtonSpec(step, label, "primary", row, emoji))
    return specs


def _by_seat(actions: Sequence[str], target: Callable[[str], str]) -> list[list[str]]:
    """The actions grouped by the seat of their target card (`1:3`), in the engine's order."""
    rows: dict[str, list[str]] = {}
    for action in actions:
        seat = target(action).partition(":")[0]
        rows.setdefault(seat, []).append(action)
    return list(rows.values())


def _singles(
    singles: Sequence[str], table_id: int, round_no: int, labels: MenuText
) -> list[ComponentSpec]:
    return [
        ButtonSpec(play_id(table_id, round_no, a), labels.action_label(a), "secondary", 0)
        for a in singles
    ]


def _laid_out(
    singles: Sequence[str],
    rows: Sequence[Sequence[str]],
    last: Sequence[ButtonSpec],
    table_id: int,
    round_no: int,
    labels: MenuText,
    view: DutchView,
) -> list[ComponentSpec] | None:
    """The single moves on a row, then a row of buttons per seat, then `last` on a row; None
    when that is more than a message holds."""
    used = (1 if singles else 0) + len(rows) + (1 if last else 0)
    if (
        not rows
        or used > MAX_ROWS
        or len(singles) > MAX_BUTTONS_PER_ROW
        or any(len(r) > MAX_BUTTONS_PER_ROW for r in rows)
    ):
        return None
    specs = _singles(singles, table_id, round_no, labels)
    row = 1 if singles else 0
    for actions in rows:
        for action in actions:
            seat, _, slot = action.split()[-1].partition(":")
            emoji = _emoji(view, int(seat) if seat.isdigit() else None, slot)
            label = labels.action_label(action)
            specs.append(
                ButtonSpec(play_id(table_id, round_no, action), label, "secondary", row, emoji)
            )
        row += 1
    specs += [ButtonSpec(b.custom_id, b.label, b.style, row, b.emoji) for b in last]
    return specs


def _emoji(view: DutchView, seat: int | None, slot: str) -> str | None:
    """The picture of the card at `seat`'s `slot`: its face if the viewer may know it now, else
    the card back (None where the bot has no card pictures)."""
    if seat is None or not 0 <= seat < len(view.grids):
        return None
    known = next((s.card for s in view.grids[seat] if str(s.slot) == slot), None)
    return card_emoji(known)
