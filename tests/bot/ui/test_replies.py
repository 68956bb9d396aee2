"""What a click carries, read without trusting its shape: the values a select chose."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.ui.replies import selected_values


def click(data: object) -> Any:
    """A stand-in for `discord.Interaction`: only its payload's data is read."""
    return SimpleNamespace(data=data)


def test_a_selects_click_gives_the_values_chosen() -> None:
    assert selected_values(click({"custom_id": "help:page", "values": ["euchre"]})) == ["euchre"]


@pytest.mark.parametrize(
    "data",
    [None, {}, {"custom_id": "help:page"}, {"values": None}, {"values": "euchre"}],
    ids=["no data", "empty", "a button's", "null values", "values not a list"],
)
def test_a_click_without_a_list_of_values_chose_none(data: object) -> None:
    assert selected_values(click(data)) == []
