"""The local table: a Discord-compatible server in this process.

It serves REST and the gateway, with Discord's limits; the real bot connects to it when there is
no Discord to connect to."""
