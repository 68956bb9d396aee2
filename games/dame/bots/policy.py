"""The bot players of Dame de Pique at a table, by the convention every game follows.

This module is the `simple` level (`games.dame.bots.simple`), `games.dame.bots.strong` the
`strong` one (the tables' default; `bots: simple | strong` at the table's start and in
`/settings`). The strength script (`python -m benchmarks.strength dame`) measures one against
the other."""

from __future__ import annotations

from games.dame.bots.simple import choose_action

__all__ = ["choose_action"]
