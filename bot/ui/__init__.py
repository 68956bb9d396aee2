"""Buttons, selects and views: every component is a dynamic item whose custom id carries its
meaning (`ct:<table_id>:<round_no>:<action>`), so it still works after a restart."""
