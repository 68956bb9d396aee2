"""One cog per concern: the Dutch tables, leaderboards and stats, guild settings."""
