"""Statistics, openskill ratings and leaderboards per guild and game."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from games.contract import Game
from games.match import Match
from storage import SeatRecord, Store, StoreError
from tests.games.toygame import GAME as TOY
from tests.games.toygame import ToyGame
from tests.storage.conftest import ToyTable, resolve_toy


class ToyTeams(ToyGame):
    """The toy game played by partners (seats 0+2 against 1+3), highest total winning."""

    name: ClassVar[str] = "toyteams"
    lower_is_better: ClassVar[bool] = False

    def sides(self, n_seats: int) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))


TEAMS = ToyTeams()


def resolve(name: str) -> Game[Any, Any, Any]:
    return TEAMS if name == TEAMS.name else resolve_toy(name)


@pytest.fixture
async def store(location: Any) -> Any:
    async with await Store.open(location, games_resolver=resolve) as opened:
        yield opened


async def record_match(
    store: Store,
    users: list[int | None],
    winners: list[int],
    totals: list[int],
    *,
    guild_id: int = 1,
    game: Game[Any, Any, Any] = TOY,
) -> int:
    """A finished match with these seats (None: a bot player), winners and final totals."""
    table = await store.create_table(guild_id, 9, game.name, {}, host_id=users[0] or 1)
    await store.save_seats(
        table.id,
        [
            SeatRecord(
                seat=seat,
                user_id=user,
                display_name=f"u{user}" if user else "bot",
                is_bot=user is None,
            )
            for seat, user in enumerate(users)
        ],
    )
    await store.start_match(table.id, Match(game, game.options(), len(users)).state())
    await store.finish_match(table.id, winners, totals)
    return table.id


A, B, C, D = 1, 2, 3, 4


async def known_history(store: Store) -> None:
    await record_match(store, [A, B], [0], [10, 40])
    await record_match(store, [B, A], [1], [35, 12])
    await record_match(store, [A, C], [0], [5, 30])
    await record_match(store, [B, C], [0], [8, 31])
    await record_match(store, [C, B], [1], [33, 9])
    await record_match(store, [C, D], [1], [40, 2])


async def test_known_history_orders_the_wins_board(store: Store) -> None:
    await known_history(store)
    board = await store.leaderboard(1, "toy", order="wins")
    assert [(row.user_id, row.wins, row.matches) for row in board] == [
        (A, 3, 3),
        (B, 2, 4),
        (D, 1, 1),  # one win in one match: before C's none, after B's two
        (C, 0, 4),
    ]
    assert [row.rank for row in board] == [1, 2, 3, 4]


async def test_known_history_orders_the_rating_board(store: Store) -> None:
    await known_history(store)
    board = await store.leaderboard(1, "toy", order="rating")
    ratings = {row.user_id: row.rating for row in board}
    assert board[0].user_id == A and board[-1].user_id == C
    assert ratings[A] > ratings[B] > ratings[C]
    assert [row.rating for row in board] == sorted(ratings.values(), reverse=True)
    assert all(row.rating == pytest.approx(row.mu - 3 * row.sigma) for row in board)


async def test_win_rate_board_needs_the_minimum_of_matches(store: Store) -> None:
    await known_history(store)
    board = await store.leaderboard(1, "toy", order="win_rate", min_matches=3)
    assert [(row.user_id, row.win_rate) for row in board] == [(A, 1.0), (B, 0.5), (C, 0.0)]
    everyone = await store.leaderboard(1, "toy", order="win_rate", min_matches=1)
    assert [row.user_id for row in everyone] == [A, D, B, C]  # equal rates: more matches first
    assert [r.user_id for r in await store.leaderboard(1, "toy", "win_rate", min_matches=4)] == [
        B,
        C,
    ]
    assert len(await store.leaderboard(1, "toy", order="wins", limit=2)) == 2


async def test_free_for_all_moves_ratings_by_finishing_place(store: Store) -> None:
    # toy: lowest total wins; places: seat 0 first, seat 2 second, seat 1 third, seat 3 last
    await record_match(store, [A, B, C, D], [0], [10, 30, 20, 40])
    rows = {row.user_id: row for row in await store.leaderboard(1, "toy", limit=10)}
    assert rows[A].mu > rows[C].mu > rows[B].mu > rows[D].mu
    assert rows[A].mu > 25 > rows[D].mu
    assert all(row.sigma < 25 / 3 for row in rows.values())
    assert [row.user_id for row in await store.leaderboard(1, "toy")] == [A, C, B, D]


async def test_team_match_moves_partners_together(store: Store) -> None:
    await record_match(store, [A, B, C, D], [0, 2], [10, 4], game=TEAMS)
    rows = {row.user_id: row for row in await store.leaderboard(1, "toyteams")}
    assert rows[A].mu == pytest.approx(rows[C].mu) and rows[A].mu > 25
    assert rows[B].mu == pytest.approx(rows[D].mu) and rows[B].mu < 25
    assert (rows[A].wins, rows[C].wins, rows[B].wins, rows[D].wins) == (1, 1, 0, 0)
    assert (rows[A].points, rows[B].points) == (10, 4)  # each player's side total


async def test_bot_players_are_not_rated_and_do_not_rate(store: Store) -> None:
    await record_match(store, [A, None], [0], [3, 20])  # a human beating a bot
    (row,) = await store.leaderboard(1, "toy")
    assert (row.user_id, row.matches, row.wins) == (A, 1, 1)
    assert (row.mu, row.sigma) == (pytest.approx(25.0), pytest.approx(25 / 3))
    # a human with a bot partner against two humans: the human partner is rated alone
    await record_match(store, [A, B, None, C], [1, 3], [2, 9], game=TEAMS)
    rows = {r.user_id: r for r in await store.leaderboard(1, "toyteams")}
    assert set(rows) == {A, B, C}
    assert rows[A].mu < 25 < rows[B].mu


async def test_guilds_never_see_each_others_rows(store: Store) -> None:
    await record_match(store, [A, B], [0], [1, 9], guild_id=1)
    await record_match(store, [C, A], [0], [1, 9], guild_id=2)
    assert {r.user_id for r in await store.leaderboard(1, "toy")} == {A, B}
    assert {r.user_id for r in await store.leaderboard(2, "toy")} == {A, C}
    in_one = await store.player_stats(1, A)
    in_two = await store.player_stats(2, A)
    assert (in_one.wins, in_two.wins) == (1, 0)
    assert [m.won for m in await store.recent_matches(1, A)] == [True]
    assert [m.won for m in await store.recent_matches(2, A)] == [False]
    assert (await store.player_stats(3, A)).games == []


async def test_player_stats_and_recent_matches(store: Store) -> None:
    await known_history(store)
    await record_match(store, [A, B, C, D], [0, 2], [10, 4], game=TEAMS)
    stats = await store.player_stats(1, A)
    assert [(g.game, g.matches, g.wins) for g in stats.games] == [("toy", 3, 3), ("toyteams", 1, 1)]
    assert stats.matches == 4 and stats.wins == 4
    assert stats.games[0].rank == 1
    only_toy = await store.player_stats(1, C, game="toy")
    assert [(g.game, g.matches, g.rank) for g in only_toy.games] == [("toy", 4, 4)]

    recent = await store.recent_matches(1, A, limit=3)
    assert [m.game for m in recent] == ["toyteams", "toy", "toy"]
    latest = recent[0]
    assert latest.won and latest.winners_seats == [0, 2] and latest.final_totals == [10, 4]
    assert latest.players == ["u1", "u2", "u3", "u4"] and latest.seat == 0 and latest.total == 10
    assert latest.rating_before is not None and latest.rating_after is not None
    assert latest.rating_after > latest.rating_before


async def test_rounds_and_points_come_from_the_played_match(store: Store) -> None:
    toy = await ToyTable.open(store, target=40)
    while not toy.match.finished:
        await toy.play_round(seed=toy.match.round_no + 10)
    await store.finish_match(toy.id, list(toy.match.winner_seats()), toy.match.totals)
    rows = {r.user_id: r for r in await store.leaderboard(1, "toy")}
    assert rows[101].rounds == rows[102].rounds == toy.match.round_no
    assert (rows[101].points, rows[102].points) == tuple(toy.match.totals)
    with pytest.raises(StoreError, match="no match in progress"):
        await store.finish_match(toy.id, [0], toy.match.totals)


async def test_bad_finish_match_input_is_a_clear_error(store: Store) -> None:
    toy = await ToyTable.open(store)
    with pytest.raises(StoreError, match="2 sides, but 3 final totals"):
        await store.finish_match(toy.id, [0], [1, 2, 3])
    with pytest.raises(StoreError, match="not seats"):
        await store.finish_match(toy.id, [7], [1, 2])
    with pytest.raises(StoreError, match="unknown leaderboard order"):
        await store.leaderboard(1, "toy", order="luck")  # type: ignore[arg-type]


async def test_a_player_in_two_seats_counts_once(store: Store) -> None:
    await record_match(store, [A, A, B], [0], [1, 5, 9])
    rows = {r.user_id: r for r in await store.leaderboard(1, "toy")}
    assert (rows[A].matches, rows[A].wins, rows[B].matches) == (1, 1, 1)
    assert [m.seat for m in await store.recent_matches(1, A)] == [0]
