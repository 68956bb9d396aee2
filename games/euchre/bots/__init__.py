"""Euchre's bot players, kept apart from the rules.

`policy` is the simple bot, and the safe move on a timeout; `strong` is a search over the deals
the seat cannot rule out: `inference` weighs them, `memory` follows what the seat saw, `rollout`
and `fast` play them out quickly."""
