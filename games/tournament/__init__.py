"""Tournaments, pure: pairings, standings and the event's state machine.

Pairings are Swiss, round robin or single elimination; standings come with tie-breaks. No
discord, asyncio or I/O: the bot stores and announces what these functions decide
(bot/tournaments.py, storage/tournaments.py).

Not a game (no `GAME`): `games.registry` passes it by, as it does `bench` and `strength`.
See docs/tournaments.md for the rules these modules implement and why.
"""
