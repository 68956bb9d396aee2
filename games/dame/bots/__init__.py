"""Dame de Pique's bot players, apart from the rules: `policy` (the simple bot as the service
asks for it: `simple`'s heuristics), `strong` (the strong bot)."""
