"""Card-game engines: pure, synchronous, deterministic. See games/README.md for the contract."""
