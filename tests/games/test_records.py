"""Hand records: written from a finished hand, checked by replaying them, refused with the line
that does not hold when edited by hand; the readable text record."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from games.contract import RoundSetup
from games.records import HandRecord, RecordError, check, write_machine, write_text
from games.registry import game_names, get_game
from games.replay import main as replay_main

REAL_GAMES = [name for name in game_names() if name in ("dutch", "euchre", "dame")]


def finished_hand(name: str, seed: int = 3) -> HandRecord:
    """A whole hand of random legal moves, as a hand record."""
    game = get_game(name)
    n_seats = max(game.min_seats, min(4, game.max_seats))
    round_: Any = game.new_round(game.options(), RoundSetup(n_seats=n_seats, dealer=1), seed=seed)
    rng = random.Random(seed)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
    result = round_.result()
    names = [f"Player {s}" for s in range(n_seats)]
    return HandRecord(round_.record(), names, tuple(result.points), dict(result.detail))


@pytest.mark.parametrize("name", REAL_GAMES)
def test_a_machine_record_of_a_finished_hand_holds_when_replayed(name: str) -> None:
    hand = finished_hand(name)
    parsed, steps = check(write_machine(hand))
    assert parsed.hand.record == hand.record and parsed.hand.names == hand.names
    assert len(steps) == len(hand.record.actions) and steps[-1].round.finished


def edited(text: str, old: str, new: str, *, last: bool = False) -> str:
    lines = text.splitlines()
    indexes = [i for i, line in enumerate(lines) if line.startswith(old)]
    index = indexes[-1] if last else indexes[0]
    lines[index] = new if new.startswith(old.split()[0]) else lines[index].replace(old, new)
    return "\n".join(lines) + "\n"


def line_of(text: str, prefix: str, *, last: bool = False) -> int:
    numbers = [n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(prefix)]
    return numbers[-1] if last else numbers[0]


@pytest.mark.parametrize("name", REAL_GAMES)
def test_a_record_edited_by_hand_is_refused_with_the_line_that_does_not_hold(name: str) -> None:
    hand = finished_hand(name)
    text = write_machine(hand)
    # a move changed in the middle: refused at that line
    middle = len(hand.record.actions) // 2
    seat, _ = hand.record.actions[middle]
    line = line_of(text, "action ") + middle
    forged = text.splitlines()
    forged[line - 1] = f"action {seat} castle kingside"
    with pytest.raises(RecordError, match="may not play 'castle kingside'") as caught:
        check("\n".join(forged))
    assert caught.value.line == line

    points = line_of(text, "points ")
    wrong = [p + 1 for p in hand.points]
    forged = text.splitlines()
    forged[points - 1] = f"points {wrong}"
    with pytest.raises(RecordError, match="the points do not hold") as caught:
        check("\n".join(forged))
    assert caught.value.line == points

    forged = [line for n, line in enumerate(text.splitlines(), 1) if n != points - 1]
    with pytest.raises(RecordError, match="not over") as caught:  # the last action removed
        check("\n".join(forged))

    forged = text.splitlines()
    deck = line_of(text, "deck ")
    forged[deck - 1] = "deck " + " ".join(hand.record.deck[:-1])
    with pytest.raises(RecordError, match="cannot be dealt") as caught:
        check("\n".join(forged))
    assert caught.value.line == deck


def test_a_file_that_is_no_record_is_refused_on_its_first_line() -> None:
    with pytest.raises(RecordError) as caught:
        check("hello\n")
    assert caught.value.line == 1
    text = write_machine(finished_hand("euchre"))
    with pytest.raises(RecordError, match="expected the dealer line") as caught:
        check(text.replace("dealer ", "dealr ", 1))
    assert caught.value.line == line_of(text, "dealer ")


@pytest.mark.parametrize("name", REAL_GAMES)
def test_the_text_record_shows_the_deal_every_action_and_the_result(name: str) -> None:
    hand = finished_hand(name)
    text = write_text(hand)
    dealt = get_game(name).replay(hand.record.model_copy(update={"actions": []})).dealt()
    assert dealt, "every real game says what its deal gave"
    hand_of_first = " ".join(c.code for c in dealt["seat 0"])
    assert f"Player 0: {hand_of_first}" in text
    for index, (seat, notation) in enumerate(hand.record.actions, start=1):
        assert f"{index}. Player {seat}: {notation}" in text
    assert "Result" in text and "points:" in text


def test_games_replay_plays_a_record_back_and_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = finished_hand("dame")
    good = tmp_path / "hand.hand"
    good.write_text(write_machine(hand))
    assert replay_main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "the record holds" in out
    assert out.count("\n") >= len(hand.record.actions) + 2
    bad = tmp_path / "edited.hand"
    bad.write_text(write_machine(hand).replace("points [", "points [1", 1))
    assert replay_main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert "line" in err and "points do not hold" in err and len(err.splitlines()) == 1
    assert replay_main([str(tmp_path / "missing.hand")]) == 2
