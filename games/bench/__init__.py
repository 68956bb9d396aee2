"""Engine benchmarks: `python -m games.bench GAME` (one module per game, named after it)."""
