"""A Euchre search bot: determinized Monte Carlo over the deals its seat cannot tell apart.

`choose_action(round, seat, rng)` reads only `round.view(seat)`. From the view it knows its own
cards, the turned card and whether the dealer picked it up (he holds it until he plays it), its
own discard when it is the dealer, every card played, and the suits each player failed to
follow (that player holds none of them). It deals the unseen cards at random consistently with
all of that (`Knowledge.sample`), plays every legal move on each sampled deal to the end of the
hand on the integer engine (`games.euchre.fast`: the other seats bid and play by the rules of
`games.euchre.policy`), and picks the move with the best mean point difference for its team.
Every move is tried on the same deals, so their difference is measured with little noise.

Nothing is searched where there is nothing to decide: one legal move, or only cards of equal
effect (`equivalent_groups`: cards of one suit with no card still out between them). Otherwise
the search samples deals until a sequential test (`_settled`) finds the best move's lead clear,
or the other moves surely equal to it; `max_samples` deals and a `budget` of wall seconds are
only caps (the budget, for an overloaded machine: below it, a seeded `rng` gives the same
choice every time, in any process).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.cards import card
from games.euchre.actions import CALL_KIND, ORDER_KIND, EuchreAction, parse_action
from games.euchre.fast import (
    BEATS,
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
    heuristic_card,
    play_tricks,
    points,
)
from games.euchre.policy import ALONE_THRESHOLD, BID_THRESHOLD
from games.euchre.round import EuchreRound
from games.euchre.views import DEALER_DISCARD, NAME_TRUMP, ORDER_UP, PLAYING, EuchreView

DEFAULT_BUDGET = 0.12  # wall seconds per decision at most (a cap; the sequential test ends sooner)
MIN_SAMPLES = 8  # even on a very slow machine, at least this many deals per decision
SAMPLE_TRIES = 200  # random greedy deals tried before the exhaustive fallback

# STRENGTH[t][c], in tenths: policy.strength per card (bowers 4 and 3.5, ace of trump 3,
# other trumps 2, off-suit aces 1), so the rollouts' bidders bid as games.euchre.policy does.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (40 if POW[t][c] == 26 else 35 if POW[t][c] == 25 else 30 if RANK_OF[c] == 5 else 20)
        if EFF[t][c] == t
        else (10 if RANK_OF[c] == 5 else 0)
        for c in range(N_CARDS)
    )
    for t in range(4)
)
_BID = int(BID_THRESHOLD * 10)
_ALONE = int(ALONE_THRESHOLD * 10)


def _strength(hand: int, trump: int) -> int:
    table = STRENGTH[trump]
    total = 0
    while hand:
        b = hand & -hand
        total += table[b.bit_length() - 1]
        hand ^= b
    return total


@dataclass(slots=True)
class Knowledge:
    """What one seat knows of the cards, as bitmasks (card ids of games.euchre.fast)."""

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

    @classmethod
    def of(cls, view: EuchreView, *, auto_discard: bool = False) -> Knowledge:
        """What the seat of `view` knows; `auto_discard`: the table's dealer discard is `auto`."""
        seat = view.seat
        if seat is None:
            raise ValueError("the public view has no hand to search from")
        mine = _mask(view.hand)
        played = _mask(n for t in view.tricks for _, n in t) | _mask(n for _, n in view.trick)
        turned = BIT[CARD_ID[card(view.turned)]]
        known = [0, 0, 0, 0]
        known[seat] = mine
        seen = mine | played | turned
        if view.discard is not None:
            seen |= _mask([view.discard])
        if view.picked_up and not turned & (played | mine):
            known[view.dealer] |= turned
        voids = [0, 0, 0, 0]  # per seat: suit masks it cannot hold
        if view.trump is not None:
            t = SUIT_ID[view.trump]
            for trick in (*view.tricks, view.trick):
                if not trick:
                    continue
                led = EFF[t][CARD_ID[card(trick[0][1])]]
                for s, name in trick[1:]:
                    if EFF[t][CARD_ID[card(name)]] != led:
                        voids[s] |= SUIT_MASK[t][led]
        unseen = (1 << N_CARDS) - 1 & ~seen
        need = tuple(
            0 if s == seat else view.hand_sizes[s] - known[s].bit_count() for s in range(4)
        )
        allowed = tuple(unseen & ~voids[s] for s in range(4))
        auto_trump, dealer_kept = -1, 0
        if auto_discard and view.picked_up and view.dealer != seat and view.trump is not None:
            auto_trump = SUIT_ID[view.trump]
            by_dealer = (n for t in (*view.tricks, view.trick) for s, n in t if s == view.dealer)
            dealer_kept = _mask(by_dealer) & ~turned
        return cls(
            seat, view.dealer, mine, unseen, need, allowed, tuple(known), auto_trump, dealer_kept
        )

    def sample(self, rng: random.Random) -> list[int]:
        """Four hands consistent with what the seat knows (the rest of `unseen` is buried or
        was discarded). The most constrained seat is served first from a random order; when
        that fails, an exhaustive search finds a deal (there is always one: the real deal;
        the exhaustive search ignores the `auto` discard's hint)."""
        pool = [c for c in range(N_CARDS) if self.unseen >> c & 1]
        order = sorted(
            (s for s in range(4) if self.need[s]), key=lambda s: self.allowed[s].bit_count()
        )
        for _ in range(SAMPLE_TRIES):
            rng.shuffle(pool)
            hands = list(self.known)
            taken = 0
            for s in order:
                need, allowed = self.need[s], self.allowed[s] & ~taken
                got = 0
                for c in pool:
                    if allowed >> c & 1:
                        got |= BIT[c]
                        need -= 1
                        if not need:
                            break
                if need:
                    break
                hands[s] |= got
                taken |= got
            else:
                if self.auto_trump < 0 or self._auto_discard_fits(hands, taken):
                    return hands
        return self._exhaustive(pool)

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


def _mask(names: object) -> int:
    mask = 0
    for name in names:  # type: ignore[attr-defined]
        mask |= BIT[CARD_ID[card(name)]]
    return mask


@dataclass(slots=True)
class _Table:
    """The public state a rollout starts from, as integers."""

    seat: int
    dealer: int
    turned: int  # card id
    stick: bool
    auto_discard: bool
    passes: int
    trump: int  # -1 during bidding
    makers: int
    alone: bool
    sitting_out: int
    led: int
    best: int
    best_seat: int
    in_trick: int
    won: tuple[int, int]

    @classmethod
    def of(cls, round_: EuchreRound, view: EuchreView) -> _Table:
        assert view.seat is not None
        trump = SUIT_ID[view.trump] if view.trump is not None else -1
        led, best, best_seat = -1, 0, 0
        if view.trick and trump >= 0:
            first = CARD_ID[card(view.trick[0][1])]
            led = EFF[trump][first]
            beats = BEATS[trump * 4 + led]
            for s, name in view.trick:
                p = beats[CARD_ID[card(name)]]
                if p > best:
                    best, best_seat = p, s
        return cls(
            seat=view.seat,
            dealer=view.dealer,
            turned=CARD_ID[card(view.turned)],
            stick=round_.options.stick_the_dealer,
            auto_discard=round_.options.dealer_discard == "auto",
            passes=sum(1 for _, a in view.bids if a == "pass"),
            trump=trump,
            makers=view.maker & 1 if view.maker is not None else 0,
            alone=view.alone,
            sitting_out=-1 if view.sitting_out is None else view.sitting_out,
            led=led,
            best=best,
            best_seat=best_seat,
            in_trick=len(view.trick),
            won=view.tricks_won,
        )


def _bid_round_one(hands: list[int], table: _Table, seat: int, r: float) -> int:
    """policy._order_up on bitmasks: 0 pass, 1 order, 2 order alone."""
    suit = table.turned // 6
    score = _strength(hands[seat], suit)
    if seat == table.dealer:
        score += STRENGTH[suit][table.turned]
    elif (seat + 2) & 3 == table.dealer:
        score += 10
    else:
        score -= 10
    score += int(r * 10) - 5
    return 2 if score >= _ALONE else 1 if score >= _BID else 0


def _bid_round_two(hands: list[int], table: _Table, seat: int, r: float) -> tuple[int, bool]:
    """policy._name_trump on bitmasks: (suit, alone), suit -1 for a pass."""
    turned_suit = table.turned // 6
    best, best_score = -1, -1
    for suit in range(4):
        if suit != turned_suit:
            score = _strength(hands[seat], suit)
            if score > best_score:
                best, best_score = suit, score
    score = best_score + int(r * 10) - 5
    if score >= _ALONE:
        return best, True
    if score >= _BID or (table.stick and seat == table.dealer):
        return best, False
    return -1, False


def _value(
    hands: list[int], table: _Table, trump: int, maker: int, alone: bool, pick_up: bool
) -> int:
    """Play the hand from the end of bidding; points of the searching seat's team minus the
    other team's."""
    dealer = table.dealer
    sitting_out = (maker + 2) & 3 if alone else -1
    if pick_up and sitting_out != dealer:
        dealt = hands[dealer]
        out = extreme(dealt, DISCARD_KEY[trump], False)
        hands[dealer] = dealt ^ out | BIT[table.turned]
    return _play(hands, table, trump, maker & 1, sitting_out, (dealer + 1) & 3, 0)


def _play(
    hands: list[int],
    table: _Table,
    trump: int,
    makers: int,
    sitting_out: int,
    leader: int,
    forced: int,
    trick: tuple[int, int, int, int] = (-1, 0, 0, 0),
    won: tuple[int, int] = (0, 0),
) -> int:
    if leader == sitting_out:
        leader = (leader + 1) & 3
    led, best, best_seat, in_trick = trick
    tally = [won[0], won[1]]
    play_tricks(
        hands,
        trump,
        makers,
        leader,
        sitting_out,
        led,
        best,
        best_seat,
        in_trick,
        tally,
        heuristic_card,
        forced,
    )
    made, defended = points(tally[makers], sitting_out >= 0)
    mine = table.seat & 1
    return (made - defended) if makers == mine else (defended - made)


def _after_bid(hands: list[int], table: _Table, action: EuchreAction, rng: random.Random) -> int:
    """The value of a bid: bidding goes on with the policy's rules, then the hand is played."""
    seat = table.seat
    turned_suit = table.turned // 6
    if action.kind == ORDER_KIND:
        return _value(hands, table, turned_suit, seat, action.alone, True)
    if action.kind == CALL_KIND:
        return _value(hands, table, SUIT_ID[action.suit or "S"], seat, action.alone, False)
    r = rng.random
    passes = table.passes + 1
    s = (seat + 1) & 3
    while passes < 4:
        bid = _bid_round_one(hands, table, s, r())
        if bid:
            return _value(hands, table, turned_suit, s, bid == 2, True)
        passes += 1
        s = (s + 1) & 3
    while passes < 8:
        suit, alone = _bid_round_two(hands, table, s, r())
        if suit >= 0:
            return _value(hands, table, suit, s, alone, False)
        passes += 1
        s = (s + 1) & 3
    return 0  # everyone passed twice: a redeal, no points


def _rollout(
    hands: list[int], table: _Table, action: EuchreAction, phase: str, rng: random.Random
) -> int:
    if phase == PLAYING:
        bit = BIT[CARD_ID[action.card]]  # type: ignore[index]
        trick = (table.led, table.best, table.best_seat, table.in_trick)
        return _play(
            hands,
            table,
            table.trump,
            table.makers,
            table.sitting_out,
            table.seat,
            bit,
            trick,
            table.won,
        )
    if phase == DEALER_DISCARD:
        hands[table.seat] ^= BIT[CARD_ID[action.card]]  # type: ignore[index]
        return _play(
            hands, table, table.trump, table.makers, table.sitting_out, (table.dealer + 1) & 3, 0
        )
    return _after_bid(hands, table, action, rng)


def equivalent_groups(view: EuchreView, legal: list[EuchreAction]) -> list[list[int]]:
    """The legal moves (indices) in groups of equal effect; each group's first is played.

    Cards of one effective suit between which every card of that suit has been played (or is
    in this hand) are equivalent: whichever the seat plays or discards now, the others stand
    in the same order against every card still out, so the hand ends the same way. (Each
    group is one such run of the seat's cards; its lowest card stands for it.) Bids are never
    grouped."""
    if view.phase not in (PLAYING, DEALER_DISCARD) or view.trump is None:
        return [[i] for i in range(len(legal))]
    t = SUIT_ID[view.trump]
    played = _mask(n for trick in view.tricks for _, n in trick) | _mask(n for _, n in view.trick)
    ids = [CARD_ID[a.card] for a in legal]  # type: ignore[index]
    mine = _mask(view.hand)
    power = POW[t]
    groups: dict[tuple[int, int], list[int]] = {}
    for i, c in enumerate(ids):
        suit = EFF[t][c]
        # cards of the suit still out (neither played nor this seat's), ranked by power
        out = SUIT_MASK[t][suit] & ~played & ~mine
        # this card's run: the number of outstanding cards above it names its place
        above = 0
        m = out
        while m:
            b = m & -m
            if power[b.bit_length() - 1] > power[c]:
                above += 1
            m ^= b
        groups.setdefault((suit, above), []).append(i)
    ordered = [sorted(g, key=lambda i: power[ids[i]]) for g in groups.values()]
    return sorted(ordered, key=lambda g: g[0])


Z_LEAD = 2.5  # the best move's lead is clear when it exceeds this many standard errors
TIE_MARGIN = 0.1  # points: moves whose difference is surely smaller than this are equal
MIN_SEQUENTIAL = 32  # samples before the sequential test may stop the search
MAX_SAMPLES = 200  # samples at most per decision (a cap the clear cases never reach)


def _settled(n: int, best: int, totals: list[int], squares: list[list[int]]) -> bool:
    """Sequential test after `n` paired samples: every other move is clearly behind the best
    (its deficit's 95% interval above zero), or surely within TIE_MARGIN of it."""
    for j in range(len(totals)):
        if j == best:
            continue
        mean = (totals[best] - totals[j]) / n
        variance = max(0.0, squares[best][j] / n - mean * mean) * n / (n - 1)
        half = Z_LEAD * (variance / n) ** 0.5
        if mean - half > 0:
            continue
        if half + abs(mean) < TIE_MARGIN:
            continue
        return False
    return True


def choose_action(
    round_: EuchreRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_samples: int | None = MAX_SAMPLES,
    sequential: bool = True,
) -> EuchreAction:
    """The move with the best mean result over sampled deals (reads only `round.view(seat)`).

    With `sequential` (the default) it searches nothing when there is nothing to decide (one
    legal move, or only cards of equal effect: `equivalent_groups`), and stops sampling as
    soon as the best move's lead is clear (`_settled`); otherwise it samples every legal move
    until a limit, as the first version of this bot did (kept to measure against). Limits:
    `budget` seconds of wall time (None: none), `max_samples` deals (None: none); at least
    one must be set. The budget is only a cap for an overloaded machine: under it the choice
    depends on `rng` and the view alone."""
    if budget is None and max_samples is None:
        raise ValueError("give a time budget, a sample count, or both")
    view = round_.view(seat)
    legal = [parse_action(text) for text in view.legal]
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    if len(legal) == 1:
        return legal[0]
    phase = view.phase
    if phase not in (ORDER_UP, NAME_TRUMP, DEALER_DISCARD, PLAYING):
        raise ValueError(f"no decision in phase {phase}")
    if sequential:
        groups = equivalent_groups(view, legal)
        if len(groups) == 1:
            return legal[groups[0][0]]
        legal = [legal[g[0]] for g in groups]
    knowledge = Knowledge.of(view, auto_discard=round_.options.dealer_discard == "auto")
    table = _Table.of(round_, view)
    k = len(legal)
    totals = [0] * k
    squares = [[0] * k for _ in range(k)]  # sums of squared paired differences
    deadline = None if budget is None else time.perf_counter() + budget
    samples = 0
    values = [0] * k
    while True:
        hands = knowledge.sample(rng)
        for i, action in enumerate(legal):
            values[i] = v = _rollout(list(hands), table, action, phase, rng)
            totals[i] += v
        if sequential:
            for i in range(k):
                row, vi = squares[i], values[i]
                for j in range(i + 1, k):
                    d = vi - values[j]
                    row[j] += d * d
                    squares[j][i] = row[j]
        samples += 1
        if max_samples is not None and samples >= max_samples:
            break
        if deadline is not None and samples >= MIN_SAMPLES and time.perf_counter() > deadline:
            break
        if sequential and samples >= MIN_SEQUENTIAL:
            best = max(range(k), key=lambda i: (totals[i], -i))
            if _settled(samples, best, totals, squares):
                break
    best = max(range(k), key=lambda i: (totals[i], -i))
    return legal[best]
