"""Components are never built empty or beyond Discord's limits: Discord refuses the whole
message (50035) and the click it answers is lost. And a view's payload, written straight from
the specs, is what discord.py's own items (`TableItem` in a `View`) would send."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.components import _component_factory
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.actions import ButtonSpec, ComponentSpec, SelectSpec
from bot.ui.dynamic_items import (
    OPTION_LABEL_LIMIT,
    SELECT_OPTIONS,
    STYLES,
    TableItem,
    build_view,
    is_routed,
)
from bot.ui.layout import layout_components


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return [item for row in view.to_components() for item in row["components"]]


def test_a_select_with_no_option_is_left_out(caplog: pytest.LogCaptureFixture) -> None:
    view = build_view([SelectSpec("ct:1:0:s=swap", "Choose", ()), ButtonSpec("ct:1:0:n=", "Back")])
    assert [item["custom_id"] for item in components(view)] == ["ct:1:0:n="]
    assert "no options" in caplog.text


def test_what_does_not_fit_a_message_is_left_out() -> None:
    options = tuple((f"card {i}", f"swap {i}") for i in range(40))
    buttons = [ButtonSpec(f"ct:1:0:p=b{i}", f"b{i}", row=i // 7) for i in range(40)]
    view = build_view([SelectSpec("ct:1:0:s=swap", "Choose", options, row=4), *buttons])
    select = next(i for i in components(view) if i["custom_id"] == "ct:1:0:s=swap")
    assert len(select["options"]) == SELECT_OPTIONS
    rows = view.to_components()
    assert len(rows) <= 5
    assert all(sum(c["type"] == 2 or 5 for c in row["components"]) <= 5 for row in rows)


# -- the payload is discord.py's ----------------------------------------------------------
def reference_view(specs: list[ComponentSpec]) -> discord.ui.View:
    """The view as discord.py's items build it: a `TableItem` per spec added to a `View`,
    a select left out when empty, and whatever `add_item` refuses left out."""
    view = discord.ui.View(timeout=None)
    for spec in specs:
        try:
            if isinstance(spec, ButtonSpec):
                item = TableItem.button(
                    spec.custom_id, spec.label, STYLES[spec.style], spec.row, spec.emoji
                )
            else:
                if not spec.options:
                    continue
                emojis = spec.emojis or (None,) * len(spec.options)
                pairs = list(zip(spec.options, emojis, strict=True))[:SELECT_OPTIONS]
                options = [
                    discord.SelectOption(label=label[:OPTION_LABEL_LIMIT], value=value, emoji=e)
                    for (label, value), e in pairs
                ]
                most = max(1, min(spec.max_values, len(options)))
                least = max(0, min(spec.min_values, most))
                item = TableItem.select(
                    spec.custom_id,
                    spec.placeholder,
                    options,
                    spec.row,
                    min_values=least,
                    max_values=most,
                )
            view.add_item(item)
        except ValueError:
            continue
    return view


texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=160)
custom_ids = st.one_of(
    st.sampled_from(["ct:1:2:p=draw", "ct:1:2:s=discard", "ct:1:2:n=", "ct:9:0:hand", ""]),
    st.text(min_size=0, max_size=100),
)
emojis = st.one_of(
    st.none(),
    st.sampled_from(["<:QS:1234567890123456789>", "<a:back:1234567890123>", "🂠", "▫️", ""]),
)
rows = st.integers(min_value=-1, max_value=6)
buttons = st.builds(
    ButtonSpec,
    custom_id=custom_ids,
    label=texts,
    style=st.sampled_from(sorted(STYLES)),
    row=rows,
    emoji=emojis,
)


@st.composite
def selects(draw: st.DrawFn) -> SelectSpec:
    options = draw(st.lists(st.tuples(texts, texts), max_size=30))
    shown = draw(
        st.one_of(
            st.just(()),
            st.lists(emojis, min_size=len(options), max_size=len(options)).map(tuple),
            st.lists(emojis, max_size=3).map(tuple),  # a wrong count: left out
        )
    )
    return SelectSpec(
        draw(custom_ids),
        draw(texts),
        tuple(options),
        draw(rows),
        shown,
        min_values=draw(st.integers(min_value=-1, max_value=30)),
        max_values=draw(st.integers(min_value=-1, max_value=30)),
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(buttons, selects()), max_size=30))
def test_the_payload_is_what_discord_py_items_would_send(specs: list[ComponentSpec]) -> None:
    logging.disable(logging.WARNING)  # every spec left out is logged: not what is tested here
    try:
        assert build_view(specs).to_components() == reference_view(specs).to_components()
    finally:
        logging.disable(logging.NOTSET)


def test_a_typical_menu_is_sent_as_discord_py_items_would_send_it() -> None:
    specs: list[ComponentSpec] = [
        ButtonSpec("ct:12:3:p=announce", "Knock", "danger", 0),
        ButtonSpec("ct:12:3:p=draw", "Draw", "primary", 0, "<:back:1234567890123456789>"),
        SelectSpec(
            "ct:12:3:s=discard",
            "Discard…",
            (("Q♠", "discard QS"), ("7♥", "discard 7H")),
            1,
            ("<:QS:1234567890123456780>", None),
        ),
        SelectSpec("ct:12:3:m=meld", "Pick 3 to 5", (("7♠", "7S"), ("7♥", "7H")), 2, (), 3, 5),
        ButtonSpec("ct:12:3:n=", "Refresh", "secondary", 4),
    ]
    view = build_view(specs)
    assert view.to_components() == reference_view(specs).to_components()
    assert view.timeout is None  # a persistent view, as before
    rows = [[c["custom_id"] for c in row["components"]] for row in view.to_components()]
    assert rows == [
        ["ct:12:3:p=announce", "ct:12:3:p=draw"],
        ["ct:12:3:s=discard"],
        ["ct:12:3:m=meld"],
        ["ct:12:3:n="],
    ]


def test_a_click_on_a_button_nested_in_a_v2_container_or_section_is_routed() -> None:
    rows = build_view([ButtonSpec("rp:1:0:1:fwd", "▶")]).rows
    (container,) = layout_components({"title": "Replay"}, rows)
    section = {
        "type": 9,
        "components": [{"type": 10, "content": "7♥"}],
        "accessory": {"type": 2, "style": 2, "label": "Play", "custom_id": "ct:1:1:p=7H"},
    }
    container["components"].append(section)
    # a discord.Message as far as `is_routed` reads it: its components as discord.py parses them
    shown = SimpleNamespace(components=[_component_factory(container)])
    assert is_routed(shown, 2, "rp:1:0:1:fwd")  # type: ignore[arg-type]
    assert is_routed(shown, 2, "ct:1:1:p=7H")  # type: ignore[arg-type]
    assert not is_routed(shown, 2, "rp:1:0:2:fwd")  # type: ignore[arg-type]
    assert not is_routed(shown, 3, "rp:1:0:1:fwd")  # type: ignore[arg-type]
