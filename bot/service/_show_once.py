"""Keeping "show once" true: a seat's view without the cards a rule revealed to it privately.

An engine view shows what the most recent action revealed to the viewer (a peek, a Queen's
look). The service hands that out once, in the clicker's ActResult; any later "My cards" gets
the view with those private reveals face down again. Public reveals (shown to all) stay.
"""

from __future__ import annotations

from dataclasses import is_dataclass, replace
from typing import Any


def without_private_reveals(view: Any, public: Any) -> Any:
    """`view` with every reveal that is not also in the `public` view turned face down.
    Views without `reveals` and `grids` (other games) come back unchanged."""
    reveals = getattr(view, "reveals", None)
    grids = getattr(view, "grids", None)
    if not reveals or grids is None or not is_dataclass(view):
        return view
    if getattr(view, "phase", None) == "over":  # every card is face up at the end
        return view
    shown_to_all = set(getattr(public, "reveals", ()))
    private = [r for r in reveals if r not in shown_to_all]
    if not private:
        return view
    public_slots = {(r.seat, r.slot) for r in shown_to_all}
    hidden = {(r.seat, r.slot) for r in private} - public_slots
    new_grids = tuple(
        tuple(replace(slot, card=None) if (seat, slot.slot) in hidden else slot for slot in grid)
        for seat, grid in enumerate(grids)
    )
    kept = tuple(r for r in reveals if r in shown_to_all)
    return replace(view, grids=new_grids, reveals=kept)  # type: ignore[type-var]
