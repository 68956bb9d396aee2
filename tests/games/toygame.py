"""A tiny game on the engine contract, for testing the contract, the match and the store
without depending on a real game: each seat in turn draws from the stock or passes; after two
draws each the round ends and each seat scores the sum of the ranks it drew (A=1 … K=13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import RANKS, Card, standard_deck
from games.contract import Event, Game, Options, Round, RoundResult, RoundSetup
from games.errors import IllegalAction, NotationError


class ToyOptions(Options):
    target: int = 30
    draws_per_seat: int = 2


@dataclass(frozen=True, slots=True)
class ToyAction:
    kind: str  # "draw" or "pass"

    def __str__(self) -> str:
        return self.kind


DRAW, PASS = ToyAction("draw"), ToyAction("pass")


@dataclass(frozen=True, slots=True)
class ToyView:
    seat: int | None
    turn: int | None
    own: tuple[str, ...]  # only the viewer's cards
    counts: tuple[int, ...]


class ToyRound(Round[ToyOptions, ToyAction, ToyView]):
    def __init__(self, options: ToyOptions, setup: RoundSetup, deck: list[Card]) -> None:
        super().__init__(options, setup, deck)
        self.stock = list(deck)
        self.hands: list[list[Card]] = [[] for _ in range(setup.n_seats)]
        self.turn = (setup.dealer + 1) % setup.n_seats
        self.moves = 0

    def to_act(self) -> tuple[int, ...]:
        return () if self.finished else (self.turn,)

    def legal_actions(self, seat: int) -> list[ToyAction]:
        return [DRAW, PASS] if seat in self.to_act() else []

    def _apply(self, seat: int, action: ToyAction) -> list[Event]:
        events = []
        if action is DRAW:
            drawn = self.stock.pop(0)
            self.hands[seat].append(drawn)
            events.append(Event("draw", seat, {"card": drawn.name}, frozenset({seat})))
        self.moves += 1
        self.turn = (self.turn + 1) % self.setup.n_seats
        return events

    @property
    def finished(self) -> bool:
        return self.moves >= self.options.draws_per_seat * self.setup.n_seats

    def view(self, seat: int) -> ToyView:
        return ToyView(seat, self.turn, tuple(c.name for c in self.hands[seat]), self._counts())

    def public_view(self) -> ToyView:
        return ToyView(None, self.turn, (), self._counts())

    def _counts(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.hands)

    def result(self) -> RoundResult:
        if not self.finished:
            raise IllegalAction("round_not_over", "The round is not over.")
        points = tuple(sum(RANKS.index(c.rank) + 1 for c in h) for h in self.hands)
        return RoundResult(points=points)


class ToyGame(Game[ToyOptions, ToyAction, ToyView]):
    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy"
    rules_version: ClassVar[int] = 1
    options_model: ClassVar[type[Options]] = ToyOptions
    presets: ClassVar[dict[str, Any]] = {"standard": ToyOptions(), "short": ToyOptions(target=10)}
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    round_class: ClassVar[type[Round[Any, Any, Any]]] = ToyRound
    lower_is_better: ClassVar[bool] = True

    def deck(self, options: ToyOptions) -> list[Card]:
        return standard_deck()

    def parse_action(self, text: str) -> ToyAction:
        match text.strip().lower():
            case "draw":
                return DRAW
            case "pass":
                return PASS
        raise NotationError(text)


GAME = ToyGame()
ToyRound.game = GAME
