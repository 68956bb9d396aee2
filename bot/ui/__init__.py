"""Buttons, selects and views, each a dynamic item that still works after a restart.

Every component's custom id carries its meaning (`ct:<table_id>:<round_no>:<action>`)."""
