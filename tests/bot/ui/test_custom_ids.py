from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui.custom_ids import (
    MAX_LENGTH,
    BadCustomId,
    ComponentId,
    Kind,
    Verb,
    moves,
    navigate_id,
    parse,
    pick_id,
    play_id,
    select_id,
    verb_id,
)

NOTATIONS = ["draw", "swap 2", "look 1:3", "jack 2 1:3", "nine drawn 1:3", "match 2 4", "peek 3 4"]


@pytest.mark.parametrize("verb", list(Verb))
def test_verb_ids_round_trip(verb: Verb) -> None:
    parsed = parse(verb_id(42, 3, verb))
    assert (parsed.table_id, parsed.round_no, parsed.kind, parsed.verb) == (42, 3, Kind.VERB, verb)


@pytest.mark.parametrize("notation", NOTATIONS)
def test_play_select_and_navigate_ids_round_trip(notation: str) -> None:
    for build, kind in (
        (play_id, Kind.PLAY),
        (select_id, Kind.SELECT),
        (navigate_id, Kind.NAVIGATE),
        (pick_id, Kind.PICK),
    ):
        custom_id = build(7, 12, notation)
        assert custom_id.startswith("ct:7:12:")
        parsed = parse(custom_id)
        assert (parsed.table_id, parsed.round_no, parsed.kind, parsed.text) == (
            7,
            12,
            kind,
            notation,
        )
        assert str(parsed) == custom_id


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    table_id=st.integers(min_value=0, max_value=2**63 - 1),
    round_no=st.integers(min_value=0, max_value=999_999),
    words=st.lists(st.from_regex(r"[a-z0-9:]{1,6}", fullmatch=True), min_size=1, max_size=4),
)
def test_any_play_id_parses_back_to_itself(table_id: int, round_no: int, words: list[str]) -> None:
    notation = " ".join(words)
    custom_id = play_id(table_id, round_no, notation)
    assert 1 <= len(custom_id) <= MAX_LENGTH
    assert parse(custom_id).text == notation


@pytest.mark.parametrize(
    "forged",
    [
        "",
        "ct",
        "ct:1:2",
        "ct:1:2:",
        "ct:x:2:join",
        "ct:1:-2:join",
        "ct:1:2:fly",
        "ct:1:2:p=",
        "ct:1:2:m=",
        "ct:1:2:q=draw",
        "ct:1:2:p=draw'; drop table",
        "ct:1:2:p= draw",
        "ct:1:2:p=swap  2",
        "xx:1:2:join",
        "ct:1:2:p=" + "a" * 100,
        "ct:99999999999999999999:2:join",
    ],
)
def test_forged_ids_are_rejected(forged: str) -> None:
    with pytest.raises(BadCustomId):
        parse(forged)


def test_building_an_id_over_100_characters_fails_loudly() -> None:
    with pytest.raises(ValueError):
        play_id(1, 1, "swap " + "1" * 100)


@given(
    st.integers(min_value=0, max_value=10**12),
    st.integers(min_value=0, max_value=999),
    st.text(max_size=30),
)
def test_each_builder_writes_what_its_component_id_reads(
    table_id: int, round_no: int, piece: str
) -> None:
    for build, kind in (
        (play_id, Kind.PLAY),
        (select_id, Kind.SELECT),
        (navigate_id, Kind.NAVIGATE),
        (pick_id, Kind.PICK),
    ):
        assert build(table_id, round_no, piece) == str(
            ComponentId(table_id, round_no, kind, text=piece)
        )
    for verb in Verb:
        assert verb_id(table_id, round_no, verb) == f"ct:{table_id}:{round_no}:{verb.value}"
    assert play_id(table_id, round_no, piece) == f"ct:{table_id}:{round_no}:p={piece}"


def test_one_click_may_play_several_moves_of_a_player_in_order() -> None:
    parsed = parse(play_id(7, 12, "swap 2;end"))
    assert parsed.kind is Kind.PLAY and moves(parsed.text) == ["swap 2", "end"]
    for forged in ("p=swap 2;", "p=;end", "p=swap 2; end", "s=swap 2;end", "m=meld;7S"):
        with pytest.raises(BadCustomId):
            parse(f"ct:7:12:{forged}")
