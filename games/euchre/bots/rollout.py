"""The search's rollout: the hand played out by `fast.heuristic_card`'s rule, in bit operations.

A search plays many hands out per decision, so the rule's card choices must cost
almost nothing: on cards relabeled per trump (`relabel`), every choice of the rule is the
lowest or the highest set bit of a mask (how, on `play_out`). So `play_out` plays exactly the
cards `fast.play_tricks(..., heuristic_card)` plays (tests/games/euchre/test_rollout.py plays
both side by side), without a call per card. Trick powers (`best`) and suits (`led`) are the
same numbers in both numberings; only the cards and hands are relabeled.
"""

from __future__ import annotations

from games.euchre.bots.fast import ACES, BEATS, BIT, EFF, LOW, N_CARDS, SUIT_MASK


def _order(t: int) -> list[int]:
    return sorted(range(N_CARDS), key=lambda c: (LOW[t][c], c))


# RELABEL[t][c]: card c's number under trump t; CARD_OF[t][n]: the card numbered n.
CARD_OF: tuple[tuple[int, ...], ...] = tuple(tuple(_order(t)) for t in range(4))
RELABEL: tuple[tuple[int, ...], ...] = tuple(
    tuple(CARD_OF[t].index(c) for c in range(N_CARDS)) for t in range(4)
)


def _mask_of(t: int, cards: int) -> int:
    return sum(BIT[RELABEL[t][c]] for c in range(N_CARDS) if cards >> c & 1)


# BYTES[t][k][b]: the relabeled mask of the cards b << (8 * k) (a 24-bit hand is three bytes).
BYTES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_mask_of(t, b << (8 * k)) for b in range(256)) for k in range(3)) for t in range(4)
)
EFF_R: tuple[tuple[int, ...], ...] = tuple(
    tuple(EFF[t][CARD_OF[t][n]] for n in range(N_CARDS)) for t in range(4)
)
SUIT_MASK_R: tuple[tuple[int, ...], ...] = tuple(
    tuple(_mask_of(t, SUIT_MASK[t][s]) for s in range(4)) for t in range(4)
)
ACES_R: tuple[int, ...] = tuple(_mask_of(t, ACES & ~SUIT_MASK[t][t]) for t in range(4))
# BEATS_R[t][led][n]: fast.BEATS for the card numbered n.
BEATS_R: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(BEATS[t * 4 + led][CARD_OF[t][n]] for n in range(N_CARDS)) for led in range(4))
    for t in range(4)
)
MAX_POWER = 27
# WINNERS[t][led][best]: the numbered cards whose power in a trick led `led` exceeds `best`.
WINNERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(BIT[n] for n in range(N_CARDS) if BEATS_R[t][led][n] > best)
            for best in range(MAX_POWER)
        )
        for led in range(4)
    )
    for t in range(4)
)


# FOLLOWERS[sitting_out + 1][leader]: the seats that follow the leader in a trick, in turn.
FOLLOWERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(s for s in ((leader + i) & 3 for i in range(1, 4)) if s != out) for leader in range(4)
    )
    for out in range(-1, 4)
)
# POWER_OF[t][led]: fast.BEATS by a numbered card's bit; SUIT_OF[t]: its effective suit by bit.
POWER_OF: tuple[tuple[dict[int, int], ...], ...] = tuple(
    tuple({BIT[n]: BEATS_R[t][led][n] for n in range(N_CARDS)} for led in range(4))
    for t in range(4)
)
SUIT_OF: tuple[dict[int, int], ...] = tuple(
    {BIT[n]: EFF_R[t][n] for n in range(N_CARDS)} for t in range(4)
)


TRUMP_SHIFT = N_CARDS - 7  # the trumps are numbered last: the hand's top 7 bits
# TOP_TRUMP[trumps >> TRUMP_SHIFT]: the bit of the highest of these trumps.
TOP_TRUMP: tuple[int, ...] = tuple(
    (1 << (t.bit_length() - 1 + TRUMP_SHIFT)) if t else 0 for t in range(128)
)


def relabel_hands(hands: list[int], trump: int) -> list[int]:
    """The hands (masks of card ids) as masks of the cards' numbers under `trump`."""
    b0, b1, b2 = BYTES[trump]
    return [b0[h & 255] | b1[h >> 8 & 255] | b2[h >> 16] for h in hands]


def relabel(hand: int, trump: int) -> int:
    """The hand (a mask of card ids) as a mask of the cards' numbers under `trump`."""
    b = BYTES[trump]
    return b[0][hand & 255] | b[1][hand >> 8 & 255] | b[2][hand >> 16]


def play_out(
    hands: list[int],
    trump: int,
    makers: int,
    seat: int,
    sitting_out: int,
    led: int,
    best: int,
    best_seat: int,
    in_trick: int,
    won_0: int,
    won_1: int,
    forced: int = 0,
) -> int:
    """The tricks the makers end with when the hand is played out by the heuristic (mutates
    `hands`, relabeled masks). Arguments as `fast.play_tricks`'s, with the tricks won so far
    (`won_0`, `won_1`) and the first card (`forced`, a relabeled bit) if given.

    For a trump `t`, `RELABEL[t]` numbers the 24 cards in `fast.LOW[t]`'s order (plain cards by
    power, then trumps by power; ties, among plain cards of equal power, by card id). In that
    numbering every choice of the rule is the lowest or the highest set bit of a mask:

    - the cheapest card of a hand is its lowest bit (`extreme(legal, LOW, False)`);
    - the makers' top trump is the highest bit of the hand's trumps (trumps are numbered last, by
      power);
    - the off-suit ace to lead is the lowest bit of the hand's plain aces (equal power: by card id);
    - the cheapest card that beats the trick's best is the lowest bit of the legal cards among
      `WINNERS[t][led][best]` (the cards that would take the trick: the led suit's plain cards and
      the trumps, each numbered by power).

    Play stops as soon as the score is settled (`fast.points` tells only under three tricks,
    three or four, and five): once the defenders have three tricks, or the makers three and
    the defenders one; the makers' tricks then are as many as they had, which scores the same.
    """
    size = 3 if sitting_out >= 0 else 4
    masks = SUIT_MASK_R[trump]
    eff = EFF_R[trump]
    beats_by_led = BEATS_R[trump]
    winners_by_led = WINNERS[trump]
    trumps = masks[trump]
    aces = ACES_R[trump]
    won = [won_0, won_1]
    defenders = 1 - makers
    # The trick under way, card by card (it may be led by `forced`, or be half played).
    if led >= 0:
        beats = beats_by_led[led]
        winners = winners_by_led[led]
        follow = masks[led]
    else:
        beats = winners = ()
        follow = 0
    while True:
        hand = hands[seat]
        if not hand:
            return won[makers]
        if forced:
            bit, forced = forced, 0
        elif led < 0:
            bit = _lead(hand, trumps if (seat & 1) == makers else 0, aces)
        else:
            legal = hand & follow or hand
            # an opponent winning: the cheapest card that beats; else the cheapest card
            bit = (legal & winners[best] or legal) if (best_seat - seat) & 1 else legal
            bit &= -bit
        hands[seat] = hand ^ bit
        c = bit.bit_length() - 1
        if led < 0:
            led = eff[c]
            beats = beats_by_led[led]
            winners = winners_by_led[led]
            follow = masks[led]
            best = beats[c]
            best_seat = seat
        else:
            p = beats[c]
            if p > best:
                best = p
                best_seat = seat
        in_trick += 1
        if in_trick == size:
            won[best_seat & 1] += 1
            seat = best_seat
            break
        seat = (seat + 1) & 3
        if seat == sitting_out:
            seat = (seat + 1) & 3
    # Whole tricks: a lead, then the others follow (the hot loop: one card is a few bit
    # operations, no call).
    followers_of = FOLLOWERS[sitting_out + 1]
    power_of = POWER_OF[trump]
    suit_of = SUIT_OF[trump]
    made, against = won[makers], won[defenders]
    while hands[seat]:
        if against >= 3 or (made >= 3 and against):
            break
        hand = hands[seat]
        if (seat & 1) == makers and hand & trumps:
            bit = TOP_TRUMP[hand >> TRUMP_SHIFT]
        else:
            bit = hand & aces or hand
            bit &= -bit
        hands[seat] = hand ^ bit
        led = suit_of[bit]
        power_by_bit = power_of[led]  # keyed by a card's bit, not its number as `beats`
        winners = winners_by_led[led]
        follow = masks[led]
        best = power_by_bit[bit]
        best_seat = seat
        for seat in followers_of[best_seat]:
            hand = hands[seat]
            legal = hand & follow or hand
            bit = (legal & winners[best] or legal) if (best_seat - seat) & 1 else legal
            bit &= -bit
            hands[seat] = hand ^ bit
            p = power_by_bit[bit]
            if p > best:
                best = p
                best_seat = seat
        if best_seat & 1 == makers:
            made += 1
        else:
            against += 1
        seat = best_seat
    return made


def _lead(hand: int, trumps: int, aces: int) -> int:
    """The card to lead: the top trump (`trumps`: the makers' trumps, 0 for the defenders),
    else an off-suit ace, else the cheapest card."""
    if hand & trumps:
        return TOP_TRUMP[hand >> TRUMP_SHIFT]
    bit = hand & aces or hand
    return bit & -bit
