"""Clicks per turn through the menus (`python -m benchmarks.bot.turns`): how a move is found on the
rendered components and counted, and the short mode the suite runs, every move reached."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import pytest

from benchmarks.bot.turns import Route, configurations, main, path_to, routes_to, run
from bot.render.actions import ButtonSpec, ComponentSpec, SelectSpec
from bot.ui.custom_ids import navigate_id, pick_id, play_id, select_id

MENUS: dict[str, list[ComponentSpec]] = {
    "": [
        ButtonSpec(play_id(1, 0, "draw"), "Draw"),
        SelectSpec(select_id(1, 0, "lay"), "Lay", (("7s", "meld 7."), ("The 8 pack", "add 8"))),
        SelectSpec(select_id(1, 0, "discard"), "Discard", (("3♠", "discard 3S"),)),
        ButtonSpec(navigate_id(1, 0, ""), "Refresh"),
    ],
    "meld 7.": [
        SelectSpec(
            pick_id(1, 0, "meld"),
            "Cards",
            (("7♠", "7S"), ("a second 7♠", "7S#1"), ("🃏", "JK")),
            min_values=1,
            max_values=3,
        ),
        ButtonSpec(navigate_id(1, 0, ""), "Back"),
    ],
}


def render(prefix: str) -> Sequence[ComponentSpec]:
    return MENUS.get(prefix, [])


def test_a_button_is_one_click_an_option_two_and_a_pick_two_and_one_per_card() -> None:
    assert path_to(render, "draw") == Route("draw", 1, 1)
    assert path_to(render, "discard 3S") == Route("discard 3S", 2, 1)
    # the lay select (2 clicks) opens the pick: open, tick three cards, close
    route = path_to(render, "meld 7S#1 7S#0 JK")
    assert route is not None
    assert (route.clicks, route.interactions) == (2 + 5, 2)
    assert sorted(route.notation.split()[1:]) == ["7S", "7S#1", "JK"]  # the options' values
    assert path_to(render, "meld 7S 7S JK#2") is not None  # a twin copy is the same move
    assert path_to(render, "add 8 8S") is None  # the menus hold no such step
    assert path_to(render, "discard 4S") is None


def test_the_short_mode_prints_the_clicks_per_turn_of_every_game_and_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--short"])
    printed = capsys.readouterr().out
    for game, preset in configurations():
        assert f"{game:7} {preset:9}" in printed
    assert "not offered" not in printed  # every move the bots chose was on the menus
    assert "turns laying one pack" in printed


async def test_dame_turns_laying_a_pack_take_three_clicks_and_euchre_turns_at_most_two() -> None:
    # the bench's own 20 rounds: a knock turn's clicks depend on the hand, and one round's
    # four or five knock turns say little
    results = {**await run(20, ["dame"]), **await run(1, ["euchre"])}
    dame = results[("dame", "standard")]
    assert dame.unreached == 0 and dame.one_pack
    # draw, the pack's button, a discard; the strong bot knocks whenever it may, even with a
    # big hand: "Lay 7♠ 7♥ 7♦ and knock" or "Knock and discard 7♥" make it no click more when
    # they fit; when five rows are full (a row of packs, the select of packs, ten discards or
    # more) the knock is one click more
    assert dame.by_kind["one pack"] and max(dame.by_kind["one pack"]) <= 3
    knocks = dame.by_kind["one pack, knock"]
    assert max(knocks) <= 4 and 2 * sum(c <= 3 for c in knocks) >= len(knocks)
    euchre = [tally for (game, _), tally in results.items() if game == "euchre"]
    assert euchre  # the claim on Euchre's turns is checked, on each of its presets
    for tally in euchre:
        assert tally.unreached == 0 and max(tally.clicks) <= 2


async def test_a_usual_dutch_turn_takes_two_clicks_and_a_queen_or_jack_turn_at_most_four() -> None:
    """Draw, then swap or discard: with house rules the swap's button also ends the turn."""
    results = await run(1, ["dutch"])
    assert set(results) == {("dutch", "classic"), ("dutch", "house")}
    for tally in results.values():
        assert tally.unreached == 0
        assert statistics.median(tally.clicks) <= 2
    # a Queen's look is draw, discard, the card's button; a Jack's swap one click more ("Swap
    # your card N…", then the other card's button); a 9's: draw, those two, the turn's end: it
    # was six with the selects
    for tally in results.values():
        powers = tally.by_kind["with a card's power"]
        assert max(powers) <= 4


def test_a_button_that_plays_two_moves_is_found_for_its_first() -> None:
    menus: dict[str, list[ComponentSpec]] = {
        "": [
            ButtonSpec(play_id(1, 0, "swap 2;end"), "Swap into card 2, and end the turn"),
            SelectSpec(select_id(1, 0, "placed"), "Or…", (("Swap into card 2", "swap 2"),)),
        ]
    }
    routes = routes_to(lambda prefix: menus.get(prefix, []), "swap 2")
    assert routes == {("end",): Route("swap 2", 1, 1, ("end",)), (): Route("swap 2", 2, 1)}


def test_a_select_option_that_plays_two_moves_is_found_for_its_first() -> None:
    """Dame's "Knock and discard 7♥" in a select: two clicks (open, choose) for both moves."""
    menus: dict[str, list[ComponentSpec]] = {
        "": [
            ButtonSpec(play_id(1, 0, "announce"), "Knock"),
            SelectSpec(select_id(1, 0, "discard"), "Discard", (("7♥", "discard 7H"),)),
            SelectSpec(
                select_id(1, 0, "announce"),
                "Knock and discard",
                (("Knock and discard 7♥", "announce;discard 7H"),),
            ),
        ]
    }
    routes = routes_to(lambda prefix: menus.get(prefix, []), "announce")
    assert routes == {
        (): Route("announce", 1, 1),
        ("discard 7H",): Route("announce", 2, 1, ("discard 7H",)),
    }


async def test_a_euchre_players_only_legal_card_plays_by_itself_and_costs_no_click() -> None:
    by_itself = await run(1, ["euchre"])
    clicked = await run(1, ["euchre"], auto_play=False)
    for key, tally in by_itself.items():
        forced = tally.by_kind["card played by itself"]
        assert forced and set(forced) == {0}
        assert len(forced) >= 3 * tally.rounds  # every last card (a lone hand: three)
        assert "card played by itself" not in clicked[key].by_kind
        assert sum(tally.clicks) < sum(clicked[key].clicks)


async def test_players_who_leave_the_knock_to_the_bot_never_click_it() -> None:
    clicked = (await run(1, ["dame"]))[("dame", "standard")]
    left = (await run(1, ["dame"], auto_knock=True))[("dame", "standard")]
    assert clicked.by_kind["one pack, knock"]  # the strong bot's choices knock every turn
    assert "one pack, knock" not in left.by_kind and left.unreached == 0
    # the hand ended, so a player went out: on a knock the bot made for them the turn before
    assert left.rounds == 1 and sum(left.clicks) < sum(clicked.clicks)
