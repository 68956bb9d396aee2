"""The SQLite store: tables, action log, rounds, match totals, leaderboards (no discord here)."""
