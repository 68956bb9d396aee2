"""Dame de Pique's bot players, kept apart from the rules.

`policy` is the simple bot as the service asks for it (`simple`'s heuristics); `strong` is the
strong bot."""
