"""One Euchre hand (docs/rules/euchre.md): deal, two bidding rounds, the pick-up, five tricks.

State changes only in `_apply`, after `check` has named any broken rule, so an illegal action
changes nothing. Card lookups go through the per-trump tables of `ranking` (hot path).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.cards import Card
from games.contract import Event, Round, RoundResult, RoundSetup
from games.errors import IllegalAction
from games.euchre.actions import (
    CALL,
    CALL_ALONE,
    CALL_KIND,
    DISCARD,
    DISCARD_KIND,
    ORDER,
    ORDER_ALONE,
    ORDER_KIND,
    PASS,
    PASS_KIND,
    PLAY,
    PLAY_KIND,
    EuchreAction,
)
from games.euchre.deal import deal, deal_without_farmers_hand
from games.euchre.options import EuchreOptions
from games.euchre.ranking import EFFECTIVE, POWER, lowest_discard, trick_winner
from games.euchre.scoring import score_hand
from games.euchre.views import (
    DEALER_DISCARD,
    NAME_TRUMP,
    ORDER_UP,
    OVER,
    PLAYING,
    EuchreView,
)

N_TRICKS = 5
_EXPECTED_KIND = {
    ORDER_UP: (PASS_KIND, ORDER_KIND),
    NAME_TRUMP: (PASS_KIND, CALL_KIND),
    DEALER_DISCARD: (DISCARD_KIND,),
    PLAYING: (PLAY_KIND,),
}
_PHASE_HINT = {
    ORDER_UP: "In the first bidding round you pass or order up (order, order alone).",
    NAME_TRUMP: "In the second bidding round you pass or name a suit (call H, call H alone).",
    DEALER_DISCARD: "The dealer must discard one card first (discard 9C).",
    PLAYING: "Bidding is over: play a card (play JD).",
}


class EuchreRound(Round[EuchreOptions, EuchreAction, EuchreView]):
    # A card that is a seat's only legal play (its last, or its only card of the led suit)
    # decides nothing: its player may have it played for them.
    plays_forced_moves = True

    def __init__(self, options: EuchreOptions, setup: RoundSetup, deck: Sequence[Card]) -> None:
        super().__init__(options, setup, deck)
        dealer = setup.dealer % 4
        self.dealer = dealer
        if options.farmers_hand:
            hands, turned, buried, dealt, redeals = deal_without_farmers_hand(deck, dealer)
        else:
            (hands, turned, buried), dealt, redeals = deal(deck, dealer), tuple(deck), 0
        self.hands: list[list[Card]] = hands
        self.turned = turned
        self.buried = buried  # face down, seen by no one
        self.dealt_deck: tuple[Card, ...] = dealt  # the order actually dealt (after redeals)
        self.farmers_redeals = redeals
        self.phase = ORDER_UP
        self.turn: int | None = (dealer + 1) % 4
        self.passes = 0
        self.bids: list[tuple[int, EuchreAction]] = []
        self.trump: str | None = None
        self.maker: int | None = None
        self.alone = False
        self.sitting_out = -1  # -1: everyone plays
        self.picked_up = False
        self.discarded: Card | None = None
        self.trick: list[tuple[int, Card]] = []
        self.led: str | None = None  # effective suit of the trick's led card
        self.tricks: list[tuple[tuple[int, Card], ...]] = []
        self.trick_winners: list[int] = []
        self.tricks_won = [0, 0]
        self.redeal = False
        # `bids` and `tricks` as views show them, grown with them: every view shows both
        self._bid_views: tuple[tuple[int, str], ...] = ()
        self._trick_views: tuple[tuple[tuple[int, str], ...], ...] = ()
        self._eff: dict[Card, str] = {}
        self._result: RoundResult | None = None

    # -- turn order ------------------------------------------------------------------------
    def _next_active(self, seat: int) -> int:
        nxt = (seat + 1) % 4
        return (nxt + 1) % 4 if nxt == self.sitting_out else nxt

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    def to_act(self) -> tuple[int, ...]:
        return () if self.turn is None else (self.turn,)

    # -- legality ----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[EuchreAction]:
        if seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAYING:
            hand = self.hands[seat]
            if self.trick:
                eff, led = self._eff, self.led
                follow = [PLAY[c] for c in hand if eff[c] == led]
                if follow:
                    return follow
            return [PLAY[c] for c in hand]
        if phase == ORDER_UP:
            return [PASS, ORDER, ORDER_ALONE]
        if phase == NAME_TRUMP:
            turned_suit = self.turned.suit
            actions = [] if self._dealer_is_stuck(seat) else [PASS]
            for suit, call in CALL.items():
                if suit != turned_suit:
                    actions.append(call)
                    actions.append(CALL_ALONE[suit])
            return actions
        if phase == DEALER_DISCARD:
            turned = self.turned
            return [DISCARD[c] for c in self.hands[seat] if c is not turned]
        return []

    def _dealer_is_stuck(self, seat: int) -> bool:
        return self.options.stick_the_dealer and seat == self.dealer

    def check(self, seat: int, action: EuchreAction) -> None:
        phase = self.phase
        if phase == OVER:
            raise IllegalAction("round_over", "The round is over.")
        if seat != self.turn:
            raise IllegalAction(
                "not_your_turn", f"It is seat {self.turn}'s turn, not seat {seat}'s."
            )
        if not isinstance(action, EuchreAction):
            raise IllegalAction("bad_action", f"{action!r} is not a Euchre action.")
        kind = action.kind
        if kind not in _EXPECTED_KIND[phase]:
            raise IllegalAction("wrong_phase", _PHASE_HINT[phase])
        if kind == PLAY_KIND:
            c = action.card
            hand = self.hands[seat]
            if c not in hand:
                raise IllegalAction("not_in_hand", f"You do not hold {c}.")
            if self.trick:
                eff, led = self._eff, self.led
                if eff[c] != led and any(eff[h] == led for h in hand):
                    raise IllegalAction(
                        "must_follow_suit",
                        f"You must follow the led suit ({led}, the left bower counting as trump).",
                    )
        elif kind == CALL_KIND:
            if action.suit == self.turned.suit:
                raise IllegalAction(
                    "turned_suit_refused",
                    f"{action.suit} was turned down in the first round and cannot be named.",
                )
        elif kind == PASS_KIND:
            if phase == NAME_TRUMP and self._dealer_is_stuck(seat):
                raise IllegalAction(
                    "stick_the_dealer", "Stick the dealer: the dealer must name a suit."
                )
        elif kind == DISCARD_KIND:
            c = action.card
            if c is self.turned:
                raise IllegalAction(
                    "keep_turned_card", "The dealer keeps the turned card; discard a dealt card."
                )
            if c not in self.hands[seat]:
                raise IllegalAction("not_in_hand", f"You do not hold {c}.")

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, seat: int, action: EuchreAction) -> list[Event]:
        kind = action.kind
        if kind == PLAY_KIND:
            return self._play(seat, action.card)  # type: ignore[arg-type]
        if kind == DISCARD_KIND:
            return self._discard(seat, action.card)  # type: ignore[arg-type]
        self.bids.append((seat, action))
        self._bid_views += ((seat, str(action)),)
        events = [Event("bid", seat, {"action": str(action)})]
        if kind == PASS_KIND:
            self.passes += 1
            if self.passes == 8:  # everyone passed twice: only without stick the dealer
                return events + self._end_with_redeal()
            if self.passes == 4:
                self.phase = NAME_TRUMP
            self.turn = (seat + 1) % 4
            return events
        if kind == ORDER_KIND:
            return events + self._make_trump(seat, self.turned.suit, action.alone, pick_up=True)
        return events + self._make_trump(seat, action.suit, action.alone, pick_up=False)  # type: ignore[arg-type]

    def _make_trump(self, seat: int, trump: str, alone: bool, *, pick_up: bool) -> list[Event]:
        self.trump, self.maker, self.alone = trump, seat, alone
        self._eff = EFFECTIVE[trump]
        if alone:
            self.sitting_out = (seat + 2) % 4
        events = [Event("trump", seat, {"trump": trump, "alone": alone})]
        dealer = self.dealer
        # The dealer's partner going alone in round 1 means the dealer sits out: no pick-up.
        if pick_up and self.sitting_out != dealer:
            self.hands[dealer].append(self.turned)
            self.picked_up = True
            events.append(Event("pick_up", dealer, {"card": self.turned.name}))
            if self.options.dealer_discard == "auto":
                dealt_five = self.hands[dealer][:-1]
                return events + self._discard(dealer, lowest_discard(dealt_five, trump))
            self.phase = DEALER_DISCARD
            self.turn = dealer
            return events
        return events + self._start_play()

    def _discard(self, seat: int, c: Card) -> list[Event]:
        self.hands[seat].remove(c)
        self.discarded = c
        events = [
            Event("discard", seat, {"card": c.name}, frozenset({seat})),
            Event("dealer_discarded", seat),
        ]
        return events + self._start_play()

    def _start_play(self) -> list[Event]:
        self.phase = PLAYING
        self.turn = self._next_active(self.dealer)
        return [Event("lead", self.turn)]

    def _play(self, seat: int, c: Card) -> list[Event]:
        self.hands[seat].remove(c)
        trick = self.trick
        trick.append((seat, c))
        if len(trick) == 1:
            self.led = self._eff[c]
        events = [Event("play", seat, {"card": c.name})]
        if len(trick) < (3 if self.alone else 4):
            self.turn = self._next_active(seat)
            return events
        winner = trick_winner(trick, self.trump)  # type: ignore[arg-type]
        self.tricks.append(tuple(trick))
        self._trick_views += (tuple((s, x.name) for s, x in trick),)
        self.trick_winners.append(winner)
        self.tricks_won[winner & 1] += 1
        self.trick = []
        self.led = None
        events.append(Event("trick", winner, {"cards": [x.name for _, x in trick]}))
        if len(self.tricks) == N_TRICKS:
            return events + self._end_scored()
        self.turn = winner
        return events

    # -- the end ---------------------------------------------------------------------------------
    def _end_scored(self) -> list[Event]:
        maker = self.maker
        assert maker is not None
        makers = maker & 1
        maker_points, defender_points, outcome = score_hand(self.tricks_won[makers], self.alone)
        points = [0, 0]
        points[makers] = maker_points
        points[1 - makers] = defender_points
        detail: dict[str, Any] = {
            "redeal": False,
            "trump": self.trump,
            "maker": maker,
            "alone": self.alone,
            "tricks": list(self.tricks_won),
            "outcome": outcome,
            "farmers_redeals": self.farmers_redeals,
        }
        return self._finish(RoundResult(points=(points[0], points[1]), detail=detail))

    def _end_with_redeal(self) -> list[Event]:
        self.redeal = True
        detail = {"redeal": True, "farmers_redeals": self.farmers_redeals}
        return [
            Event("redeal", None, {"reason": "all_passed"}),
            *self._finish(RoundResult(points=(0, 0), detail=detail)),
        ]

    def _finish(self, result: RoundResult) -> list[Event]:
        self._result = result
        self.phase = OVER
        self.turn = None
        return [Event("round_over", None, {"points": list(result.points), **result.detail})]

    def open_hands(self) -> dict[int, list[Card]]:
        return {s: list(hand) for s, hand in enumerate(self.hands)}

    def dealt(self) -> dict[str, list[Card]]:
        hands = {f"seat {s}": list(hand) for s, hand in enumerate(self.hands)}
        return {**hands, "turned": [self.turned]}

    def result(self) -> RoundResult:
        if self._result is None:
            raise IllegalAction("round_not_over", "The round is not over.")
        return self._result

    # -- views ---------------------------------------------------------------------------------
    def view(self, seat: int) -> EuchreView:
        if not 0 <= seat < 4:
            raise ValueError(f"there is no seat {seat}")
        return self._remember(seat, self._view, seat)

    def public_view(self) -> EuchreView:
        return self._remember(None, self._view, None)

    def _view(self, seat: int | None) -> EuchreView:
        hand: tuple[str, ...] = ()
        discard = None
        legal: tuple[str, ...] = ()
        if seat is not None:
            hand = tuple(c.name for c in self._sorted(self.hands[seat]))
            if seat == self.dealer and self.discarded is not None:
                discard = self.discarded.name
            legal = self.legal_notation(seat)
        points = self._result.points if self._result is not None else (0, 0)
        return EuchreView(
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.turn,
            hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands),
            turned=self.turned.name,
            picked_up=self.picked_up,
            bids=self._bid_views,
            trump=self.trump,
            maker=self.maker,
            alone=self.alone,
            sitting_out=None if self.sitting_out < 0 else self.sitting_out,
            trick=tuple((s, c.name) for s, c in self.trick),
            tricks=self._trick_views,
            trick_winners=tuple(self.trick_winners),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            points=(points[0], points[1]),
            totals=tuple(self.setup.totals),
            discard=discard,
            legal=legal,
            farmers_redeals=self.farmers_redeals,
            redeal=self.redeal,
        )

    def _sorted(self, hand: list[Card]) -> list[Card]:
        """Trumps first (strongest first), then suits in ♠ ♥ ♦ ♣ order, high to low."""
        trump = self.trump
        if trump is None:
            return sorted(hand, key=lambda c: ("SHDC".index(c.suit), -POWER["S"][c]))
        eff, pow_ = EFFECTIVE[trump], POWER[trump]
        return sorted(hand, key=lambda c: (eff[c] != trump, "SHDC".index(eff[c]), -pow_[c]))
