"""Versioned schema migrations: `V<n>__<name>.sql`, each applied once, in order."""
