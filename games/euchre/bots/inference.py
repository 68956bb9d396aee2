"""What one seat can infer about the hidden hands from its view, and deals drawn accordingly.

`Knowledge.of(view)` folds the seat's view, event by event, through one rule per kind of
inference, each named after what it states (listed on `Knowledge`). The certain rules bind
every deal `Knowledge.sample` draws; the bidding bounds are likely, not certain (a person, or
the search bot, may bid otherwise), so they narrow the deals the search averages over to those
its opponents' bids make likely without ever deciding a move alone.

The search draws thousands of deals a decision, so drawing is kept cheap without changing a
single deal: `shuffle` is `rng.shuffle` inlined (the same numbers drawn), `strength` sums
strengths a byte of the hand at a time (`STRENGTH_BYTES`), and what does not change from one
draw to the next is computed once per knowledge (`_Plan`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.cards import card
from games.euchre.actions import PASS_KIND, parse_action
from games.euchre.bots.fast import (
    BIT,
    CARD_ID,
    DISCARD_KEY,
    EFF,
    N_CARDS,
    POW,
    RANK_OF,
    SUIT_ID,
    SUIT_MASK,
    extreme,
)
from games.euchre.bots.policy import ALONE_THRESHOLD, BID_THRESHOLD
from games.euchre.views import EuchreView

SAMPLE_TRIES = 200  # random greedy deals tried before the exhaustive fallback
BOUND_TRIES = 24  # of those, how many must also fit the bidding bounds
# One deal in this many is drawn without the bidding bounds: a seat that bid otherwise than
# the simple policy would (a person) must not make a move look safe that is not.
UNBOUNDED_EVERY = 4

# STRENGTH[t][c], in tenths: policy.strength per card (bowers 4 and 3.5, ace of trump 3,
# other trumps 2, off-suit aces 1).
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (40 if POW[t][c] == 26 else 35 if POW[t][c] == 25 else 30 if RANK_OF[c] == 5 else 20)
        if EFF[t][c] == t
        else (10 if RANK_OF[c] == 5 else 0)
        for c in range(N_CARDS)
    )
    for t in range(4)
)
BID = int(BID_THRESHOLD * 10)
ALONE = int(ALONE_THRESHOLD * 10)
NOISE = 5  # tenths: the policy's bids add up to half a point either way
NO_CEILING = 1000


def _byte_tables(trump: int) -> tuple[tuple[int, ...], ...]:
    """Per byte of a hand's 24-bit mask (cards 0-7, 8-15, 16-23): the strength of every value."""
    tables = []
    for low in range(0, N_CARDS, 8):
        table = [0] * 256
        for v in range(1, 256):  # v's lowest card, plus v without it (already summed)
            table[v] = table[v & (v - 1)] + STRENGTH[trump][low + (v & -v).bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


# STRENGTH_BYTES[t]: `strength` of each byte of a hand, summed by `strength` (three lookups,
# not one per card).
STRENGTH_BYTES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_byte_tables(t) for t in range(4))


def strength(hand: int, trump: int) -> int:
    """policy.strength of a bitmask hand, in tenths: STRENGTH summed over its cards."""
    low, mid, high = STRENGTH_BYTES[trump]
    return low[hand & 255] + mid[hand >> 8 & 255] + high[hand >> 16]


# SHUFFLE_STEPS[n]: for a list of n, the (i, k) of each step of `random.Random.shuffle`:
# swap item i with item j, j drawn by `getrandbits(k)` until it is at most i.
SHUFFLE_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in range(N_CARDS + 1)
)


def shuffle(items: list[int], rng: random.Random) -> None:
    """`rng.shuffle(items)`: the same order, the same numbers drawn (so `rng` is left in the
    same state), at half the cost. It is CPython's `Random.shuffle` with its `_randbelow`
    (draw `k` bits, again while the number is too large) inlined; a `random.Random` subclass
    may draw otherwise, so it shuffles its own way."""
    if type(rng) is not random.Random or len(items) > N_CARDS:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, k in SHUFFLE_STEPS[len(items)]:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@dataclass(frozen=True, slots=True)
class Bound:
    """A seat's dealt hand, valued as `policy` values it for `suit` (plus `bonus`: the turned
    card for the dealer, a point for the dealer's partner, minus one for his opponents), lies
    between `low` and `high` tenths (both included)."""

    seat: int
    suit: int
    bonus: int
    low: int
    high: int

    def fits(self, dealt: int) -> bool:
        return self.low <= strength(dealt, self.suit) + self.bonus <= self.high


@dataclass(slots=True)
class Knowledge:
    """What one seat knows of the cards, as bitmasks (card ids of games.euchre.bots.fast).

    The rules `of` folds the view through:
    - `cards_seen_are_out_of_the_hidden_hands`: its own hand, the turned card, its discard and
      every card played are nobody else's hidden card;
    - `the_dealer_holds_the_turned_card_he_picked_up`: until he plays it;
    - `a_seat_that_did_not_follow_suit_is_void_in_it`: it holds no card of the led suit;
    - `the_auto_discard_is_the_dealers_lowest_card`: with the `auto` discard, every card the
      dealer kept ranks above the card he threw away;
    - `a_seat_that_passed_would_not_surely_have_bid` and `a_bidder_holds_a_hand_worth_its_bid`:
      the strength a seat's dealt hand had, from its bids, as `games.euchre.bots.policy` bids
      (strength against a threshold, give or take its half point of noise): a pass puts a
      ceiling on it, an order or a call a floor (and, not alone, a ceiling).

    The first four are certain: every deal `sample` draws obeys them. A deal is drawn within
    the bidding bounds when one is found in `BOUND_TRIES` attempts, else without them, and the
    search draws one deal in `UNBOUNDED_EVERY` without them at all."""

    seat: int
    dealer: int
    mine: int  # the seat's own hand
    unseen: int  # cards whose place the seat does not know
    need: tuple[int, ...]  # unseen cards each seat holds (0 for the seat itself)
    allowed: tuple[int, ...]  # per seat: the unseen cards it may hold (its void suits removed)
    known: tuple[int, ...]  # per seat: cards it is known to hold (the seat's own, the turned card)
    # With the `auto` discard, the dealer threw away the lowest of his five dealt cards: a
    # card among the unseen ones left out of the hands is lower (DISCARD_KEY) than every card
    # he kept. `auto_trump` is the trump when that applies (-1 otherwise), `dealer_kept` the
    # kept cards already seen (played, but not the turned card).
    auto_trump: int = -1
    dealer_kept: int = 0
    bounds: tuple[Bound, ...] = ()  # likely, from the bids (none for the seat itself)
    played_by: tuple[int, ...] = (0, 0, 0, 0)  # per seat: the cards it played
    turned: int = 0  # the turned card's bit
    bounds_fit: bool = True  # False once a deal was drawn without the bounds (none fitted)
    # what `sample` computes once, for the fields as they were then (recomputed if they change)
    _plan: _Plan | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def of(
        cls,
        view: EuchreView,
        *,
        auto_discard: bool = False,
        bids: bool = True,
        plays: int | None = None,
    ) -> Knowledge:
        """What the seat of `view` knows; `auto_discard`: the table's dealer discard is `auto`;
        `bids`: infer the bidding bounds too; `plays`: what it knew after only that many cards
        were played (its own later cards back in its hand)."""
        inference = Inference(view, auto_discard=auto_discard)
        for seat, notation in view.bids if bids else ():
            inference.bid(seat, notation)
        for n, (seat, c, first, position) in enumerate(played_cards(view)):
            if plays is None or n < plays:
                inference.played(seat, c, first, position)
            else:
                inference.not_yet_played(seat, c)
        return inference.knowledge()

    def dealt(self, seat: int, hand: int) -> int:
        """The cards `seat` bid with, given its hand now (the turned card left out for the
        dealer: a bound counts it in its bonus; the dealer's discard is not known)."""
        cards = hand | self.played_by[seat]
        return cards & ~self.turned if seat == self.dealer else cards

    def fits_bounds(self, seat: int, hand: int) -> bool:
        """Every bound of `seat` fits the cards it was dealt, holding `hand` now (`Bound.fits`,
        from the strength tables `_Plan` keeps)."""
        check = self._plan_now().checks.get(seat)
        return check is None or _within(check, hand)

    def _plan_now(self) -> _Plan:
        """`_Plan` for the fields as they are (made again if one of them changed)."""
        plan = self._plan
        key = (
            self.unseen,
            self.need,
            self.allowed,
            self.bounds,
            self.played_by,
            self.turned,
            self.dealer,
        )
        if plan is None or plan.key != key:
            plan = self._plan = _Plan.of(self, key)
        return plan

    def holds(self, hands: list[int] | tuple[int, ...]) -> bool:
        """The four hands obey every certain rule (the bidding bounds are not checked)."""
        taken = 0
        for s in range(4):
            hand = hands[s]
            known = self.known[s]
            if s == self.seat:
                if hand != self.mine:
                    return False
                continue
            rest = hand & ~known
            if hand & known != known or rest & ~self.allowed[s] or rest.bit_count() != self.need[s]:
                return False
            taken |= rest
        return self.auto_trump < 0 or self._auto_discard_fits(list(hands), taken)

    def sample(self, rng: random.Random, *, bounded: bool = True) -> list[int]:
        """Four hands consistent with what the seat knows (the rest of `unseen` is buried or
        was discarded), within the bidding bounds (unless not `bounded`) when `BOUND_TRIES`
        attempts find such a deal. The most constrained seat is served first from a random
        order; when that fails, an exhaustive search finds a deal (there is always one: the
        real deal; the exhaustive search ignores the `auto` discard's hint and the bounds).

        Each attempt shuffles the unseen cards (`shuffle`: as `rng.shuffle`, which it draws
        the same numbers as) and gives each seat in turn the first cards it may hold. What
        does not change from one attempt or call to the next (the cards, the order of the
        seats, each bounded seat's bounds as lookup tables) is computed once (`_Plan`)."""
        plan = self._plan_now()
        bounded = bounded and self.bounds_fit and bool(self.bounds)
        steps = plan.bounded_steps if bounded else plan.steps
        bound_tries = BOUND_TRIES if bounded else 0
        pool = list(plan.pool)
        for _ in range(SAMPLE_TRIES):
            shuffle(pool, rng)
            hands = list(self.known)
            taken = 0
            for s, need, allowed, check, first in steps:
                if first >= 0:  # the seat takes the next `need` cards of the pool
                    got = sum(pool[first : first + need])
                else:
                    allowed &= ~taken
                    got = 0
                    for b in pool:
                        if allowed & b:
                            got |= b
                            need -= 1
                            if not need:
                                break
                    if need:
                        break
                hands[s] |= got
                taken |= got
                if bound_tries and check and not _within(check, hands[s]):
                    bound_tries -= 1
                    break
            else:
                if self.auto_trump < 0 or self._auto_discard_fits(hands, taken):
                    if bounded and not bound_tries:
                        self.bounds_fit = False  # the next deals do not try them again
                    return hands
        return self._exhaustive([b.bit_length() - 1 for b in pool])

    def _auto_discard_fits(self, hands: list[int], taken: int) -> bool:
        """The lowest of the dealer's dealt cards is out of every hand (it was discarded)."""
        key = DISCARD_KEY[self.auto_trump]
        turned = self.known[self.dealer] & ~self.mine
        kept = (hands[self.dealer] & ~turned) | self.dealer_kept
        out = self.unseen & ~taken
        lowest = extreme(kept | out, key, False)
        return bool(lowest & out)

    def _exhaustive(self, pool: list[int]) -> list[int]:
        hands = list(self.known)
        left = list(self.need)

        def place(i: int) -> bool:
            if i == len(pool):
                return not any(left)
            c = pool[i]
            for s in range(4):
                if left[s] and self.allowed[s] >> c & 1:
                    left[s] -= 1
                    hands[s] |= BIT[c]
                    if place(i + 1):
                        return True
                    left[s] += 1
                    hands[s] ^= BIT[c]
            return sum(left) < len(pool) - i and place(i + 1)  # c stays out of every hand

        if not place(0):
            raise ValueError("no deal is consistent with this view")
        return hands


# A bounded seat's check: the cards it played, the mask that leaves the turned card out (of
# the dealer's hand; -1: every card kept) and per bound the strength tables of its suit (as
# STRENGTH_BYTES) with the lowest and highest strength within the bound (its bonus taken off).
Tables = tuple[tuple[int, ...], ...]  # low, middle and high byte (STRENGTH_BYTES[suit])
Check = tuple[int, int, tuple[tuple[Tables, int, int], ...]]
# A seat to serve: the seat, the cards it needs, the cards it may hold, its check (None: not
# bounded) and, when it takes the pool's next cards, where they start (else -1).
Step = tuple[int, int, int, Check | None, int]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What `Knowledge.sample` draws from, for the knowledge's fields `key`: the unseen
    cards' bits in card order, each bounded seat's `Check`, and per seat to serve, in the
    order served, a `Step` (without the bounds, and with them: bounded seats first)."""

    key: tuple[object, ...]
    pool: tuple[int, ...]
    checks: dict[int, Check]
    steps: tuple[Step, ...]
    bounded_steps: tuple[Step, ...]

    @classmethod
    def of(cls, knowledge: Knowledge, key: tuple[object, ...]) -> _Plan:
        k = knowledge
        bounded_seats = {b.seat for b in k.bounds}
        checks: dict[int, Check] = {}
        for s in bounded_seats:
            keep = ~k.turned if s == k.dealer else -1
            tests = tuple(
                (STRENGTH_BYTES[b.suit], b.low - b.bonus, b.high - b.bonus)
                for b in k.bounds
                if b.seat == s
            )
            checks[s] = (k.played_by[s], keep, tests)
        seats = [s for s in range(4) if k.need[s]]
        pool = tuple(BIT[c] for c in range(N_CARDS) if k.unseen >> c & 1)

        def steps(order: list[int]) -> tuple[Step, ...]:
            out: list[Step] = []
            first = 0  # while every seat before may hold any unseen card: the cards they took
            for s in order:
                may_take_next = first >= 0 and k.allowed[s] == k.unseen
                if may_take_next and first + k.need[s] <= len(pool):
                    out.append((s, k.need[s], k.allowed[s], checks.get(s), first))
                    first += k.need[s]
                else:
                    out.append((s, k.need[s], k.allowed[s], checks.get(s), -1))
                    first = -1
            return tuple(out)

        return cls(
            key,
            pool,
            checks,
            steps(sorted(seats, key=lambda s: k.allowed[s].bit_count())),
            # bounded seats first: a deal that misses a bound is dropped sooner
            steps(sorted(seats, key=lambda s: (s not in bounded_seats, k.allowed[s].bit_count()))),
        )


def _within(check: Check, hand: int) -> bool:
    """`Knowledge.fits_bounds` of the seat whose `check` it is, from its tables."""
    played, keep, tests = check
    dealt = (hand | played) & keep
    for (low, mid, high), floor, ceiling in tests:
        if not floor <= low[dealt & 255] + mid[dealt >> 8 & 255] + high[dealt >> 16] <= ceiling:
            return False
    return True


@dataclass(slots=True)
class Inference:
    """The rules, applied one event at a time; `knowledge()` is what they add up to."""

    view: EuchreView
    auto_discard: bool = False
    seat: int = field(init=False)
    seen: int = field(init=False)
    known: list[int] = field(init=False)
    voids: list[int] = field(init=False)  # per seat: the cards its void suits rule out
    played_by: list[int] = field(init=False)
    bounds: list[Bound] = field(init=False)
    turned: int = field(init=False)
    extra: list[int] = field(init=False)  # per seat: cards played after the inferred moment
    passes: int = 0

    def __post_init__(self) -> None:
        view = self.view
        if view.seat is None:
            raise ValueError("the public view has no hand to search from")
        self.seat = view.seat
        self.turned = BIT[CARD_ID[card(view.turned)]]
        self.known = [0, 0, 0, 0]
        self.voids = [0, 0, 0, 0]
        self.played_by = [0, 0, 0, 0]
        self.bounds = []
        self.extra = [0, 0, 0, 0]
        self.seen = 0
        self.cards_seen_are_out_of_the_hidden_hands(
            _mask(view.hand) | self.turned | (_mask([view.discard]) if view.discard else 0)
        )
        self.known[self.seat] = _mask(view.hand)
        if view.picked_up:
            self.the_dealer_holds_the_turned_card_he_picked_up()

    # -- the certain rules ------------------------------------------------------------------

    def cards_seen_are_out_of_the_hidden_hands(self, cards: int) -> None:
        self.seen |= cards

    def the_dealer_holds_the_turned_card_he_picked_up(self) -> None:
        self.known[self.view.dealer] |= self.turned

    def a_seat_that_did_not_follow_suit_is_void_in_it(self, seat: int, led: int) -> None:
        trump = SUIT_ID[self.view.trump or "S"]
        self.voids[seat] |= SUIT_MASK[trump][led]

    def not_yet_played(self, seat: int, c: int) -> None:
        """`seat` still held `c` (it plays it later than the moment inferred about)."""
        self.extra[seat] += 1
        if seat == self.seat:
            self.known[seat] |= BIT[c]
            self.seen |= BIT[c]

    def played(self, seat: int, c: int, first: int, position: int) -> None:
        """`seat` played card `c` at `position` in a trick whose first card is `first`."""
        bit = BIT[c]
        self.cards_seen_are_out_of_the_hidden_hands(bit)
        self.played_by[seat] |= bit
        self.known[seat] &= ~bit  # the dealer's turned card, once played, is held no more
        eff = EFF[SUIT_ID[self.view.trump or "S"]]
        if position and eff[c] != eff[first]:
            self.a_seat_that_did_not_follow_suit_is_void_in_it(seat, eff[first])

    # -- the likely rules, from the bids ------------------------------------------------------

    def bid(self, seat: int, notation: str) -> None:
        action = parse_action(notation)
        round_one = self.passes < 4
        if action.kind == PASS_KIND:
            self.passes += 1
            if seat != self.seat:
                self.a_seat_that_passed_would_not_surely_have_bid(seat, round_one)
            return
        if seat != self.seat:
            suit = SUIT_ID[card(self.view.turned).suit if round_one else action.suit or "S"]
            stuck = not round_one and self.passes == 7  # the dealer, stuck, had to name a suit
            self.a_bidder_holds_a_hand_worth_its_bid(seat, suit, round_one, action.alone, stuck)

    def _bonus(self, seat: int, round_one: bool) -> int:
        """What `policy` adds to a hand's strength when it considers ordering the turned card."""
        if not round_one:
            return 0
        dealer = self.view.dealer
        if seat == dealer:
            return STRENGTH[SUIT_ID[card(self.view.turned).suit]][CARD_ID[card(self.view.turned)]]
        return 10 if (seat + 2) & 3 == dealer else -10

    def a_seat_that_passed_would_not_surely_have_bid(self, seat: int, round_one: bool) -> None:
        turned = SUIT_ID[card(self.view.turned).suit]
        suits = [turned] if round_one else [s for s in range(4) if s != turned]
        bonus = self._bonus(seat, round_one)
        for suit in suits:
            self.bounds.append(Bound(seat, suit, bonus, -NO_CEILING, BID + NOISE - 1))

    def a_bidder_holds_a_hand_worth_its_bid(
        self, seat: int, suit: int, round_one: bool, alone: bool, stuck: bool
    ) -> None:
        bonus = self._bonus(seat, round_one)
        if alone:
            self.bounds.append(Bound(seat, suit, bonus, ALONE - NOISE, NO_CEILING))
        elif not stuck:
            self.bounds.append(Bound(seat, suit, bonus, BID - NOISE, ALONE + NOISE - 1))

    def knowledge(self) -> Knowledge:
        view = self.view
        seat = self.seat
        unseen = (1 << N_CARDS) - 1 & ~self.seen
        known = tuple(self.known)
        need = tuple(
            0 if s == seat else view.hand_sizes[s] + self.extra[s] - known[s].bit_count()
            for s in range(4)
        )
        allowed = tuple(unseen & ~self.voids[s] for s in range(4))
        auto_trump, dealer_kept = -1, 0
        if self.auto_discard and view.picked_up and view.dealer != seat and view.trump is not None:
            auto_trump = SUIT_ID[view.trump]
            dealer_kept = self.played_by[view.dealer] & ~self.turned
        return Knowledge(
            seat,
            view.dealer,
            known[seat],
            unseen,
            need,
            allowed,
            known,
            auto_trump,
            dealer_kept,
            tuple(self.bounds),
            tuple(self.played_by),
            self.turned,
        )


def played_cards(view: EuchreView) -> list[tuple[int, int, int, int]]:
    """Every card played, in order: (seat, card id, the trick's first card id, position)."""
    out: list[tuple[int, int, int, int]] = []
    if view.trump is None:
        return out
    for trick in (*view.tricks, view.trick):
        if trick:
            first = CARD_ID[card(trick[0][1])]
            out += ((s, CARD_ID[card(n)], first, i) for i, (s, n) in enumerate(trick))
    return out


def _mask(names: object) -> int:
    mask = 0
    for name in names:  # type: ignore[attr-defined]
        mask |= BIT[CARD_ID[card(name)]]
    return mask
