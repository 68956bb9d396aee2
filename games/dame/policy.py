"""The bot players of Dame de Pique at a table: the strong policy (`games.dame.strong`).

The service looks a game's bots up as `games.<game>.policy.choose_action`; the simple policy
(`games.dame.simple`) stays as the benchmark's player and the yardstick of the strength script
(`python -m games.strength dame`)."""

from __future__ import annotations

from games.dame.strong import choose_action

__all__ = ["choose_action"]
