"""PostgreSQL migrations: `V<n>__<name>.sql`, the same versions as `storage/migrations`.

Each brings a PostgreSQL database to the same schema as the SQLite migration of its version, in
PostgreSQL's dialect."""
