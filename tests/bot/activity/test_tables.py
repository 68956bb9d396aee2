"""The frames of a table's open pages, built at once after a change: the table's part once per
language, shared; each seated viewer's own part their own."""

from __future__ import annotations

from bot.activity.tables import ActivityTables
from tests.bot.activity.conftest import ActivityRig, as_read
from tests.bot.activity.test_server import open_table


async def test_the_pages_of_one_language_share_the_tables_part_of_their_frames(
    rig: ActivityRig,
) -> None:
    table_id = await open_table(rig, "dame", ("alice", "bob", "carol", "dave"))
    alice, bob, carol, erin = (rig.player(n).user_id for n in ("alice", "bob", "carol", "erin"))
    tables = ActivityTables(rig.service)
    built = tables.frames_now(table_id, [(alice, "en"), (bob, "en"), (carol, "fr"), (erin, "en")])
    mine, theirs, french, watching = (
        built[alice, "en"],
        built[bob, "en"],
        built[carol, "fr"],
        built[erin, "en"],
    )
    assert mine is not None and theirs is not None and french is not None
    assert watching is not None
    assert mine["table"] is theirs["table"] is watching["table"]  # built once for English
    assert french["table"] is not mine["table"]
    assert french["table"]["words"]["lines"] != mine["table"]["words"]["lines"]
    assert mine["me"]["seat"] != theirs["me"]["seat"] and watching["me"] is None
    # as built one by one
    assert as_read(mine) == as_read(await tables.current_frame(table_id, alice, "en"))
    assert as_read(french) == as_read(await tables.current_frame(table_id, carol, "fr"))
