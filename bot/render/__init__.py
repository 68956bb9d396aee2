"""Renderers: service snapshots to embeds and views.

Snapshots hold engine views, never state. Nothing here decides a rule; nothing hidden can reach
a message that a view does not hold."""
