"""The end-to-end fixtures (the bot under test against the fake Discord, no ERROR logged)."""

from tests.bot.e2e.conftest import harness, no_errors_logged

__all__ = ["harness", "no_errors_logged"]
