"""Dutch's bot players, kept apart from the rules.

`policy` is the simple bot, and the safe move on a timeout; `strong` is the strong bot. Both
read what a seat knows from `games.dutch.knowledge`."""
