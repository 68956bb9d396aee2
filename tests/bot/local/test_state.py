"""The local Discord's state survives a restart: channels, messages, commands, languages, the
Activity's access tokens and its running instances."""

from __future__ import annotations

from pathlib import Path

from bot.local.records import EPHEMERAL
from bot.local.server import LocalDiscord
from bot.local.state import StateFile, state_path


def test_the_state_file_sits_next_to_the_database() -> None:
    assert state_path(Path("data/cardtable.sqlite3")) == Path("data/cardtable.local.json")


def test_a_restarted_server_holds_what_the_previous_one_saved(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    before = LocalDiscord()
    message = before.new_message(before.channel_id, {"content": "the table"})
    thread_id = before.new_id()
    before.channels[thread_id] = {"id": str(thread_id), "type": 11, "name": "table 1"}
    before.commands[before.guild_id] = [{"name": "ping"}]
    StateFile(path, before, {"alice": "fr"}).save()

    after = LocalDiscord()
    locales: dict[str, str] = {}
    StateFile(path, after, locales).load()
    assert after.message(int(message["id"]))["content"] == "the table"
    assert after.channels[thread_id]["name"] == "table 1"
    assert after.commands[after.guild_id] == [{"name": "ping"}]
    assert locales == {"alice": "fr"}
    assert after.new_id() > thread_id  # new messages never reuse a saved id
    assert after.guild_id == before.guild_id and after.channel_id == before.channel_id


def test_an_activitys_access_token_still_names_its_user_after_a_restart(tmp_path: Path) -> None:
    """As with Discord, a restarted bot does not sign an open Activity's page out: the page
    reconnects with the token it has."""
    path = tmp_path / "state.json"
    before = LocalDiscord(user_names=("alice", "bob"))
    bob = before.users["bob"]
    before.oauth.keep("bobs-token", bob)
    StateFile(path, before, {}).save()
    after = LocalDiscord(user_names=("alice", "bob"))
    StateFile(path, after, {}).load()
    kept = after.oauth.user_of("bobs-token")
    assert kept is not None and kept.id == bob.id and kept.name == "bob"
    assert after.oauth.user_of("made-up") is None


def test_a_running_activity_instance_still_answers_after_a_restart(tmp_path: Path) -> None:
    """An open Activity's page reconnects to a restarted bot naming its instance: Discord
    still runs it, with the same users, in the same channel."""
    path = tmp_path / "state.json"
    before = LocalDiscord(user_names=("alice", "bob"))
    alice, bob = before.users["alice"], before.users["bob"]
    started = before.activities.launch(alice, before.channel_id)
    before.activities.launch(bob, before.channel_id)
    StateFile(path, before, {}).save()
    after = LocalDiscord(user_names=("alice", "bob"))
    StateFile(path, after, {}).load()
    kept = after.activities.instances[started.instance_id]
    assert kept.channel_id == before.channel_id and kept.users == [alice.id, bob.id]
    # a later launch in that channel joins the same instance rather than starting another
    assert after.activities.launch(bob, before.channel_id).instance_id == started.instance_id


def test_a_damaged_state_file_is_set_aside_and_the_table_starts_empty(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("{not json", encoding="utf-8")
    server = LocalDiscord()
    StateFile(path, server, {}).load()
    assert server.messages == {}
    assert not path.exists() and (tmp_path / "state.damaged.json").exists()


def test_expired_ephemeral_messages_are_not_kept(tmp_path: Path) -> None:
    """Nobody sees an old ephemeral message again, nor may the bot edit it: the file drops
    it, so it does not grow with every private answer of every past game."""
    server = LocalDiscord()
    public = server.new_message(server.channel_id, {"content": "the table"})
    private = server.new_message(server.channel_id, {"content": "your cards"}, flags=EPHEMERAL)
    server.token_lifetime = -1.0  # every ephemeral message is past its token's lifetime
    StateFile(tmp_path / "state.json", server, {}).save()
    after = LocalDiscord()
    StateFile(tmp_path / "state.json", after, {}).load()
    assert int(public["id"]) in after.messages and int(private["id"]) not in after.messages


def test_the_files_messages_carry_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    before = LocalDiscord()
    data = {"attachments": [{"id": 0, "filename": "round-1.png"}], "files": {"round-1.png": b"P"}}
    message = before.new_message(before.channel_id, data)
    before.files["/attachments/1/dropped/old.png"] = b"no message carries it"
    StateFile(path, before, {}).save()

    after = LocalDiscord()
    StateFile(path, after, {}).load()
    assert after.files == {message["attachments"][0]["url"]: b"P"}
