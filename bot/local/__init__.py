"""The local table: a Discord-compatible server in this process (REST + gateway, with Discord's
limits) that the real bot connects to when there is no Discord to connect to."""
