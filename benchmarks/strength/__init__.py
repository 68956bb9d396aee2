"""Bot strength scripts: `python -m benchmarks.strength GAME` (numbers, not tests)."""
