"""Engine benchmarks: `python -m benchmarks.games GAME` (one module per game, named after it)."""
