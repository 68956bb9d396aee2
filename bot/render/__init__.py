"""Renderers: service snapshots (which hold engine views, never state) to embeds and views.
Nothing here decides a rule; nothing hidden can reach a message that a view does not hold."""
