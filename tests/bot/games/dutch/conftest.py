"""The end-to-end fixtures (the bot under test against the fake Discord, no ERROR logged)."""

from tests.bot.e2e.conftest import eight_players, harness, no_errors_logged

__all__ = ["eight_players", "harness", "no_errors_logged"]
