"""Discord's JSON objects as the local server sends them.

They are the guild, channels, threads, messages, the READY event, and the INTERACTION_CREATE of
a slash command or a component."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from bot.local.records import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    MEMBER_PERMISSIONS,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    LocalInteraction,
    LocalUser,
    now_iso,
)

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10


def text_channel(guild_id: int, channel_id: int, name: str, position: int) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": TEXT_CHANNEL,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def thread(
    guild_id: int, parent_id: int, thread_id: int, owner_id: int, payload: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        "id": str(thread_id),
        "type": PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": payload.get("name", "thread"),
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": payload.get("auto_archive_duration", 1440),
            "archive_timestamp": now_iso(),
            "locked": False,
        },
    }


def guild(
    guild_id: int,
    owner: LocalUser,
    members: list[LocalUser],
    channels: Iterable[dict[str, Any]],
    *,
    name: str = "Card Club",
) -> dict[str, Any]:
    """A GUILD_CREATE: the guild, its @everyone role, channels, threads and members."""
    everyone = {
        "id": str(guild_id),
        "name": "@everyone",
        "permissions": str(MEMBER_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    all_channels = list(channels)
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "owner_id": str(owner.id),
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "features": [],
        "channels": [dict(c) for c in all_channels if c["type"] == TEXT_CHANNEL],
        "threads": [dict(c) for c in all_channels if c["type"] == PUBLIC_THREAD],
        "members": [m.member_payload() for m in members],
        "member_count": len(members),
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "large": False,
        "unavailable": False,
        "preferred_locale": "en-US",
        "joined_at": "2024-01-01T00:00:00+00:00",
        "premium_tier": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "afk_timeout": 300,
    }


def ready(
    bot_user: LocalUser,
    guild_ids: Iterable[int],
    session_id: str,
    gateway_url: str,
    *,
    shard: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """READY: the guilds (of the connection's shard) are listed unavailable, each followed by
    its GUILD_CREATE; `shard` is echoed as Discord does for a sharded connection."""
    event: dict[str, Any] = {
        "v": 10,
        "user": {**bot_user.user_payload(), "verified": True, "mfa_enabled": False},
        "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guild_ids],
        "session_id": session_id,
        "resume_gateway_url": gateway_url,
        "application": {"id": str(bot_user.id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
    }
    if shard is not None:
        event["shard"] = list(shard)
    return event


def message(
    message_id: int,
    channel_id: int,
    guild_id: int,
    author: LocalUser,
    data: Mapping[str, Any],
    *,
    flags: int = 0,
    interaction: LocalInteraction | None = None,
    webhook: bool = False,
    kept: dict[str, bytes] | None = None,
) -> dict[str, Any]:
    """A message as Discord returns it, from the content the client sent (its files go to
    `kept`, as in `apply_message_data`)."""
    created: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "guild_id": str(guild_id),
        "type": 0 if interaction is None or interaction.kind != "command" else 20,
        "author": author.user_payload(),
        "content": "",
        "embeds": [],
        "components": [],
        "attachments": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "flags": flags,
    }
    if webhook:
        created["webhook_id"] = str(author.id)
        created["application_id"] = str(author.id)
    if interaction is not None:
        created["interaction_metadata"] = {
            "id": str(interaction.id),
            "type": 2 if interaction.kind == "command" else 3,
            "user": interaction.user.user_payload(),
            "authorizing_integration_owners": {"0": str(guild_id)},
        }
    apply_message_data(created, data, kept)
    return created


def attachment_path(message_id: str, content: bytes, filename: str) -> str:
    """Where the page reads an uploaded file: named by its content, so a new picture under the
    same file name is a new address (no page shows a stale one from its cache)."""
    return f"/attachments/{message_id}/{hashlib.sha256(content).hexdigest()[:16]}/{filename}"


def _attachment(sent: Mapping[str, Any], message_id: str, files: Mapping[str, bytes]) -> Any:
    """An attachment as Discord returns it: a kept one as it was, a new upload described."""
    if "size" in sent:
        return dict(sent)
    filename = str(sent.get("filename", "file"))
    content = files.get(filename, b"")
    path = attachment_path(message_id, content, filename)
    return {
        "id": f"{message_id}{sent.get('id', 0)}",
        "filename": filename,
        "size": len(content),
        "url": path,
        "proxy_url": path,
        "content_type": "image/png" if filename.endswith(".png") else "application/octet-stream",
    }


def with_string_ids(node: Any) -> Any:
    """Components as Discord returns them: an emoji's id is a string, whatever number the client
    sent (a page's JavaScript cannot hold a 64-bit id as a number: it would round it)."""
    if isinstance(node, list):
        return [with_string_ids(item) for item in node]
    if not isinstance(node, dict):
        return node
    copied = {key: with_string_ids(value) for key, value in node.items()}
    emoji = copied.get("emoji")
    if isinstance(emoji, dict) and emoji.get("id") is not None:
        copied["emoji"] = {**emoji, "id": str(emoji["id"])}
    return copied


def apply_message_data(
    target: dict[str, Any],
    data: Mapping[str, Any] | None,
    kept: dict[str, bytes] | None = None,
) -> None:
    """Edit a stored message with what the client sent (only the keys it sent change). The
    files it uploads go to `kept` by address (the page serves them from there), and the files
    it no longer carries leave it."""
    for key in ("content", "embeds", "components", "poll"):
        if data and key in data and data[key] is not None:
            target[key] = data[key]
    for key, cleared in (("content", ""), ("embeds", [])):  # sent as null: removed
        if data and key in data and data[key] is None:
            target[key] = cleared
    if data and data.get("components") is not None:
        target["components"] = with_string_ids(data["components"])
    if data and data.get("attachments") is not None:
        files = data.get("files") or {}
        before = {str(a.get("url")) for a in target.get("attachments") or ()}
        target["attachments"] = [_attachment(a, target["id"], files) for a in data["attachments"]]
        if kept is not None:
            now = {str(a["url"]): a["filename"] for a in target["attachments"]}
            for gone in before - now.keys():
                kept.pop(gone, None)
            for url, filename in now.items():
                if url not in before and filename in files:
                    kept[url] = files[filename]
    if data and "embed" in data and data["embed"] is not None:  # old single-embed form
        target["embeds"] = [data["embed"]]
    if data and data.get("flags") is not None:
        keep = int(target["flags"]) & (EPHEMERAL | LOADING)
        target["flags"] = keep | (int(data["flags"]) & ~(EPHEMERAL | LOADING))
    target["flags"] = int(target["flags"]) & ~LOADING


def interaction_create(
    interaction: LocalInteraction,
    application_id: int,
    guild_id: int,
    channel: dict[str, Any],
    *,
    locale: str,
    message: dict[str, Any] | None,
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(application_id),
        "type": 2 if interaction.kind == "command" else 3,
        "token": interaction.token,
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
        "data": interaction.data,
        "guild_id": str(guild_id),
        "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
        "channel_id": channel["id"],
        "channel": channel,
        "member": interaction.user.member_payload(),
        "locale": locale,
        "guild_locale": "en-US",
        "app_permissions": str(BOT_PERMISSIONS),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
    }
    if message is not None:
        event["message"] = message
    return event


def command_data(
    definition: Mapping[str, Any] | None,
    command_id: str,
    guild_id: int,
    names: list[str],
    options: Mapping[str, Any],
    *,
    members: Collection[int] | None = None,
) -> dict[str, Any]:
    """The `data` of a slash command: `names` is the command, group and subcommand path;
    option types come from the synced definition, else from the Python values. A user option
    resolves to a member when `members` (the guild's member ids; None: everyone) has them."""
    level: list[dict[str, Any]] = list((definition or {}).get("options", []))
    command_type = int((definition or {}).get("type", 1))  # an Activity's entry point: 4
    data: dict[str, Any] = {"id": command_id, "name": names[0], "type": command_type}
    data["guild_id"] = str(guild_id)
    holder = data
    for depth, sub in enumerate(names[1:]):
        sub_def = next((o for o in level if o.get("name") == sub), None)
        last = depth == len(names) - 2
        sub_type = sub_def["type"] if sub_def else (SUB_COMMAND if last else SUB_COMMAND_GROUP)
        child: dict[str, Any] = {"name": sub, "type": sub_type}
        holder["options"] = [child]
        holder = child
        level = list((sub_def or {}).get("options", []))
    holder["options"] = []
    for key, value in options.items():
        if isinstance(value, LocalUser):  # a member option: an id, plus resolved data
            holder["options"].append({"name": key, "type": USER, "value": str(value.id)})
            member = value.member_payload()
            resolved = data.setdefault("resolved", {"users": {}, "members": {}})
            resolved["users"][str(value.id)] = member.pop("user")
            if members is None or value.id in members:
                resolved["members"][str(value.id)] = member
            continue
        holder["options"].append({"name": key, "type": _option_type(level, key, value)})
        holder["options"][-1]["value"] = value
    return data


def _option_type(definitions: list[dict[str, Any]], name: str, value: Any) -> int:
    for definition in definitions:
        if definition.get("name") == name:
            return int(definition["type"])
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    return STRING
