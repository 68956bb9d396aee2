"""The Dutch round: both rule sets, driven by DutchOptions (docs/rules/dutch.md, classic and house).

State is plain lists and ints for speed: `grids[seat][slot - 1]` is a Card or None (an emptied
slot); the stock and the discard pile are lists whose top is the last item. Legal actions are
cached until the next action; `check` validates before anything mutates. The decisions taken
where the rules are silent (dealing, matching, penalties, the 9 given away, the reshuffle's
seed) are listed in games/dutch/README.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from games.cards import Card, shuffled
from games.contract import Event, Round, RoundResult, RoundSetup
from games.dutch import actions as act
from games.dutch.actions import DutchAction
from games.dutch.options import FAILED_CALL_PENALTY, DutchOptions, card_value
from games.dutch.views import PHASES, DecisionView, DutchView, Reveal, SeatScore, SlotView
from games.errors import IllegalAction

PEEK, START, DRAWN, POWER, END, OVER = range(6)
FROM_STOCK, FROM_DISCARD, FROM_NINE = 0, 1, 2
HELD_FROM = ("stock", "discard", "nine")
GRID_SIZE = 4
DEFAULT_PEEK = (3, 4)  # the bottom row, "the two nearest"
LOG_LENGTH = 12  # public events kept in views
_QUEEN, _JACK = "queen", "jack"


_HIDDEN_GRIDS: dict[tuple[bool, ...], tuple[SlotView, ...]] = {}


def _hidden_grid(grid: list[Card | None]) -> tuple[SlotView, ...]:
    """The view of a grid with no card shown (shared: views are immutable)."""
    key = tuple(c is None for c in grid)
    found = _HIDDEN_GRIDS.get(key)
    if found is None:
        found = tuple(SlotView(i + 1, empty, None) for i, empty in enumerate(key))
        if len(_HIDDEN_GRIDS) < 4096:
            _HIDDEN_GRIDS[key] = found
    return found


class DutchRound(Round[DutchOptions, DutchAction, DutchView]):
    def __init__(self, options: DutchOptions, setup: RoundSetup, deck: Sequence[Card]) -> None:
        super().__init__(options, setup, deck)
        n = setup.n_seats
        self.n = n
        self.queen_jack = options.queen_jack_powers
        self.seven_nine = options.seven_nine_powers
        self.matching = options.matching_discards
        self.call_at_start = options.dutch_call == "start_of_turn"
        cards = list(deck)
        self.grids: list[list[Card | None]] = [
            list[Card | None](cards[GRID_SIZE * s : GRID_SIZE * s + GRID_SIZE]) for s in range(n)
        ]
        self.discard: list[Card] = [cards[GRID_SIZE * n]]
        self.stock: list[Card] = cards[GRID_SIZE * n + 1 :][::-1]
        self.dealer = setup.dealer % n
        self.first = self._first_player()
        self.turn = self.first
        self.phase = PEEK
        self.peeked = [False] * n
        self.waiting_peeks = n
        self.held: Card | None = None
        self.held_from = -1
        self.draw_power = False  # a stock-drawn 7 or 9 whose power is still unused
        self.seven_shown = False
        self.power: str | None = None  # pending Queen/Jack power (phase POWER)
        self.turn_acted = False
        self.laid_wrong: set[int] = set()  # slots laid wrong this turn
        self.caller: int | None = None
        self.final_left = 0
        self.reshuffles = 0
        self.events: list[Event] = []
        self.log: list[Event] = []
        self.reveals: list[tuple[int | None, Reveal]] = []  # (to seat or None=all, reveal)
        self.totals: list[int] | None = None
        self.points: list[int] | None = None
        self.caller_succeeded: bool | None = None
        self._legal: list[DutchAction] | None = None
        self._legal_seat = -1
        # per seat, the grid's view with nothing shown; reset when the grid's shape changes
        self._hidden_views: list[tuple[SlotView, ...] | None] = [None] * n
        self._own_slots: list[tuple[int, ...] | None] = [None] * n  # non-empty slots, same reset
        self._emit(
            Event("deal", None, {"dealer": self.dealer, "first": self.first, "card": self.top})
        )

    # -- setup -----------------------------------------------------------------------------
    def _first_player(self) -> int:
        n, dealer = self.n, self.dealer
        totals = self.setup.totals
        if self.options.first_player == "highest_total" and len(totals) == n:
            order = [(dealer + 1 + i) % n for i in range(n)]
            best = max(totals)
            return next(s for s in order if totals[s] == best)
        return (dealer + 1) % n

    @property
    def top(self) -> str | None:
        return self.discard[-1].name if self.discard else None

    # -- the contract ------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.phase == PEEK:
            return tuple(s for s in range(self.n) if not self.peeked[s])
        if self.phase == OVER:
            return ()
        return (self.turn,)

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> list[DutchAction]:
        return list(self._legal_for(seat))

    def _legal_for(self, seat: int) -> list[DutchAction]:
        if self._legal is not None and self._legal_seat == seat:
            return self._legal
        phase = self.phase
        if phase == OVER:
            return []
        if phase == PEEK:
            if not 0 <= seat < self.n or self.peeked[seat]:
                return []
        elif seat != self.turn:
            return []
        legal = self._generate(seat)
        self._legal, self._legal_seat = legal, seat
        return legal

    def _generate(self, seat: int) -> list[DutchAction]:
        phase = self.phase
        grid = self.grids[seat]
        own = [i + 1 for i, c in enumerate(grid) if c is not None]
        if phase == PEEK:
            if not self.options.peek_choice:
                return [act.peek(*DEFAULT_PEEK)]
            return [act.peek(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
        if phase == START:
            legal: list[DutchAction] = []
            if self.call_at_start and self.caller is None and not self.turn_acted:
                legal.append(act.CALL_DUTCH)
            if self.stock or len(self.discard) > 1:
                legal.append(act.DRAW)
            if self.discard and own:
                legal.append(act.TAKE)
            if not legal:
                legal.append(act.END)
            if self.matching and self.discard:
                legal += [act.match(k) for k in own if k not in self.laid_wrong]
            return legal
        if phase == DRAWN:
            legal = [act.DISCARD] if self.held_from != FROM_DISCARD else []
            legal += [act.swap(k) for k in own]
            if self.draw_power:
                if self.held.rank == "7":  # type: ignore[union-attr]
                    legal += [act.seven(k) for k in own]
                else:
                    targets = self._opponent_slots(seat)
                    legal += [act.nine(None, s, t) for s, t in targets]
                    legal += [act.nine(k, s, t) for k in own for s, t in targets]
            return legal
        if phase == POWER:
            legal = [act.SKIP]
            if self.power == _QUEEN:
                legal += [
                    act.look(s, i + 1)
                    for s in range(self.n)
                    for i, c in enumerate(self.grids[s])
                    if c is not None
                ]
            else:
                targets = self._opponent_slots(seat)
                legal += [act.jack(k, s, t) for k in own for s, t in targets]
            return legal
        # END
        legal = []
        if self.matching:
            legal += [act.match(k) for k in own if k not in self.laid_wrong]
        if not self.call_at_start and self.caller is None:
            legal.append(act.CALL_DUTCH)
        legal.append(act.END)
        return legal

    def _opponent_slots(self, seat: int) -> list[tuple[int, int]]:
        return [
            (s, i + 1)
            for s in range(self.n)
            if s != seat
            for i, c in enumerate(self.grids[s])
            if c is not None
        ]

    def check(self, seat: int, action: DutchAction) -> None:
        if self.phase == OVER:
            raise IllegalAction("round_over", "The round is over.")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction("no_such_seat", f"There is no seat {seat}.")
        if self.phase == PEEK:
            if self.peeked[seat]:
                raise IllegalAction("already_peeked", "You have already looked at two cards.")
        elif seat != self.turn:
            raise IllegalAction("not_your_turn", f"It is seat {self.turn}'s turn.")
        if action not in self._legal_for(seat):
            raise self._diagnose(seat, action)

    # -- why an action is illegal (the slow path, for a clear answer) -------------------------
    def _diagnose(self, seat: int, action: object) -> IllegalAction:
        phase = self.phase
        if not isinstance(action, act.ACTION_TYPES):
            return IllegalAction("bad_notation", f"{action!r} is not a Dutch action.")
        kind = action.kind
        if phase == PEEK:
            if kind != "peek":
                return IllegalAction("peek_first", "Every player first looks at two own cards.")
            return IllegalAction(
                "peek_slots",
                "Pick two different slots from 1 to 4."
                if self.options.peek_choice
                else "The initial peek is the bottom row: `peek 3 4`.",
            )
        if kind == "peek":
            return IllegalAction("peek_over", "The initial peek is over.")
        grid_slots = self._slot_problem(seat, action)
        if grid_slots is not None:
            return grid_slots
        if kind == "dutch":
            if self.caller is not None:
                return IllegalAction("dutch_already_called", "Dutch has already been called.")
            if self.call_at_start:
                return IllegalAction(
                    "dutch_at_start", "Dutch is called at the very start of your turn."
                )
            return IllegalAction("dutch_at_end", "Dutch is called at the end of your turn.")
        if kind == "discard" and phase == DRAWN:
            return IllegalAction(
                "must_swap_taken", "A card taken from the discard pile must be swapped in."
            )
        if kind == "take" and phase == START:
            return IllegalAction("no_card_to_swap", "You have no card to swap the taken card with.")
        if kind == "draw" and phase == START:
            return IllegalAction("stock_empty", "The stock and the discard pile are empty.")
        if kind in ("seven", "nine"):
            return IllegalAction("no_power", "That power needs a 7 or 9 just drawn from the stock.")
        if kind in ("look", "jack") and phase == POWER:
            return IllegalAction("wrong_power", f"Your power is the {self.power}'s.")
        if kind == "match":
            if not self.matching:
                return IllegalAction("no_matching", "Matching discards are not played here.")
            return IllegalAction("laid_wrong", "That card was already laid wrongly this turn.")
        return IllegalAction("wrong_phase", f"`{action}` is not possible now ({PHASES[phase]}).")

    def _slot_problem(self, seat: int, action: Any) -> IllegalAction | None:
        """A named rule for a slot that does not exist, is empty, or is not the right owner's."""
        own = getattr(action, "slot", None)
        if own is not None and action.kind != "look":
            problem = self._missing(seat, own)
            if problem:
                return problem
        target = getattr(action, "target_slot", None)
        if target is not None or action.kind == "look":
            target_seat = action.seat
            if not 0 <= target_seat < self.n:
                return IllegalAction("no_such_seat", f"There is no seat {target_seat}.")
            if action.kind != "look" and target_seat == seat:
                return IllegalAction("not_an_opponent", "Swap with an opponent's card.")
            return self._missing(target_seat, action.slot if target is None else target)
        return None

    def _missing(self, seat: int, slot: int) -> IllegalAction | None:
        grid = self.grids[seat]
        if not 1 <= slot <= len(grid):
            return IllegalAction("no_such_slot", f"Seat {seat} has no slot {slot}.")
        if grid[slot - 1] is None:
            return IllegalAction("empty_slot", f"Seat {seat}'s slot {slot} is empty.")
        return None

    # -- applying ----------------------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        self.events.append(event)
        if event.to is None:
            self.log.append(event)

    def _apply(self, seat: int, action: DutchAction) -> list[Event]:
        start = len(self.events)
        self.reveals = []
        self._legal = None
        kind = action.kind
        handler = getattr(self, "_do_" + kind)
        handler(seat, action)
        return self.events[start:]

    def _reveal(self, to: int | None, owner: int, slot: int, by: str) -> None:
        card = self.grids[owner][slot - 1]
        assert card is not None
        reveal = Reveal(owner, slot, card.name, by)
        self.reveals.append((to, reveal))
        if to is not None:
            data = {"seat": owner, "slot": slot, "card": card.name, "by": by}
            self._emit(Event("see", to, data, frozenset((to,))))

    def _do_peek(self, seat: int, action: act.Peek) -> None:
        self.peeked[seat] = True
        self.waiting_peeks -= 1
        self._emit(Event("peek", seat, {"slots": [action.first, action.second]}))
        self._reveal(seat, seat, action.first, "peek")
        self._reveal(seat, seat, action.second, "peek")
        if self.waiting_peeks == 0:
            self._begin_turn(self.first)

    def _do_dutch(self, seat: int, action: act.CallDutch) -> None:
        self.caller = seat
        self.final_left = self.n - 1
        self._emit(Event("dutch", seat))
        self._end_turn()

    def _pop_stock(self) -> Card | None:
        if not self.stock:
            if len(self.discard) <= 1:
                return None
            top = self.discard.pop()
            self.reshuffles += 1
            seed = f"dutch-reshuffle:{self.reshuffles}:" + ",".join(c.code for c in self.discard)
            self.stock = shuffled(self.discard, seed)
            self.discard = [top]
            self._emit(Event("reshuffle", None, {"stock": len(self.stock)}))
        return self.stock.pop()

    def _do_draw(self, seat: int, action: act.Draw) -> None:
        card = self._pop_stock()
        assert card is not None
        self.held, self.held_from = card, FROM_STOCK
        self.draw_power = self.seven_nine and card.rank in ("7", "9")
        self.turn_acted = True
        self.phase = DRAWN
        self._emit(Event("draw", seat, {"stock": len(self.stock)}))
        self._emit(Event("drawn", seat, {"card": card.name}, frozenset((seat,))))

    def _do_take(self, seat: int, action: act.Take) -> None:
        card = self.discard.pop()
        self.held, self.held_from = card, FROM_DISCARD
        self.turn_acted = True
        self.phase = DRAWN
        self._emit(Event("take", seat, {"card": card.name}))

    def _do_swap(self, seat: int, action: act.Swap) -> None:
        grid = self.grids[seat]
        out = grid[action.slot - 1]
        assert out is not None
        grid[action.slot - 1] = self.held
        self.discard.append(out)
        self._drop_held()
        self._emit(Event("swap", seat, {"slot": action.slot, "card": out.name}))
        self._after_discard(seat)

    def _drop_held(self) -> None:
        self.held = None
        self.held_from = -1
        self.draw_power = False
        self.seven_shown = False

    def _do_discard(self, seat: int, action: act.Discard) -> None:
        card = self.held
        assert card is not None
        from_stock = self.held_from == FROM_STOCK
        self.discard.append(card)
        self._drop_held()
        self._emit(Event("discard", seat, {"card": card.name}))
        if self.queen_jack and from_stock and card.rank in ("Q", "J"):
            power = _QUEEN if card.rank == "Q" else _JACK
            has_target = (
                any(c is not None for g in self.grids for c in g)
                if power == _QUEEN
                else bool(self._opponent_slots(seat))
                and any(c is not None for c in self.grids[seat])
            )
            if has_target:
                self.power = power
                self.phase = POWER
                return
        self._after_discard(seat)

    def _do_look(self, seat: int, action: act.Look) -> None:
        self.power = None
        self._emit(Event("look", seat, {"seat": action.seat, "slot": action.slot}))
        self._reveal(seat, action.seat, action.slot, "look")
        self._after_discard(seat)

    def _exchange(self, seat: int, slot: int, other: int, other_slot: int) -> None:
        mine, theirs = self.grids[seat], self.grids[other]
        mine[slot - 1], theirs[other_slot - 1] = theirs[other_slot - 1], mine[slot - 1]

    def _do_jack(self, seat: int, action: act.JackSwap) -> None:
        self.power = None
        self._exchange(seat, action.slot, action.seat, action.target_slot)
        data = {"slot": action.slot, "seat": action.seat, "target_slot": action.target_slot}
        self._emit(Event("jack", seat, data))
        self._after_discard(seat)

    def _do_skip(self, seat: int, action: act.Skip) -> None:
        self.power = None
        self._emit(Event("skip", seat))
        self._after_discard(seat)

    def _do_seven(self, seat: int, action: act.Seven) -> None:
        assert self.held is not None
        self.draw_power = False
        self.seven_shown = True
        self._emit(Event("seven", seat, {"card": self.held.name, "slot": action.slot}))
        self._reveal(seat, seat, action.slot, "seven")

    def _do_nine(self, seat: int, action: act.Nine) -> None:
        nine = self.held
        assert nine is not None
        self.draw_power = False
        data = {
            "card": nine.name,
            "slot": action.slot,
            "seat": action.seat,
            "target_slot": action.target_slot,
        }
        self._emit(Event("nine", seat, data))
        if action.slot is None:
            theirs = self.grids[action.seat]
            self.held = theirs[action.target_slot - 1]
            self.held_from = FROM_NINE
            theirs[action.target_slot - 1] = nine
            return
        self._exchange(seat, action.slot, action.seat, action.target_slot)
        self.discard.append(nine)
        self._drop_held()
        self._emit(Event("discard", seat, {"card": nine.name}))
        self._after_discard(seat)

    def _do_match(self, seat: int, action: act.Match) -> None:
        grid = self.grids[seat]
        slot = action.slot
        card = grid[slot - 1]
        assert card is not None
        ok = card.rank == self.discard[-1].rank
        self.turn_acted = True
        self._emit(Event("match", seat, {"slot": slot, "card": card.name, "ok": ok}))
        self._hidden_views[seat] = None
        self._own_slots[seat] = None
        if ok:
            grid[slot - 1] = None
            self.discard.append(card)
        else:
            self._reveal(None, seat, slot, "match")
            self.laid_wrong.add(slot)
            penalty = self._pop_stock()
            if penalty is None:
                self._emit(Event("no_penalty", seat))
            else:
                grid.append(penalty)
                self._emit(Event("penalty", seat, {"slot": len(grid)}))
        if self.phase == END:
            self._end_turn_unless_a_choice_remains(seat)

    def _do_end(self, seat: int, action: act.End) -> None:
        self._emit(Event("end", seat))
        self._end_turn()

    # -- turn flow ---------------------------------------------------------------------------
    def _after_discard(self, seat: int) -> None:
        """The discard is done: the turn ends unless matching or a Dutch call remains."""
        self.phase = END
        self._end_turn_unless_a_choice_remains(seat)

    def _end_turn_unless_a_choice_remains(self, seat: int) -> None:
        legal = self._generate(seat)
        if legal == [act.END]:
            self._end_turn()
        else:  # the state stays as it is until the seat's next action: keep its legal actions
            self._legal, self._legal_seat = legal, seat

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = START
        self.turn_acted = False
        self.laid_wrong = set()
        self._emit(Event("turn", seat))

    def _end_turn(self) -> None:
        if self.caller is not None and self.turn != self.caller:
            self.final_left -= 1
            if self.final_left == 0:
                self._finish()
                return
        self._begin_turn((self.turn + 1) % self.n)

    def _finish(self) -> None:
        self.phase = OVER
        options = self.options
        totals = [sum(card_value(c, options) for c in g if c is not None) for g in self.grids]
        points = list(totals)
        caller = self.caller
        if caller is not None:
            mine = totals[caller]
            succeeded = all(t >= mine for s, t in enumerate(totals) if s != caller)
            self.caller_succeeded = succeeded
            if succeeded:
                if self.options.caller_success == "zero":
                    points[caller] = 0
            elif self.options.failed_call == "double":
                points[caller] = max(2 * mine, mine)
            else:
                points[caller] = mine + FAILED_CALL_PENALTY
        self.totals, self.points = totals, points
        cards = [[c.name if c is not None else None for c in g] for g in self.grids]
        data = {
            "cards": cards,
            "totals": totals,
            "points": points,
            "caller": caller,
            "caller_succeeded": self.caller_succeeded,
        }
        self._emit(Event("round_end", None, data))

    def result(self) -> RoundResult:
        if self.points is None or self.totals is None:
            raise IllegalAction("round_not_over", "The round is not over.")
        detail = {
            "totals": list(self.totals),
            "caller": self.caller,
            "caller_succeeded": self.caller_succeeded,
        }
        return RoundResult(points=tuple(self.points), detail=detail)

    recalls_sights: ClassVar[bool] = True

    def recall(self, seat: int, seen: Sequence[Event]) -> list[Event | None]:
        """A card a rule showed `seat` (a `see` event), at the place `seat` knows it has now:
        it follows the public moves since (a Jack's or a 9's exchange carries it to another
        grid), and is lost once `seat` cannot tell where it is (swapped out, matched away)."""
        from games.dutch.knowledge import knowledge_of  # it reads rounds: imported on use

        places = {name: place for place, name in knowledge_of(self, seat).cards.items()}
        recalled: list[Event | None] = []
        for event in seen:
            card = event.data.get("card")
            place = places.get(card) if event.kind == "see" and isinstance(card, str) else None
            if place is None:
                recalled.append(None)
                continue
            data = {**event.data, "seat": place[0], "slot": place[1]}
            recalled.append(Event("see", seat, data, frozenset((seat,))))
        return recalled

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: int) -> DutchView:
        if not 0 <= seat < self.n:
            raise ValueError(f"there is no seat {seat}")
        return self._remember(seat, self._view, seat)

    def _hidden_view(self, seat: int) -> tuple[SlotView, ...]:
        found = self._hidden_views[seat]
        if found is None:
            found = self._hidden_views[seat] = _hidden_grid(self.grids[seat])
        return found

    def public_view(self) -> DutchView:
        return self._remember(None, self._view, None)

    def open_hands(self) -> dict[int, list[Card]]:
        return {s: [c for c in grid if c is not None] for s, grid in enumerate(self.grids)}

    def dealt(self) -> dict[str, list[Card]]:
        grids = {
            f"seat {s}": [c for c in grid if c is not None] for s, grid in enumerate(self.grids)
        }
        return {**grids, "discard": list(self.discard)}

    def decision_view(self, seat: int) -> DecisionView:
        """`DecisionView.of(self.view(seat))`, built without the rest of the view: what a bot
        player reads for every decision."""
        if not 0 <= seat < self.n:
            raise ValueError(f"there is no seat {seat}")
        held, power = self._held_and_power(seat)
        own = self._own_slots[seat]
        if own is None:
            own = self._own_slots[seat] = tuple(
                i + 1 for i, c in enumerate(self.grids[seat]) if c is not None
            )
        legal = self._legal_for(seat)
        return DecisionView(
            seat, self.n, PHASES[self.phase], self.top, held, power, tuple(legal), own
        )

    def _held_and_power(self, viewer: int | None) -> tuple[str | None, str | None]:
        """The held card's name if `viewer` may know it, and the power `viewer` sees pending."""
        held = self.held
        held_name = None
        power = None
        if held is not None:
            public = self.held_from == FROM_DISCARD or self.seven_shown
            if public or (viewer == self.turn and self.held_from == FROM_STOCK):
                held_name = held.name
            if viewer == self.turn and self.draw_power:
                power = "seven" if held.rank == "7" else "nine"
        if self.phase == POWER:
            power = self.power
        return held_name, power

    def _view(self, viewer: int | None) -> DutchView:
        over = self.phase == OVER
        shown: dict[tuple[int, int], str] = {}
        reveals = []
        for to, reveal in self.reveals:
            if to is None or to == viewer:
                reveals.append(reveal)
            if to is not None and to == viewer:
                # a card shown to all (a wrong matching card) is face down again: it is in
                # `reveals` and the log, never in a grid
                shown[(reveal.seat, reveal.slot)] = reveal.card
        shown_seats = {seat for seat, _ in shown}
        grids = tuple(
            tuple(
                SlotView(
                    i + 1,
                    c is None,
                    None if c is None else c.name if over else shown.get((s, i + 1)),
                )
                for i, c in enumerate(grid)
            )
            if over or s in shown_seats
            else self._hidden_view(s)
            for s, grid in enumerate(self.grids)
        )
        held = self.held
        held_name, power = self._held_and_power(viewer)
        in_turn = self.phase in (START, DRAWN, POWER, END)
        scores = None
        if over and self.totals is not None and self.points is not None:
            scores = tuple(SeatScore(s, self.totals[s], self.points[s]) for s in range(self.n))
        final: tuple[int, ...] = ()
        if self.caller is not None and not over:
            remaining = self.final_left
            order = [(self.turn + i) % self.n for i in range(self.n)]
            final = tuple(s for s in order if s != self.caller)[:remaining]
        return DutchView.build(
            viewer=viewer,
            n_seats=self.n,
            phase=PHASES[self.phase],
            turn=self.turn if in_turn else None,
            to_act=self.to_act(),
            dealer=self.dealer,
            first_player=self.first,
            stock=len(self.stock),
            discard_top=self.top,
            discard_size=len(self.discard),
            grids=grids,
            peeked=tuple(self.peeked),
            dutch_caller=self.caller,
            final_turns=final,
            held_from=HELD_FROM[self.held_from] if held is not None else None,
            held=held_name,
            power=power,
            legal=tuple(self._legal_for(viewer)) if viewer is not None else (),
            reveals=tuple(reveals),
            log=tuple(self.log[-LOG_LENGTH:]),
            scores=scores,
            caller_succeeded=self.caller_succeeded,
        )
