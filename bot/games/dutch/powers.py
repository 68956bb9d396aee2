"""Dutch's "My cards" menu for a Queen's or a Jack's power: the cards as buttons.

The shared menu puts a Queen's sixteen looks in a select (open, choose: two clicks) and a Jack's
swaps in two selects (own card, then the other card: four clicks). Here each card is a button,
one row per player, so a Queen's look is one click and a Jack's swap two: first a row of "Swap
your card N…" buttons (each opens the next step, `n=jack N`), then the other players' cards, a row
each, every button the whole swap (`p=jack 2 1:3`). A card the player may know shows its
picture, any other the card back. When the rows do not fit a message (more players than rows, a
row past five cards with penalty cards), the shared menu's selects stay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.custom_ids import navigate_id, play_id
from bot.i18n import text
from bot.render.actions import (
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    ButtonSpec,
    ComponentSpec,
    MenuText,
    under,
    verb,
)
from bot.render.card_text import card_emoji
from bot.snapshots import PrivateSnapshot
from games.dutch.views import DutchView

POWER = "power"
LOOK = "look"
JACK = "jack"
NINE = "nine"
SWAPS = (JACK, NINE)  # the powers that swap two cards: own card (or the drawn 9), other card
DRAWN = "drawn"


def components(
    private: PrivateSnapshot[DutchView], prefix: str, labels: MenuText, language: str
) -> list[ComponentSpec] | None:
    """The power's buttons at `prefix` ("" or `jack N`), or None: the shared menu's selects."""
    view = private.view
    if view is None:
        return None
    if prefix:
        return stage(private, prefix, labels)
    if view.phase != POWER:
        return None
    table_id, round_no = private.table_id, private.round_no or 0
    legal = list(private.legal)
    singles = [a for a in legal if " " not in a]  # skip
    looks = [a for a in legal if verb(a) == LOOK]
    swaps = [a for a in legal if verb(a) == JACK]
    if len(singles) + len(looks) + len(swaps) != len(legal) or bool(looks) == bool(swaps):
        return None  # something this layout does not know: the shared menu
    if looks:
        rows = _by_seat(looks, lambda a: a.split()[1])
        return _laid_out(singles, rows, [], table_id, round_no, labels, view)
    specs = _singles(singles, table_id, round_no, labels)
    steps = step_buttons(private, swaps, 1 if specs else 0, language)
    return None if steps is None else specs + steps


def step_buttons(
    private: PrivateSnapshot[DutchView], swaps: Sequence[str], row: int, language: str
) -> list[ComponentSpec] | None:
    """A row of the first pieces of a Jack's or a 9's swaps (`jack 2 1:3`: "Swap your card 2…"; a 9
    also "Give the 9…"), each opening the step of the other card (`n=jack 2`); None past five."""
    view = private.view
    pieces: list[str] = []
    for action in swaps:
        piece = " ".join(action.split()[:2])
        if piece not in pieces:
            pieces.append(piece)
    if view is None or not pieces or len(pieces) > MAX_BUTTONS_PER_ROW:
        return None
    table_id, round_no = private.table_id, private.round_no or 0
    specs: list[ComponentSpec] = []
    for piece in pieces:
        own = piece.split()[1]
        label = text(
            language, "dutch.menu.swap_drawn" if own == DRAWN else "dutch.menu.swap_own", slot=own
        )
        emoji = card_emoji(view.held) if own == DRAWN else _emoji(view, view.viewer, own)
        step = navigate_id(table_id, round_no, piece)
        specs.append(ButtonSpec(step, label, "primary", row, emoji))
    return specs


def stage(
    private: PrivateSnapshot[DutchView], prefix: str, labels: MenuText
) -> list[ComponentSpec] | None:
    """The other card of a Jack's or a 9's swap (`jack 2`, `nine drawn`): a row of buttons per
    player, each the whole swap, and Back; None (the shared select) when they do not fit."""
    view = private.view
    words = prefix.split()
    if view is None or len(words) != 2 or words[0] not in SWAPS:
        return None
    table_id, round_no = private.table_id, private.round_no or 0
    targets = [a for a in under(private.legal, prefix) if len(a.split()) == 3]
    rows = _by_seat(targets, lambda a: a.split()[2])
    back = ButtonSpec(navigate_id(table_id, round_no, ""), labels.back, "secondary")
    return _laid_out([], rows, [back], table_id, round_no, labels, view)


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
