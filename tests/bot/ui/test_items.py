"""Components are never built empty or beyond Discord's limits: Discord refuses the whole
message (50035) and the click it answers is lost."""

from __future__ import annotations

import pytest

from bot.render.actions import ButtonSpec, SelectSpec
from bot.ui.items import build_view


def test_a_select_with_no_option_is_left_out(caplog: pytest.LogCaptureFixture) -> None:
    view = build_view([SelectSpec("ct:1:0:s=swap", "Choose", ()), ButtonSpec("ct:1:0:n=", "Back")])
    assert [item.custom_id for item in view.children] == ["ct:1:0:n="]  # type: ignore[attr-defined]
    assert "no options" in caplog.text


def test_what_does_not_fit_a_message_is_left_out() -> None:
    options = tuple((f"card {i}", f"swap {i}") for i in range(40))
    buttons = [ButtonSpec(f"ct:1:0:p=b{i}", f"b{i}", row=i // 7) for i in range(40)]
    view = build_view([SelectSpec("ct:1:0:s=swap", "Choose", options, row=4), *buttons])
    select = next(i for i in view.children if i.custom_id == "ct:1:0:s=swap")  # type: ignore[attr-defined]
    assert len(select.item.options) == 25  # type: ignore[attr-defined]
    assert len(view.children) <= 25
    rows: dict[int | None, int] = {}
    for item in view.children:
        rows[item.row] = rows.get(item.row, 0) + 1
    assert all(count <= 5 for count in rows.values())
