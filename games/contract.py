"""The engine contract every game follows (documented in games/README.md).

A game is a `Game` object (name, options model, presets, seat range, deck) that makes `Round`s.
A round is determined by (options, setup, deck order, actions): `RoundRecord` stores exactly
that and `Game.replay` rebuilds an equal round from it. The bot renders only `Round.view(seat)`
and `Round.public_view()`, which hold only what that viewer may know.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from games.cards import Card, deck_codes, deck_from_codes, shuffled
from games.errors import IllegalAction

FACING_PARTNERS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
"""The teams of a four-handed partnership game: partners sit opposite."""


class Options(BaseModel):
    """Base of every game's options model. Presets are instances; a table may change fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int = Field(gt=0)


O = TypeVar("O", bound=Options)  # noqa: E741
A = TypeVar("A")  # the game's action type; str(action) is its notation
V = TypeVar("V")  # the game's view type
T = TypeVar("T")
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. `to` is None for a public event, else the only seats that may
    see it (a Queen's peek goes to the looker alone). `data` holds JSON-ready values: card
    names as strings, seats and slots as ints."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """May this seat (None: a spectator / the public table) see this event?"""
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """What a round needs from the match around it."""

    n_seats: int
    dealer: int = 0
    round_no: int = 0
    totals: tuple[int, ...] = ()  # match totals per side before this round (empty: first round)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """`points[side]` is added to the match total of that side (a seat, or a team)."""

    points: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)  # per-game breakdown, JSON-ready


@dataclass(frozen=True, slots=True)
class SpectatorView(Generic[V]):
    """What someone watching the table, seated nowhere at it, may see: the public view, and
    in a game shown with its hands, every seat's cards as they were at the start of the
    current turn (`Round.spectator_view`)."""

    public: V
    # seat -> its cards face up, as at the last turn boundary; None: no hands shown (not
    # asked for, or not known yet: a round rebuilt mid-turn knows them from its next turn)
    hands: Mapping[int, tuple[Card, ...]] | None = None


class RoundRecord(BaseModel):
    """A round as stored: enough to rebuild it exactly by replay."""

    model_config = ConfigDict(frozen=True)

    game: str
    rules_version: int
    options: dict[str, Any]
    n_seats: int
    dealer: int
    round_no: int = 0
    totals: tuple[int, ...] = ()
    deck: list[str]  # card codes, top of the deck (first dealt) first
    actions: list[tuple[int, str]] = []  # (seat, notation)


class Round(ABC, Generic[O, A, V]):
    """One round (hand) of a game. Subclasses implement the abstract methods; `apply` checks
    legality first and mutates only when the action is legal, so an illegal action changes
    nothing.

    What a state shows (its views, its legal actions) is asked for several times per action: by
    the answer to a click, the players' followed messages, the table message and the bots. An
    engine may keep it with `_remember` until the state changes: `apply`, the only way a round's
    state changes, forgets it all before it changes anything."""

    game: ClassVar[Game[Any, Any, Any]]
    # Does `legal_actions` list every legal move? True for a game of few moves (a card to play):
    # an action is legal exactly when it is listed. False for a game whose moves combine any
    # number of cards (packs laid from a hand): the list is the *offered* moves, each legal, and
    # every legal move is either listed or reached by a sequence of listed moves of the same
    # turn (a pack of five is a listed pack of three and two listed adds); `check` judges any
    # move, listed or not, and a player may play a legal move that is not listed.
    lists_every_move: ClassVar[bool] = True
    # Does `recall` place cards that earlier private events showed (peeks at face-down cards)?
    recalls_sights: ClassVar[bool] = False
    # May a seat's only legal move be played for it, at its player's wish (`forced_move`)? Only
    # where such a move decides nothing and shows the seat nothing (a card play that must
    # follow suit; not a peek, which shows cards, nor a move of a round whose list of moves
    # is not every move).
    plays_forced_moves: ClassVar[bool] = False

    def __init__(self, options: O, setup: RoundSetup, deck: Sequence[Card]) -> None:
        self.options = options
        self.setup = setup
        self.deck_order: tuple[Card, ...] = tuple(deck)
        self.history: list[tuple[int, A]] = []
        # What the current state shows, by key (a viewer's seat, None for the public table,
        # or a tuple naming what else): bounded by the viewers and kinds one state has, and
        # emptied by `apply` at every action.
        self._memo: dict[Hashable, Any] = {}
        # For watchers (`keep_turn_hands`): every seat's cards as at the last turn boundary
        # (None: not kept, or not known since the round was rebuilt mid-turn).
        self._keeps_turn_hands = False
        self._turn_hands: dict[int, tuple[Card, ...]] | None = None

    # -- the contract -------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (empty once the round is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[A]:
        """The moves offered to this seat now (empty if it may not act): each is legal; they
        are every legal move when `lists_every_move`, else a bounded set from which every
        legal move is reached (see `lists_every_move`)."""

    @abstractmethod
    def _apply(self, seat: int, action: A) -> list[Event]:
        """Apply an action already known to be legal."""

    @abstractmethod
    def view(self, seat: int) -> V:
        """What this seat may know, and nothing more. A seat that is not at the table raises
        ValueError: asking for it is the caller's mistake, not a move the rules refuse
        (`IllegalAction` is for those)."""

    @abstractmethod
    def public_view(self) -> V:
        """What the table shows everyone (spectators included)."""

    @property
    @abstractmethod
    def finished(self) -> bool: ...

    @abstractmethod
    def result(self) -> RoundResult:
        """The round's points per side. Raises IllegalAction if the round is not over."""

    # -- shared behaviour ---------------------------------------------------------------
    def _remember(self, key: Hashable, build: Callable[[K], T], argument: K) -> T:
        """`build(argument)`, computed once per state: kept under `key` until `apply`."""
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        found = memo[key] = build(argument)
        return found

    def recall(self, seat: int, seen: Sequence[Event]) -> list[Event | None]:
        """Where the cards that private events (`seen`, earlier this round) showed `seat` lie
        now, as far as `seat` can follow them from what it has witnessed since: per event, the
        same event at the card's current place, or None when `seat` can no longer place it
        (or the game keeps no such sight: the default, with `recalls_sights` False)."""
        return [None] * len(seen)

    def keep_turn_hands(self) -> None:
        """Keep, from now on, every seat's cards as they are at each turn boundary (any change
        of the seats to act: a turn, a trick's card, a bid), for watchers shown the hands one
        turn late. Asked before the first action, the deal is such a boundary; asked of a
        round rebuilt mid-turn, the hands are known from the next boundary only (what they
        were at the start of this turn is gone, and the cards now may hold one drawn since)."""
        self._keeps_turn_hands = True
        self._turn_hands = self._hands_now() if not self.history else None

    def spectator_view(self, with_hands: bool) -> SpectatorView[V]:
        """What a watcher sees: the public view, and with `with_hands` (a table that shows
        them) each seat's cards as at the start of the current turn, never a card drawn or
        moved since (None until `keep_turn_hands` knows them)."""
        hands = self._turn_hands if with_hands and self._keeps_turn_hands else None
        return SpectatorView(self.public_view(), None if hands is None else dict(hands))

    def _hands_now(self) -> dict[int, tuple[Card, ...]]:
        return {seat: tuple(cards) for seat, cards in self.open_hands().items()}

    def forced_move(self, seat: int) -> str | None:
        """The seat's only legal move (notation), when the game lets it be played for the seat
        (`plays_forced_moves`) and the list holds every legal move; else None."""
        if not (self.plays_forced_moves and self.lists_every_move):
            return None
        legal = self.legal_notation(seat)
        return legal[0] if len(legal) == 1 else None

    def announcement_before(self, seat: int, action: A) -> A | None:
        """A move binding the seat to nothing that its player may ask to have announced for
        them just before `action`, legal there (a warning that the hand could go out next
        turn, made before the discard); None (the default): none."""
        return None

    def legal_notation(self, seat: int) -> tuple[str, ...]:
        """The offered moves of this seat now (`legal_actions`), in notation."""
        return self._remember(("notation", seat), self._notation, seat)

    def _notation(self, seat: int) -> tuple[str, ...]:
        return tuple(str(action) for action in self.legal_actions(seat))

    def check(self, seat: int, action: A) -> None:
        """Raise IllegalAction naming the rule if `seat` may not play `action` now: the judge
        of every move, listed or not. Games override this to name the precise rule; the
        default compares with legal_actions (right only when `lists_every_move`)."""
        if self.finished:
            raise IllegalAction("round_over", "The round is over.")
        if seat not in self.to_act():
            raise IllegalAction("not_your_turn", f"Seat {seat} may not act now.")
        if action not in self.legal_actions(seat):
            raise IllegalAction("illegal_action", f"{action} is not legal now.")

    def apply(self, seat: int, action: A | str) -> list[Event]:
        """Play one action of one seat; returns the events. Raises IllegalAction (state
        unchanged) for an illegal action or unparsable notation."""
        parsed: A = self.game.parse_action(action) if isinstance(action, str) else action
        self.check(seat, parsed)
        keeping = self._keeps_turn_hands
        to_act_before = self.to_act() if keeping else ()
        self._memo.clear()  # the state is about to change: what it showed is gone
        events = self._apply(seat, parsed)
        self.history.append((seat, parsed))
        if keeping and self.to_act() != to_act_before:  # a turn boundary: watchers see this
            self._turn_hands = self._hands_now()
        return events

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a round sent to a bot's worker process) without what it remembers."""
        state = self.__dict__.copy()
        state["_memo"] = {}
        return state

    def dealt(self) -> dict[str, list[Card]]:
        """What the deal gave, by label (`seat 0`, `turned`, …), asked of a round before its
        first action: hand records print it. The default is nothing (the deck order, which
        every record has, says it all)."""
        return {}

    def open_hands(self) -> dict[int, list[Card]]:
        """Every seat's cards now, face up: for replays of a hand that is over, where nothing
        is hidden any more, and, kept at each turn boundary, for watchers of a table shown
        with its hands (`keep_turn_hands`); never shown to a seat. The default is none."""
        return {}

    def record(self) -> RoundRecord:
        return RoundRecord(
            game=self.game.name,
            rules_version=self.game.rules_version,
            options=self.options.model_dump(mode="json"),
            n_seats=self.setup.n_seats,
            dealer=self.setup.dealer,
            round_no=self.setup.round_no,
            totals=self.setup.totals,
            deck=deck_codes(self.deck_order),
            actions=[(seat, str(action)) for seat, action in self.history],
        )


@dataclass(frozen=True, slots=True)
class ReviewTerms:
    """How the review of a seat's play (games/review.py, docs/review.md) weighs this game."""

    # the cost, in the game's points (see `Game.review_value`), from which a move is an
    # inaccuracy, a mistake, a blunder
    thresholds: tuple[float, float, float] = (1.0, 3.0, 6.0)
    decision_budget: float = 0.5  # seconds per decision, at most
    hand_budget: float = 7.0  # seconds for a whole hand (a hand of many decisions gives less each)


class Game(ABC, Generic[O, A, V]):
    """A rule set: the factory of rounds of one game."""

    name: ClassVar[str]  # its name in games.registry, lower case, its package's name
    title: ClassVar[str]  # the name players read
    rules_version: ClassVar[int]  # bump when a change could make an old action log illegal
    options_model: ClassVar[type[Options]]
    presets: ClassVar[Mapping[str, Options]]  # the first one is the default
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    round_class: ClassVar[type[Round[Any, Any, Any]]]
    lower_is_better: ClassVar[bool] = False  # True: the lowest total wins
    review_terms: ClassVar[ReviewTerms] = ReviewTerms()

    # -- to implement -------------------------------------------------------------------
    @abstractmethod
    def deck(self, options: O) -> list[Card]:
        """The unshuffled deck for these options."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written as `text` in this game's notation (raises NotationError)."""

    # -- defaults shared by all games ----------------------------------------------------
    def options(self, preset: str | None = None, **changes: Any) -> O:
        """A preset (the default when None) with single options changed."""
        name = preset or next(iter(self.presets))
        if name not in self.presets:
            raise ValueError(f"unknown preset {name!r} for {self.name}")
        base = self.presets[name].model_dump()
        base.update(changes)
        return self.options_model.model_validate(base)  # type: ignore[return-value]

    def sides(self, n_seats: int) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: one per seat by default; team games override (partners)."""
        return tuple((seat,) for seat in range(n_seats))

    def side_of(self, seat: int, n_seats: int) -> int:
        for index, side in enumerate(self.sides(n_seats)):
            if seat in side:
                return index
        raise ValueError(f"seat {seat} out of range")

    def seen_in(self, view: V) -> Iterable[str]:
        """The codes of the cards a seat's view shows it now (its hand, the cards face up…).

        The review gathers them over a hand to know which cards the seat has seen, and deals
        every other card anew in the worlds it plays out. A name several cards of the deck
        share, which does not tell which one was seen, is left out. The default: none."""
        return ()

    def review_value(self, points: Sequence[int], seat: int, n_seats: int) -> float:
        """A finished round's result for `seat`'s side, higher is better (what the review
        compares moves by): by default the side's points, negated when lower is better."""
        side_points = points[self.side_of(seat, n_seats)]
        return float(-side_points if self.lower_is_better else side_points)

    def check_seats(self, n_seats: int) -> None:
        if not self.min_seats <= n_seats <= self.max_seats:
            raise IllegalAction(
                "seat_count",
                f"{self.title} needs {self.min_seats} to {self.max_seats} players.",
            )

    def new_round(
        self,
        options: O,
        setup: RoundSetup,
        *,
        deck: Sequence[Card] | None = None,
        seed: int | str | None = None,
    ) -> Round[O, A, V]:
        """Deal a round from an explicit deck order (top first), or from a seeded shuffle."""
        self.check_seats(setup.n_seats)
        if deck is None:
            if seed is None:
                raise ValueError("new_round needs a deck order or a seed")
            deck = shuffled(self.deck(options), seed)
        else:
            expected = sorted(c.code for c in self.deck(options))
            if sorted(c.code for c in deck) != expected:
                raise ValueError(f"the deck order is not a full {self.title} deck")
        return self.round_class(options, setup, deck)

    def replay(
        self, record: RoundRecord, log: MutableSequence[Event] | None = None
    ) -> Round[O, A, V]:
        """Rebuild a round from its record. Raises IllegalAction if an action no longer
        parses or is illegal, ValueError for a record of another game or rules version.
        `log`, if given, gets the public events of the replayed actions, oldest first (a
        bounded deque keeps the last ones: what a table's log showed)."""
        if record.game != self.name:
            raise ValueError(f"record of {record.game!r}, not {self.name!r}")
        if record.rules_version != self.rules_version:
            raise ValueError(
                f"record made with {self.name} rules v{record.rules_version}, "
                f"these are v{self.rules_version}"
            )
        options = self.options_model.model_validate(record.options)
        setup = RoundSetup(
            n_seats=record.n_seats,
            dealer=record.dealer,
            round_no=record.round_no,
            totals=tuple(record.totals),
        )
        round_ = self.new_round(options, setup, deck=deck_from_codes(record.deck))  # type: ignore[arg-type]
        for seat, notation in record.actions:
            events = round_.apply(seat, notation)
            if log is not None:
                log.extend(e for e in events if e.to is None)
        return round_

    def match_winners(self, totals: Sequence[int], target: int) -> tuple[int, ...] | None:
        """The winning sides once the match is over, else None. Default: the match ends after
        the round in which any side reaches the target; best total wins, ties share the win.
        Games with other end rules override this."""
        if not any(t >= target for t in totals):
            return None
        best = min(totals) if self.lower_is_better else max(totals)
        return tuple(i for i, t in enumerate(totals) if t == best)
