"""Standings: points, then Buchholz, then Sonneborn-Berger, then the earlier sign-up; a
shared win is half a win; the podium of an elimination follows its bracket."""

from __future__ import annotations

from games.tournament.event import (
    ELIMINATION,
    FINISHED,
    SWISS,
    Format,
    Tournament,
    TournamentError,
)
from games.tournament.standings import Game, standings


def test_equal_points_are_ranked_by_buchholz_then_sonneborn_berger_then_sign_up() -> None:
    # 0 beat 1, 2 beat 3, 1 beat 3, 0 and 2 shared; 3 lost twice
    games = [
        Game(((0,), (1,)), (0,)),
        Game(((2,), (3,)), (0,)),
        Game(((1,), (3,)), (0,)),
        Game(((0,), (2,)), (0, 1)),
    ]
    rows = standings([0, 1, 2, 3], games, [])
    assert [(r.unit, r.points) for r in rows] == [(0, 3), (2, 3), (1, 2), (3, 0)]
    # 0 and 2 have 3 points each: 0 met 1 (2) and 2 (3) = 5; 2 met 3 (0) and 0 (3) = 3
    assert rows[0].buchholz == 5 and rows[1].buchholz == 3
    tied = standings([0, 1], [], [])
    assert [r.unit for r in tied] == [0, 1]  # nothing played: sign-up order


def test_sonneborn_berger_breaks_an_equal_buchholz() -> None:
    # 0 and 3 have 2 points and a Buchholz of 10 each; 0's win was over the stronger player
    games = [
        Game(((0,), (1,)), (0,)),
        Game(((2,), (0,)), (0,)),
        Game(((3,), (2,)), (0,)),
        Game(((1,), (3,)), (0,)),
        Game(((1,), (4,)), (0,)),
        Game(((2,), (4,)), (0,)),
        Game(((1,), (5,)), (0,)),
    ]
    rows = {r.unit: r for r in standings([3, 0, 1, 2, 4, 5], games, [])}
    assert rows[0].points == rows[3].points == 2
    assert rows[0].buchholz == rows[3].buchholz == 10
    assert (rows[0].sonneborn_berger, rows[3].sonneborn_berger) == (12, 8)
    assert rows[0].place < rows[3].place  # though 3 signed up first


def test_an_elimination_podium_is_the_final_then_the_better_semi_final_loser() -> None:
    event = Tournament(Format(ELIMINATION, 2, 1))
    for user in range(4):
        event.sign_up(user, f"p{user}", 10)
    event.open_checkin()
    event.check_in(0)
    event.start(1)
    semis = event.next_round()  # 0-3 and 1-2 (seeds in bracket order)
    assert [t.sides for t in semis.tables] == [((0,), (3,)), ((1,), (2,))]
    event.record(1, 1, [1])  # 3 beats the top seed
    event.record(1, 2, [0])
    final = event.next_round()
    assert final.tables[0].sides == ((3,), (1,))
    event.record(2, 1, [1])
    assert event.status == FINISHED
    assert event.podium()[:2] == [1, 3]
    assert event.podium()[2] in (0, 2)


def test_a_swiss_bye_counts_as_a_win_once_its_round_is_over() -> None:
    event = Tournament(Format(SWISS, 2, 2))
    for user in range(3):
        event.sign_up(user, f"p{user}", 10)
    event.open_checkin()
    event.check_in(0)
    event.start(1)
    first = event.next_round()
    (bye,) = first.byes
    assert next(r for r in event.standings() if r.unit == bye).points == 0
    event.record(1, 1, [0])
    assert next(r for r in event.standings() if r.unit == bye).points == 2


def test_sign_up_closes_when_check_in_opens_and_only_entrants_check_in() -> None:
    event = Tournament(Format(SWISS, 2, 2))
    event.sign_up(1, "a", 2)
    event.sign_up(2, "b", 2)
    refused = []
    for action in (
        lambda: event.sign_up(3, "c", 2),  # full
        lambda: event.sign_up(1, "a", 5),  # twice
        lambda: event.check_in(1),  # not open yet
    ):
        try:
            action()
        except TournamentError as error:
            refused.append(error.rule)
    assert refused == ["event_full", "already_signed_up", "checkin_not_open"]
    event.open_checkin()
    for action in (lambda: event.sign_up(3, "c", 5), lambda: event.check_in(9)):
        try:
            action()
        except TournamentError as error:
            refused.append(error.rule)
    assert refused[3:] == ["signup_closed", "not_signed_up"]
    event.check_in(1)
    event.start(3)
    assert event.absent() == {2}  # a bot plays the no-show's seat (the default)


def test_a_table_nobody_won_counts_as_a_loss_for_both() -> None:
    event = Tournament(Format(SWISS, 2, 1))
    for user in range(2):
        event.sign_up(user, f"p{user}", 10)
    event.open_checkin()
    event.check_in(0)
    event.start(1)
    event.next_round()
    event.record(1, 1, [])
    assert [r.points for r in event.standings()] == [0, 0]
    assert event.status == FINISHED
