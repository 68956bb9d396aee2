"""PostgreSQL migrations: `V<n>__<name>.sql`, the same versions as `storage/migrations` (the
SQLite ones), each bringing a PostgreSQL database to the same schema in its dialect."""
