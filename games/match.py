"""A match: rounds added up to the target, the dealer rotating one seat a round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from games.cards import Card
from games.contract import Game, Options, Round, RoundResult, RoundSetup
from games.errors import IllegalAction


class MatchState(BaseModel):
    """A match as stored: options, seats, first dealer and the finished rounds' points."""

    model_config = ConfigDict(frozen=True)

    game: str
    options: dict[str, Any]
    n_seats: int
    first_dealer: int = 0
    round_points: list[tuple[int, ...]] = []


class Match:
    def __init__(
        self, game: Game[Any, Any, Any], options: Options, n_seats: int, first_dealer: int = 0
    ) -> None:
        game.check_seats(n_seats)
        self.game = game
        self.options = options
        self.n_seats = n_seats
        self.first_dealer = first_dealer % n_seats
        self.sides = game.sides(n_seats)
        self.totals: list[int] = [0] * len(self.sides)
        self.results: list[RoundResult] = []
        self.winners: tuple[int, ...] | None = None  # winning sides once over

    # -- rounds --------------------------------------------------------------------------
    @property
    def round_no(self) -> int:
        """Index of the next round to play (or of the round being played)."""
        return len(self.results)

    @property
    def finished(self) -> bool:
        return self.winners is not None

    def next_setup(self) -> RoundSetup:
        return RoundSetup(
            n_seats=self.n_seats,
            dealer=(self.first_dealer + self.round_no) % self.n_seats,
            round_no=self.round_no,
            totals=tuple(self.totals) if self.results else (),
        )

    def new_round(
        self, *, deck: Sequence[Card] | None = None, seed: int | str | None = None
    ) -> Round[Any, Any, Any]:
        if self.finished:
            raise IllegalAction("match_over", "The match is over.")
        return self.game.new_round(self.options, self.next_setup(), deck=deck, seed=seed)

    def add_round(self, result: RoundResult) -> None:
        """Add a finished round's points and decide whether the match is over."""
        if self.finished:
            raise IllegalAction("match_over", "The match is over.")
        if len(result.points) != len(self.sides):
            raise ValueError("a round result must give points to every side")
        self.results.append(result)
        for side, points in enumerate(result.points):
            self.totals[side] += points
        self.winners = self.game.match_winners(self.totals, self.options.target)

    def winner_seats(self) -> tuple[int, ...]:
        if self.winners is None:
            return ()
        return tuple(seat for side in self.winners for seat in self.sides[side])

    # -- storage ---------------------------------------------------------------------------
    def state(self) -> MatchState:
        return MatchState(
            game=self.game.name,
            options=self.options.model_dump(mode="json"),
            n_seats=self.n_seats,
            first_dealer=self.first_dealer,
            round_points=[r.points for r in self.results],
        )

    @classmethod
    def restore(cls, game: Game[Any, Any, Any], state: MatchState) -> Match:
        match = cls(
            game,
            game.options_model.model_validate(state.options),
            state.n_seats,
            state.first_dealer,
        )
        for points in state.round_points:
            match.add_round(RoundResult(points=tuple(points)))
        return match
