"""Engine benchmarks: `python -m games.bench dutch|euchre|dame` (one module per game)."""
