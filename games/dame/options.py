"""The table options of Dame de Pique (docs/rules/dame.md decisions marked **option**)."""

from __future__ import annotations

from pydantic import Field

from games.contract import Options


class DameOptions(Options):
    """`target`: the first team to reach it wins (both past it: the higher total; equal totals
    play another hand). `take_onto_team_pack`: the pile may also be taken by laying its top card
    alone onto the team's laid pack of that rank (off: two naturals from hand are needed)."""

    target: int = Field(default=1000, gt=0)
    take_onto_team_pack: bool = False
