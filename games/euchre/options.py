"""Euchre table settings (docs/rules/euchre.md).

Every rule decision is a field; presets are values."""

from __future__ import annotations

from typing import Literal

from games.contract import Options


class EuchreOptions(Options):
    stick_the_dealer: bool = True  # the dealer may not pass after three passes in round 2
    dealer_discard: Literal["choose", "auto"] = "choose"  # auto: his lowest non-trump card
    farmers_hand: bool = False  # a dealt hand with 4+ nines/tens is redealt by the same dealer
    target: int = 10


PRESETS: dict[str, EuchreOptions] = {
    "standard": EuchreOptions(),
    # The seed's site: the dealer's discard is automatic.
    "cards4net": EuchreOptions(dealer_discard="auto"),
    # Two common table variants: weak hands thrown in, and four passes redealt.
    "farmers": EuchreOptions(farmers_hand=True),
    "no_stick": EuchreOptions(stick_the_dealer=False),
}
