"""Bot strength scripts: `python -m games.strength GAME` (numbers, not tests)."""
