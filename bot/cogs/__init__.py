"""Shared cogs: every game's command group (`game.py`), leaderboards and stats, settings."""
