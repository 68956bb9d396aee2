"""The toy game's bot player (`policy`), where the service looks for a game's bot players."""
