"""Tournaments, pure: pairings (Swiss, round robin, single elimination), standings with
tie-breaks, and the event's state machine. No discord, asyncio or I/O: the bot stores and
announces what these functions decide (bot/tournaments.py, storage/tournaments.py).

Not a game (no `GAME`): `games.registry` passes it by, as it does `bench` and `strength`.
See docs/tournaments.md for the rules these modules implement and why.
"""
