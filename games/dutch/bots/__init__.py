"""Dutch's bot players, apart from the rules: `policy` (the simple bot, and the safe move on a
timeout), `strong` (the strong bot). Both read what a seat knows from `games.dutch.knowledge`."""
