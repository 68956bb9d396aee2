"""The local Discord server refuses the Components V2 messages Discord refuses: the flag's
rules, the 40 components and 4,000 characters, sections without an accessory, the flag
dropped on an edit."""

from __future__ import annotations

from typing import Any

import discord

from bot.local.layout import IS_COMPONENTS_V2
from bot.local.limits import edit_errors, message_errors


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "custom_id": custom_id, "label": "Go"}


def _v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": IS_COMPONENTS_V2, "components": list(components), **extra}


def _section(content: str, accessory: dict[str, Any] | None) -> dict[str, Any]:
    section: dict[str, Any] = {"type": 9, "components": [_text(content)]}
    if accessory is not None:
        section["accessory"] = accessory
    return section


def test_a_layout_view_as_discord_py_sends_it_is_accepted() -> None:
    view = discord.ui.LayoutView()
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=0x2E7D32)
    container.add_item(discord.ui.TextDisplay("## Table"))
    section = discord.ui.Section(accessory=discord.ui.Button(label="Play", custom_id="p"))
    section.add_item(discord.ui.TextDisplay("Alice · 3 cards"))
    container.add_item(section)
    gallery = discord.ui.MediaGallery()
    gallery.add_item(media="attachment://table.png")
    container.add_item(gallery)
    container.add_item(discord.ui.Separator())
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(discord.ui.Button(label="My cards", custom_id="m"))
    container.add_item(row)
    view.add_item(container)
    data = _v2(*view.to_components())
    assert message_errors(data, creating=True) == []


def test_a_v2_message_carries_no_content_nor_embeds() -> None:
    errors = message_errors(_v2(_text("hi"), content="x", embeds=[{"title": "t"}]), creating=True)
    assert errors == [
        "content: cannot be used with the IS_COMPONENTS_V2 flag",
        "embeds: cannot be used with the IS_COMPONENTS_V2 flag",
    ]


def test_a_v2_message_holds_at_most_40_components_counting_nested_ones() -> None:
    def container(texts: int) -> dict[str, Any]:
        return {"type": 17, "components": [_text(f"t{i}") for i in range(texts)]}

    assert message_errors(_v2(container(39)), creating=True) == []
    (error,) = message_errors(_v2(container(40)), creating=True)
    assert error == "components: 41 > 40 components, nested ones counted"


def test_a_v2_message_holds_at_most_4000_characters_across_its_text_displays() -> None:
    assert message_errors(_v2(_text("a" * 2000), _text("b" * 2000)), creating=True) == []
    (error,) = message_errors(_v2(_text("a" * 2000), _text("b" * 2001)), creating=True)
    assert error == "components: 4001 > 4000 characters across text displays"


def test_a_section_needs_an_accessory_and_one_to_three_texts() -> None:
    (error,) = message_errors(_v2(_section("Alice", None)), creating=True)
    assert error == "components[0].accessory: a section needs an accessory"
    four = {**_section("a", _button("b")), "components": [_text(str(i)) for i in range(4)]}
    assert message_errors(_v2(four), creating=True) == ["components[0].components: 4 not in 1-3"]
    thumbnail = {"type": 11, "media": {"url": "attachment://a.png"}}
    assert message_errors(_v2(_section("Alice", thumbnail)), creating=True) == []


def test_components_go_only_where_discord_takes_them() -> None:
    thumbnail = {"type": 11, "media": {"url": "attachment://a.png"}}
    nested = {"type": 17, "components": [{"type": 17, "components": [_text("x")]}]}
    button_on_top = _button("b")
    text_as_accessory = _section("Alice", _text("no"))
    errors = message_errors(_v2(thumbnail, nested, button_on_top, text_as_accessory), creating=True)
    assert errors == [
        "components[0]: a component of type 11 cannot be here",
        "components[1].components[0]: a component of type 17 cannot be here",
        "components[2]: a component of type 2 cannot be here",
        "components[3].accessory: a component of type 10 cannot be here",
    ]


def test_galleries_files_and_separators_follow_their_rules() -> None:
    eleven = {"type": 12, "items": [{"media": {"url": "attachment://a.png"}}] * 11}
    not_an_attachment = {"type": 13, "file": {"url": "https://example.com/a.txt"}}
    wide = {"type": 14, "spacing": 3}
    errors = message_errors(_v2(eleven, not_an_attachment, wide), creating=True)
    assert errors == [
        "components[0].items: 11 not in 1-10",
        "components[1].file.url: a file component names an attachment://",
        "components[2].spacing: 3 is not 1 or 2",
    ]


def test_custom_ids_are_unique_across_the_whole_v2_message() -> None:
    data = _v2(_section("a", _button("same")), {"type": 1, "components": [_button("same")]})
    (error,) = message_errors(data, creating=True)
    assert error == "components[1].components[0].custom_id: 'same' is not unique"


def test_v2_components_need_the_flag() -> None:
    (error, *_) = message_errors({"components": [_text("hi")]}, creating=True)
    assert error == "components[0]: type 10 needs the IS_COMPONENTS_V2 flag"


def test_an_edit_cannot_remove_the_v2_flag() -> None:
    stored = _v2(_text("hi"), content="", embeds=[])
    errors = edit_errors(stored, {"flags": 0, "content": "plain"})
    assert errors[0] == "flags: the IS_COMPONENTS_V2 flag cannot be removed from a message"


def test_an_edit_of_a_v2_message_without_flags_still_follows_its_rules() -> None:
    stored = _v2(_text("hi"), content="", embeds=[])
    assert edit_errors(stored, {"content": "plain"}) == [
        "content: cannot be used with the IS_COMPONENTS_V2 flag"
    ]
    assert edit_errors(stored, {"components": [_text("there")]}) == []


def test_an_embed_message_becomes_v2_only_when_the_edit_clears_its_content_and_embeds() -> None:
    stored = {"flags": 0, "content": "", "embeds": [{"title": "old"}], "components": []}
    keeps_embed = _v2(_text("new"))
    assert edit_errors(stored, keeps_embed) == [
        "embeds: cannot be used with the IS_COMPONENTS_V2 flag"
    ]
    assert edit_errors(stored, {**keeps_embed, "embeds": []}) == []
