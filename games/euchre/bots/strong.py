"""A Euchre search bot: determinized Monte Carlo over the deals its seat cannot tell apart.

`choose_action(round, seat, rng)` reads only `round.view(seat)`. It infers what it can of the
hidden hands (`games.euchre.bots.inference`), deals the unseen cards at random accordingly
(with `reuse`, from the hand's deals carried from one decision to the next,
`games.euchre.bots.memory`), plays every legal move on each deal to the end of the hand on
the integer engine (`fast`, `rollout`: the other seats play by `policy`'s rules), and picks
the move with the best mean point difference for its team. Every move is tried on the same
deals, so their difference is measured with little noise.

Nothing is searched where there is nothing to decide: one legal move, or only cards of equal
effect (`equivalent_groups`). Otherwise a sequential test (`_race`) drops the moves clearly
behind and stops once the points the search expects to lose by choosing now are too few to
matter; `max_samples` deals and a `budget` of wall seconds are only caps (below them, a seeded
`rng` gives the same choice every time, in any process).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from games.cards import card
from games.euchre.actions import CALL_KIND, ORDER_KIND, EuchreAction, parse_action
from games.euchre.bots.fast import (
    BEATS,
    BIT,
    CARD_ID,
    DISCARD_KEY,
    EFF,
    POW,
    SUIT_ID,
    SUIT_MASK,
    extreme,
    points,
)
from games.euchre.bots.inference import ALONE, BID, STRENGTH, UNBOUNDED_EVERY, Knowledge
from games.euchre.bots.inference import strength as _strength
from games.euchre.bots.memory import hand_deals
from games.euchre.bots.rollout import RELABEL, play_out, relabel_hands
from games.euchre.round import EuchreRound
from games.euchre.views import DEALER_DISCARD, NAME_TRUMP, ORDER_UP, PLAYING, EuchreView

DEFAULT_BUDGET = 0.12  # wall seconds per decision at most (a cap; the sequential test ends sooner)
# At least this many deals per decision, whatever the budget: with fewer the search bots lost
# to the simple bots (docs/performance.md, games/euchre/README.md).
MIN_SAMPLES = 32
_BID = BID
_ALONE = ALONE


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
    score: tuple[int, ...]  # by the makers' tricks (0..5): the searching seat's team's points
    # minus the other's, in play (the makers and the going alone known)

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
            score=_scores(view.maker is not None and view.maker & 1 == view.seat & 1, view.alone),
        )


def _scores(ours: bool, alone: bool) -> tuple[int, ...]:
    """By the makers' tricks: the points of the searching seat's team minus the other's."""
    by_tricks = (points(tricks, alone) for tricks in range(6))
    return tuple((m - d) if ours else (d - m) for m, d in by_tricks)


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
    return _play(hands, table, trump, maker & 1, sitting_out, (dealer + 1) & 3)


def _play(
    hands: list[int],
    table: _Table,
    trump: int,
    makers: int,
    sitting_out: int,
    leader: int,
) -> int:
    """Play the hand out from its first lead (`hands`: card ids); the searching seat's team's
    points minus the other team's."""
    if leader == sitting_out:
        leader = (leader + 1) & 3
    numbered = relabel_hands(hands, trump)
    tricks = play_out(numbered, trump, makers, leader, sitting_out, -1, 0, 0, 0, 0, 0)
    made, defended = points(tricks, sitting_out >= 0)
    return (made - defended) if makers == table.seat & 1 else (defended - made)


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


def _card_values(
    hands: list[int], table: _Table, cards: list[int], discard: bool, values: list[int]
) -> None:
    """`values[i]`: the searching seat's team's points minus the other's when it plays (or, with
    `discard`, discards) `cards[i]` (relabeled bits) on this deal (`hands`: card ids)."""
    trump, makers, sitting_out = table.trump, table.makers, table.sitting_out
    numbered = relabel_hands(hands, trump)
    score = table.score
    if discard:
        seat = table.seat
        leader = (table.dealer + 1) & 3
        if leader == sitting_out:
            leader = (leader + 1) & 3
        for i, bit in enumerate(cards):
            deal = numbered.copy()
            deal[seat] ^= bit
            values[i] = score[play_out(deal, trump, makers, leader, sitting_out, -1, 0, 0, 0, 0, 0)]
        return
    seat, led, best, best_seat, in_trick = (
        table.seat,
        table.led,
        table.best,
        table.best_seat,
        table.in_trick,
    )
    won_0, won_1 = table.won
    for i, bit in enumerate(cards):
        tricks = play_out(
            numbered.copy(),
            trump,
            makers,
            seat,
            sitting_out,
            led,
            best,
            best_seat,
            in_trick,
            won_0,
            won_1,
            bit,
        )
        values[i] = score[tricks]


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


Z_LEAD = 2.5  # a move is clearly behind the best when its deficit exceeds this many standard
# errors: it is played out no more
LOSS_MARGIN = 0.003  # points: the search stops once the points it expects to lose by choosing
# the best move now (the other moves still in the race summed) are fewer than this
MIN_DROP = 16  # samples before the sequential test may drop a move clearly behind
MIN_SEQUENTIAL = 32  # samples before the sequential test may stop the search
TEST_EVERY = 2  # samples between two sequential tests (a test costs as much as a rollout)
MAX_SAMPLES = 200  # samples at most per decision (a cap the clear cases never reach)
SEQUENCE_CAP = 2 * MAX_SAMPLES  # a hand's carried deals looked at, at most (some are dropped)
_ROOT_2 = math.sqrt(2.0)
_ROOT_2PI = math.sqrt(2.0 * math.pi)


def _race(n: int, alive: list[int], totals: list[int], squares: list[list[int]]) -> bool:
    """Sequential test after `n` paired samples of the moves `alive` (indices, in order; the
    sums of squared differences of moves `i < j` in `squares[i][j]`), which it
    narrows: a move whose deficit to the best is clear (Z_LEAD standard errors above zero) is
    dropped. True once the expected loss of choosing the best now, summed over the moves left,
    is under LOSS_MARGIN points (a normal deficit of mean `m` and standard error `e` is below
    zero by `e * pdf(m / e) - m * cdf(-m / e)` points on average): the lead is clear, or the
    moves left are too close to be worth telling apart."""
    best = max(alive, key=lambda i: (totals[i], -i))
    loss = 0.0
    left = [best]
    for j in alive:
        if j == best:
            continue
        mean = (totals[best] - totals[j]) / n
        square = squares[best][j] if best < j else squares[j][best]
        error = (max(0.0, square / n - mean * mean) / (n - 1)) ** 0.5
        if mean > Z_LEAD * error:
            continue  # clearly behind
        left.append(j)
        if error:
            z = mean / error
            loss += error * math.exp(-0.5 * z * z) / _ROOT_2PI - mean * 0.5 * math.erfc(z / _ROOT_2)
    alive[:] = sorted(left)
    return loss < LOSS_MARGIN


@dataclass(frozen=True, slots=True)
class Decision:
    """A search's choice, and the deals it took: `carried` from earlier decisions of the hand
    (`games.euchre.bots.memory`), `sampled` afresh (drawn for the hand's sequence in play, to be
    carried to the next decisions, or for this decision alone)."""

    action: EuchreAction
    carried: int = 0
    sampled: int = 0
    # the mean result (the side's points minus the other side's) of each move still played
    # out at the end, best first: what a coach's hint explains (`games.euchre.bots.explain`)
    means: tuple[tuple[str, float], ...] = ()


def choose_action(
    round_: EuchreRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_samples: int | None = MAX_SAMPLES,
    sequential: bool = True,
    bids: bool = True,
    reuse: bool = False,
) -> EuchreAction:
    """The move with the best mean result over sampled deals (reads only `round.view(seat)`).

    With `sequential` (the default) it searches nothing when there is nothing to decide (one
    legal move, or only cards of equal effect: `equivalent_groups`), plays out no more the
    moves clearly behind and stops sampling as soon as choosing now loses too little to matter
    (`_race`); otherwise it samples every legal move
    until a limit, as the first version of this bot did (kept to measure against). `bids`:
    deals are drawn within what the bids make likely (`games.euchre.bots.inference`); `reuse`: the
    deals of earlier decisions of the hand, carried along the cards played since
    (`games.euchre.bots.memory`), are evaluated before fresh ones are sampled (off by default: it
    samples fewer deals but spends more CPU than it saves). Limits: `budget`
    seconds of wall time (None: none), `max_samples` deals (None: none); at least one must be
    set. The budget is only a cap for an overloaded machine: under it the choice depends on
    `rng` and the view alone."""
    return search(
        round_,
        seat,
        rng,
        budget=budget,
        max_samples=max_samples,
        sequential=sequential,
        bids=bids,
        reuse=reuse,
    ).action


def search(
    round_: EuchreRound,
    seat: int,
    rng: random.Random,
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_samples: int | None = MAX_SAMPLES,
    sequential: bool = True,
    bids: bool = True,
    reuse: bool = False,
) -> Decision:
    """`choose_action`, with the deals it took (`Decision`)."""
    if budget is None and max_samples is None:
        raise ValueError("give a time budget, a sample count, or both")
    view = round_.view(seat)
    legal = [parse_action(text) for text in view.legal]
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    if len(legal) == 1:
        return Decision(legal[0])
    phase = view.phase
    if phase not in (ORDER_UP, NAME_TRUMP, DEALER_DISCARD, PLAYING):
        raise ValueError(f"no decision in phase {phase}")
    if sequential:
        groups = equivalent_groups(view, legal)
        if len(groups) == 1:
            return Decision(legal[groups[0][0]])
        legal = [legal[g[0]] for g in groups]
    auto_discard = round_.options.dealer_discard == "auto"
    knowledge = Knowledge.of(view, auto_discard=auto_discard, bids=bids)
    deals = hand_deals(view, auto_discard=auto_discard) if reuse and sequential else None
    taken = 0  # the next of `deals` to look at
    table = _Table.of(round_, view)
    k = len(legal)
    cards = (  # the moves as relabeled bits (`games.euchre.bots.rollout`), when they are cards
        [BIT[RELABEL[table.trump][CARD_ID[a.card]]] for a in legal]  # type: ignore[index]
        if phase in (PLAYING, DEALER_DISCARD)
        else None
    )
    totals = [0] * k
    played = [0] * k  # deals each move was played out on (a move dropped stops counting)
    squares = [[0] * k for _ in range(k)]  # sums of squared paired differences (i < j: [i][j])
    deadline = None if budget is None else time.perf_counter() + budget
    samples = carried_ = 0
    discard = phase == DEALER_DISCARD
    alive = list(range(k))  # the moves still played out (the sequential test drops some)
    racing: list[int] = []  # `alive` as the last deal played it out
    racing_cards = cards
    pairs: list[tuple[int, int, list[int], int]] = []  # per pair of `racing`: where it adds up
    values = [0] * k
    while True:
        hands = None
        while deals is not None and hands is None:
            if taken >= SEQUENCE_CAP:
                deals = None  # too many dropped: sample afresh
                break
            deal = deals.deal(taken)
            if deal is not None and knowledge.holds(deal[:4]):
                hands = list(deal[:4])
                carried_ += taken < deals.remembered
            taken += 1
        if hands is None:
            hands = knowledge.sample(rng, bounded=samples % UNBOUNDED_EVERY != UNBOUNDED_EVERY - 1)
        if len(racing) != len(alive):  # (moves are only ever dropped)
            racing = alive.copy()
            if cards is not None:
                racing_cards = [cards[i] for i in racing]
            pairs = [
                (a, b, squares[racing[a]], racing[b])
                for a in range(len(racing))
                for b in range(a + 1, len(racing))
            ]
        if racing_cards is None:
            for n, i in enumerate(racing):
                values[n] = _after_bid(list(hands), table, legal[i], rng)
        else:
            _card_values(hands, table, racing_cards, discard, values)
        for n, i in enumerate(racing):
            totals[i] += values[n]
            played[i] += 1
        if sequential:
            for a, b, row, j in pairs:
                d = values[a] - values[b]
                row[j] += d * d
        samples += 1
        if max_samples is not None and samples >= max_samples:
            break
        if deadline is not None and samples >= MIN_SAMPLES and time.perf_counter() > deadline:
            break
        testing = sequential and samples >= MIN_DROP and samples % TEST_EVERY == 0
        if testing and _race(samples, alive, totals, squares) and samples >= MIN_SEQUENTIAL:
            break
    best = max(alive, key=lambda i: (totals[i], -i))
    mean = [totals[i] / played[i] if played[i] else float("-inf") for i in range(k)]
    ranked = sorted((i for i in range(k) if played[i]), key=lambda i: (i != best, -mean[i], i))
    means = tuple((str(legal[i]), mean[i]) for i in ranked)
    return Decision(legal[best], carried_, samples - carried_, means)
