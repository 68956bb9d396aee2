"""The Euchre hot path on integers: card ids, bitmask hands and tables per trump.

Card id = index in `ranking.DECK` (suit-major: ♠ ♥ ♦ ♣, each 9 10 J Q K A), so a hand is a
24-bit mask and a suit is a mask too. Every table below is derived once from `ranking`'s
`EFFECTIVE` and `POWER`, so the integer engine and `EuchreRound` cannot disagree on card order
(tests/games/euchre/test_fast.py also plays both side by side). Nothing here allocates per card
played: state lives in local ints, lookups index flat lists.

`random_hand` plays one whole hand with uniformly random legal actions (the benchmark's unit,
like OpenSpiel's random simulations). `play_tricks` with `heuristic_card` is the reference
for the search bot's rollouts, which `games.euchre.bots.rollout` plays faster on renumbered cards
(tests/games/euchre/test_rollout.py holds them to the same score).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.cards import SUITS, Card
from games.euchre.ranking import DECK, EFFECTIVE, POWER

N_CARDS = 24
CARD_ID: dict[Card, int] = {c: i for i, c in enumerate(DECK)}
SUIT_ID: dict[str, int] = {s: i for i, s in enumerate(SUITS)}
BIT: tuple[int, ...] = tuple(1 << i for i in range(N_CARDS))
RANK_OF: tuple[int, ...] = tuple(i % 6 for i in range(N_CARDS))  # 0 = nine … 5 = ace
ACE = 5

# EFF[t][c]: effective suit of card c when t is trump (the left bower is a trump).
EFF: tuple[tuple[int, ...], ...] = tuple(
    tuple(SUIT_ID[EFFECTIVE[t][c]] for c in DECK) for t in SUITS
)
# SUIT_MASK[t][s]: the cards of effective suit s when t is trump.
SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[c] for c in range(N_CARDS) if EFF[t][c] == s) for s in range(4)) for t in range(4)
)
# POW[t][c]: trick power (trumps 20..26, plain cards 1..6), as ranking.POWER.
POW: tuple[tuple[int, ...], ...] = tuple(tuple(POWER[t][c] for c in DECK) for t in SUITS)
# BEATS[t * 4 + led][c]: the card's power in a trick led in suit `led`: trumps keep theirs,
# cards of the led suit their plain power, any other card 0 (it can never win the trick).
BEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(POW[t][c] if EFF[t][c] in (t, led) else 0 for c in range(N_CARDS))
    for t in range(4)
    for led in range(4)
)
# LOW[t][c]: how cheap a card is to throw away: plain cards first, then trumps, by power.
LOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(POW[t][c] + (100 if EFF[t][c] == t else 0) for c in range(N_CARDS)) for t in range(4)
)
# DISCARD_KEY[t][c]: ranking.lowest_discard's order: plain cards by rank then suit ♠ ♥ ♦ ♣,
# then trumps by power.
DISCARD_KEY: tuple[tuple[int, ...], ...] = tuple(
    tuple(1000 + POW[t][c] if EFF[t][c] == t else RANK_OF[c] * 4 + c // 6 for c in range(N_CARDS))
    for t in range(4)
)


def card_ids(cards: list[Card] | tuple[Card, ...]) -> int:
    """The bitmask of these cards."""
    mask = 0
    for c in cards:
        mask |= BIT[CARD_ID[c]]
    return mask


def cards_of(mask: int) -> list[Card]:
    return [DECK[i] for i in range(N_CARDS) if mask >> i & 1]


def points(maker_tricks: int, alone: bool) -> tuple[int, int]:
    """(makers' points, defenders' points): scoring.score_hand without the outcome name."""
    if maker_tricks < 3:
        return 0, 2
    if maker_tricks == 5:
        return (4 if alone else 2), 0
    return 1, 0


def auto_discard(hand: int, trump: int) -> int:
    """Card id of the `auto` dealer discard (ranking.lowest_discard) among the cards of `hand`."""
    return extreme(hand, DISCARD_KEY[trump], False).bit_length() - 1


def _pick(mask: int, r: float) -> int:  # (inlined in random_hand's trick loop)
    """The bit of the set card chosen by r in [0, 1)."""
    k = int(r * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


# choose(seat, legal, trump, makers, led, best, best_seat) -> the bit of the card to play
PlayPolicy = Callable[[int, int, int, int, int, int, int], int]


def play_tricks(
    hands: list[int],
    trump: int,
    makers: int,
    seat: int,
    sitting_out: int,
    led: int,
    best: int,
    best_seat: int,
    in_trick: int,
    won: list[int],
    choose: PlayPolicy,
    forced: int = 0,
) -> None:
    """Play the hand to its end from the given trick state (mutates `hands` and `won`).

    `seat` acts next; `led` is the led effective suit (-1 before a lead), `best`/`best_seat`
    the winning power and seat so far, `in_trick` the cards already in the trick, `makers`
    the team that made trump; `choose` (a `PlayPolicy`) returns the bit of the card to play,
    except for the first card when `forced` (its bit) is given."""
    size = 3 if sitting_out >= 0 else 4
    masks = SUIT_MASK[trump]
    eff = EFF[trump]
    base = trump * 4
    beats = BEATS[base + led] if led >= 0 else None
    while True:
        hand = hands[seat]
        if not hand:
            return
        legal = hand & masks[led] if led >= 0 else hand
        if not legal:
            legal = hand
        if forced:
            bit, forced = forced, 0
        else:
            bit = choose(seat, legal, trump, makers, led, best, best_seat)
        hands[seat] = hand ^ bit
        c = bit.bit_length() - 1
        if led < 0:
            led = eff[c]
            beats = BEATS[base + led]
            best = beats[c]
            best_seat = seat
        else:
            p = beats[c]  # type: ignore[index]
            if p > best:
                best = p
                best_seat = seat
        in_trick += 1
        if in_trick == size:
            won[best_seat & 1] += 1
            seat = best_seat
            led = -1
            in_trick = 0
        else:
            seat = (seat + 1) & 3
            if seat == sitting_out:
                seat = (seat + 1) & 3


def heuristic_card(
    seat: int, legal: int, trump: int, makers: int, led: int, best: int, best_seat: int
) -> int:
    """games.euchre.bots.policy's play rule on bitmasks, ties to the lowest card id: lead the top
    trump for the makers, else an off-suit ace, else the cheapest card; follow with the
    cheapest winning card unless the partner is winning."""
    low = LOW[trump]
    if led < 0:
        if (seat & 1) == makers:
            trumps = legal & SUIT_MASK[trump][trump]
            if trumps:
                return extreme(trumps, POW[trump], True)
        aces = legal & ACES & ~SUIT_MASK[trump][trump]
        if aces:
            return aces & -aces
        return extreme(legal, low, False)
    if (best_seat - seat) & 1 == 0:
        return extreme(legal, low, False)
    beats = BEATS[trump * 4 + led]
    pick = 0
    pick_power = 99
    m = legal
    while m:
        b = m & -m
        p = beats[b.bit_length() - 1]
        if best < p < pick_power:
            pick, pick_power = b, p
        m ^= b
    return pick or extreme(legal, low, False)


ACES = sum(BIT[c] for c in range(N_CARDS) if RANK_OF[c] == ACE)


def extreme(mask: int, key: tuple[int, ...], highest: bool) -> int:
    pick = mask & -mask
    value = key[pick.bit_length() - 1]
    mask ^= pick
    while mask:
        b = mask & -mask
        v = key[b.bit_length() - 1]
        if (v > value) if highest else (v < value):
            pick, value = b, v
        mask ^= b
    return pick


def random_hand(
    rng: random.Random,
    dealer: int,
    *,
    stick_the_dealer: bool = True,
    deck: list[int] | None = None,
    trace: list[tuple[str, int]] | None = None,
) -> tuple[int, int]:
    """One hand with uniformly random legal actions: (team 0 points, team 1 points).

    Dealt as `deal.deal` does, from `deck` (card ids, top first) or a fresh shuffle. Round 1
    offers pass, order, order alone; round 2 pass (unless the dealer is stuck) and each other
    suit, alone or not; the dealer discards one of his five dealt cards. `trace`, when given,
    receives every action as (kind, value), and before each card the legal cards as
    ("legal", mask), for the tests that replay it on `EuchreRound`."""
    r = rng.random
    if deck is None:  # Fisher-Yates on the 21 cards that matter (the buried three do not)
        deck = list(range(N_CARDS))
        for i in range(21):
            j = i + int(r() * (N_CARDS - i))
            deck[i], deck[j] = deck[j], deck[i]
    hands = [0, 0, 0, 0]
    for i in range(4):
        k = i * 5
        hands[(dealer + 1 + i) & 3] = (
            BIT[deck[k]] | BIT[deck[k + 1]] | BIT[deck[k + 2]] | BIT[deck[k + 3]] | BIT[deck[k + 4]]
        )
    turned = deck[20]
    turned_suit = turned // 6
    trump = maker = -1
    alone = False
    seat = (dealer + 1) & 3
    for _ in range(4):  # round 1: pass, order, order alone, equally likely
        x = int(r() * 3)
        if x:
            trump, maker, alone = turned_suit, seat, x == 2
            if trace is not None:
                trace.append(("order", x - 1))
            break
        if trace is not None:
            trace.append(("pass", 0))
        seat = (seat + 1) & 3
    else:
        for _ in range(4):  # round 2: seat == dealer on the last pass
            stuck = stick_the_dealer and seat == dealer
            n = 6 if stuck else 7
            x = int(r() * n) - (0 if stuck else 1)
            if x >= 0:
                suit = x >> 1
                trump, maker, alone = suit + (suit >= turned_suit), seat, bool(x & 1)
                if trace is not None:
                    trace.append(("call", trump * 2 + alone))
                break
            if trace is not None:
                trace.append(("pass", 0))
            seat = (seat + 1) & 3
        else:
            return 0, 0  # everyone passed twice: a redeal
    sitting_out = (maker + 2) & 3 if alone else -1
    if trump == turned_suit and sitting_out != dealer:  # ordered up: the dealer picks up
        dealt = hands[dealer]
        out = _pick(dealt, r())
        if trace is not None:
            trace.append(("discard", out.bit_length() - 1))
        hands[dealer] = dealt ^ out | BIT[turned]
    # Five tricks of uniformly random legal cards (play_tricks inlined: this is the hot loop).
    won = [0, 0]
    size = 3 if alone else 4
    masks = SUIT_MASK[trump]
    eff = EFF[trump]
    base = trump * 4
    seat = (dealer + 1) & 3
    if seat == sitting_out:
        seat = (seat + 1) & 3
    for _ in range(5):
        hand = m = hands[seat]
        if trace is not None:
            trace.append(("legal", m))
        k = int(r() * hand.bit_count())
        while k:
            m &= m - 1
            k -= 1
        bit = m & -m
        hands[seat] = hand ^ bit
        c = bit.bit_length() - 1
        if trace is not None:
            trace.append(("play", c))
        led_mask = masks[eff[c]]
        beats = BEATS[base + eff[c]]
        best = beats[c]
        best_seat = seat
        for _ in range(size - 1):
            seat = (seat + 1) & 3
            if seat == sitting_out:
                seat = (seat + 1) & 3
            hand = hands[seat]
            m = hand & led_mask or hand
            if trace is not None:
                trace.append(("legal", m))
            k = int(r() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            bit = m & -m
            hands[seat] = hand ^ bit
            c = bit.bit_length() - 1
            if trace is not None:
                trace.append(("play", c))
            if beats[c] > best:
                best = beats[c]
                best_seat = seat
        won[best_seat & 1] += 1
        seat = best_seat
    makers = maker & 1
    made, defended = points(won[makers], alone)
    return (made, defended) if makers == 0 else (defended, made)
