"""The local Discord server refuses what Discord refuses: limits on content, embeds, components."""

from __future__ import annotations

from typing import Any

from bot.local.limits import message_errors


def _button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 2, "custom_id": custom_id, "label": label}


def _row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def test_a_message_within_every_limit_is_accepted() -> None:
    data = {
        "content": "x" * 2000,
        "embeds": [
            {"title": "t", "description": "d" * 4096, "fields": [{"name": "n", "value": "v"}]}
        ],
        "components": [_row(*(_button(f"b{i}") for i in range(5)))],
    }
    assert message_errors(data, creating=True) == []


def test_over_long_texts_are_refused() -> None:
    data = {
        "content": "x" * 2001,
        "embeds": [{"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}]}],
    }
    errors = message_errors(data, creating=True)
    assert len(errors) == 3 and errors[0].startswith("content")


def test_all_embeds_together_hold_at_most_6000_characters() -> None:
    embeds = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert message_errors({"embeds": embeds}, creating=True) == [
        "embeds: 6001 > 6000 characters in all"
    ]


def test_component_layout_limits_are_refused() -> None:
    six_rows = [_row(_button(f"r{i}")) for i in range(6)]
    assert message_errors({"components": six_rows}, creating=True)
    six_buttons = [_row(*(_button(f"b{i}") for i in range(6)))]
    assert message_errors({"components": six_buttons}, creating=True)
    twins = [_row(_button("same"), _button("same"))]
    assert "not unique" in message_errors({"components": twins}, creating=True)[0]
    long_id = [_row(_button("c" * 101))]
    assert message_errors({"components": long_id}, creating=True)
    long_label = [_row(_button("ok", "l" * 81))]
    assert message_errors({"components": long_label}, creating=True)


def test_a_select_holds_one_to_25_unique_options() -> None:
    def select(n: int, *, value: str | None = None) -> dict[str, Any]:
        options = [{"label": f"o{i}", "value": value or f"v{i}"} for i in range(n)]
        return {"components": [_row({"type": 3, "custom_id": "s", "options": options})]}

    assert message_errors(select(25), creating=True) == []
    assert message_errors(select(26), creating=True)
    assert message_errors(select(0), creating=True)
    assert message_errors(select(2, value="same"), creating=True)


def test_an_empty_new_message_is_refused_but_an_edit_may_clear_things() -> None:
    assert message_errors({"content": ""}, creating=True) == ["cannot send an empty message"]
    assert message_errors({"components": []}, creating=False) == []


def test_a_select_of_several_values_is_bounded_by_its_options() -> None:
    def select(n: int, least: int, most: int) -> dict[str, Any]:
        options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
        component = {"type": 3, "custom_id": "m", "options": options}
        component |= {"min_values": least, "max_values": most}
        return {"components": [_row(component)]}

    assert message_errors(select(20, 3, 20), creating=True) == []
    assert message_errors(select(5, 0, 1), creating=True) == []
    assert message_errors(select(5, 3, 6), creating=True)  # more than it offers
    assert message_errors(select(5, 4, 3), creating=True)
    assert message_errors(select(5, 1, 0), creating=True)
