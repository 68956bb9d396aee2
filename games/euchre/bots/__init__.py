"""Euchre's bot players, apart from the rules: `policy` (the simple bot, and the safe move on a
timeout), `strong` (a search over the deals the seat cannot rule out: `inference` weighs them,
`memory` follows what the seat saw, `rollout` and `fast` play them out quickly)."""
