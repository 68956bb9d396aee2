"""Random legal play to the end of matches: the invariants of the engine (hypothesis)."""

from __future__ import annotations

import dataclasses
import itertools
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import Card, card
from games.contract import RoundRecord, RoundSetup
from games.dame import GAME, DameAction, DameRound
from games.dame.actions import KINDS, TOKENS
from games.dame.bots import simple, strong
from games.dame.bots.policy import choose_action
from games.dame.rules import DECK, NATURAL_RANKS, TEAMS, VALUE, WILD_RANKS
from games.errors import IllegalAction
from games.match import Match

PROPERTY = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TOKEN_TEXTS = sorted(TOKENS)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _strings(item)


def _state(round_: DameRound) -> tuple[Any, ...]:
    return (
        round_.record(),
        [round_.view(s) for s in range(4)],
        round_.public_view(),
        tuple(round_.stock),
        tuple(tuple(h) for h in round_.hands),
        tuple(tuple(p.items()) for p in round_.packs),
        tuple(round_.announced_turn),
    )


def _check_cards_accounted(round_: DameRound) -> None:
    places = [*round_.stock, *round_.pile]
    places += [c for hand in round_.hands for c in hand]
    places += [c for packs in round_.packs for pack in packs.values() for c in pack]
    assert len(places) == 108
    assert {id(c) for c in places} == {id(c) for c in DECK}


def _check_views_leak_nothing(round_: DameRound) -> None:
    hidden_stock = {c.code for c in round_.stock}
    public = set(_strings(round_.public_view()))
    all_hands = {c.code for hand in round_.hands for c in hand}
    if round_.finished:  # the hand is over: every hand face up, never the stock
        shown = round_.public_view().shown_hands
        assert [set(h) for h in shown] == [{c.code for c in h} for h in round_.hands]
        assert not public & hidden_stock
        return
    assert not public & (all_hands | hidden_stock)
    for seat in range(4):
        view = round_.view(seat)
        own = {c.code for c in round_.hands[seat]}
        assert set(view.hand) == own
        others = all_hands - own
        assert not set(_strings(view)) & (others | hidden_stock)
        assert view.hand_sizes == tuple(len(h) for h in round_.hands)


def _check_score_formula(round_: DameRound) -> None:
    winner = round_.winner
    assert winner is not None and not round_.hands[winner]
    result = round_.result()
    for team, seats in enumerate(TEAMS):
        packs = sum(VALUE[c] for pack in round_.packs[team].values() for c in pack)
        in_hands = sum(VALUE[c] for s in seats for c in round_.hands[s])
        assert result.points[team] == (packs if winner in seats else packs - in_hands)


def _check_legal_matches_view(round_: DameRound, seat: int, legal: list[DameAction]) -> None:
    """Every listed action passes the rules, and the view's options describe the same moves."""
    for action in legal:
        round_.check(seat, action)
        assert GAME.parse_action(str(action)) == action  # built canonical
    options = round_.view(seat).legal
    assert options is not None
    kinds = {a.kind for a in legal}
    assert ("draw" in kinds) == options.draw
    pairs = {
        (x.split("#")[0], y.split("#")[0])
        for i, x in enumerate(options.take)
        for y in options.take[i + 1 :]
    }
    takes = {a.cards for a in legal if a.kind == "take" and a.cards}
    assert {cards for cards in takes if len(cards) == 2} == pairs
    # and, as one action, the take with every natural of the rank (when it keeps two cards)
    assert {cards for cards in takes if len(cards) > 2} <= {
        tuple(code.split("#")[0] for code in options.take)
    }
    assert ("meld" in kinds) == bool(options.meld_ranks)
    assert {a.rank for a in legal if a.kind == "add"} == set(options.add_ranks)
    assert [a.cards[0] for a in legal if a.kind == "discard"] == [
        code.split("#")[0] for code in options.discard
    ]


def _random_action(rng: random.Random, hand: list[Card]) -> DameAction | str:
    """An action, often of cards in hand (codes, names or ranks), or text that is no action."""
    if rng.random() < 0.05:
        return rng.choice(["", "fly", "meld", "add 2 2C", "discard QS QH", "take 7S#7"])
    kind = rng.choice(KINDS)
    mine = [t for c in hand for t in (c.name, f"{c.name}#{c.copy}", c.rank) if t in TOKENS]
    pool = mine if mine and rng.random() < 0.7 else TOKEN_TEXTS
    tokens = tuple(rng.choice(pool) for _ in range(rng.randint(1, 4)))
    if kind in ("draw", "announce"):
        return DameAction(kind)
    if kind == "discard":
        return DameAction(kind, tokens[:1])
    if kind == "take" and rng.random() < 0.2:
        return DameAction(kind)
    return DameAction(kind, tokens, rng.choice(NATURAL_RANKS) if kind == "add" else "")


def _play_round(round_: DameRound, rng: random.Random, policy_share: float) -> None:
    """Random legal play (some of it by the simple policy) with random probes of illegal
    actions, checking the invariants after every step."""
    while not round_.finished:
        (seat,) = round_.to_act()
        legal = round_.legal_actions(seat)
        assert legal and all(round_.legal_actions(s) == [] for s in range(4) if s != seat)
        _check_legal_matches_view(round_, seat, legal)
        probe = _random_action(rng, round_.hands[seat])
        if probe not in legal:
            before = _state(round_)
            try:
                round_.apply(rng.choice([s for s in range(4) if s != seat] + [seat] * 6), probe)
            except IllegalAction:
                assert _state(round_) == before
            else:
                _check_cards_accounted(round_)
                continue  # the probe was a legal action written otherwise (e.g. a big meld)
        if rng.random() < policy_share:
            action = choose_action(round_, seat, rng)
        else:
            action = rng.choice(legal)
        round_.apply(seat, str(action) if rng.random() < 0.5 else action)
        _check_cards_accounted(round_)
        _check_views_leak_nothing(round_)


@PROPERTY
@given(rng=st.randoms(use_true_random=False), policy_share=st.sampled_from([0.0, 0.5, 0.9]))
def test_random_legal_play_to_the_end_of_a_match(rng: random.Random, policy_share: float) -> None:
    options = GAME.options(target=300, take_onto_team_pack=rng.random() < 0.5)
    match = Match(GAME, options, 4, first_dealer=rng.randrange(4))
    while not match.finished:
        round_ = match.new_round(seed=rng.randrange(2**32))
        assert isinstance(round_, DameRound)
        _play_round(round_, rng, policy_share)
        _check_score_formula(round_)
        record = RoundRecord.model_validate_json(round_.record().model_dump_json())
        again = GAME.replay(record)
        assert again.record() == round_.record()
        assert [again.view(s) for s in range(4)] == [round_.view(s) for s in range(4)]
        assert again.public_view() == round_.public_view()
        assert again.result() == round_.result()
        match.add_round(round_.result())
    best = max(match.totals)
    assert best >= options.target and match.totals.count(best) == 1
    assert match.winners == (match.totals.index(best),)


@settings(PROPERTY, max_examples=60)
@given(
    rng=st.randoms(use_true_random=False),
    strong_seats=st.sets(st.integers(0, 3)),
    onto_pack=st.booleans(),
)
def test_every_policy_move_is_legal(
    rng: random.Random, strong_seats: set[int], onto_pack: bool
) -> None:
    """Bots of both policies, in any mix, only ever choose moves the engine accepts (the
    service would otherwise log an error and play another move)."""
    setup = RoundSetup(n_seats=4, dealer=rng.randrange(4))
    options = GAME.options(take_onto_team_pack=onto_pack)
    round_ = GAME.new_round(options, setup, seed=rng.random())
    assert isinstance(round_, DameRound)
    while not round_.finished:
        (seat,) = round_.to_act()
        policy = strong if seat in strong_seats else simple
        action = policy.choose_action(round_, seat, rng)
        round_.check(seat, action)
        assert GAME.parse_action(str(action)) == action
        round_.apply(seat, action)
        assert len(round_.history) < 2_000, "a hand of bots always ends"
    _check_score_formula(round_)


@pytest.mark.parametrize("seed", [0, 1])
def test_full_target_match_by_policy_and_random_play_ends_with_one_winner(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(GAME, GAME.options(), 4)
    while not match.finished:
        round_ = match.new_round(seed=f"{seed}/{match.round_no}")
        assert isinstance(round_, DameRound)
        _play_round(round_, rng, policy_share=0.7)
        _check_score_formula(round_)
        assert GAME.replay(round_.record()).result() == round_.result()
        match.add_round(round_.result())
    assert max(match.totals) >= 1000 and len(match.winners or ()) == 1


def test_legal_melds_of_a_big_hand_are_every_pack_of_three_the_rules_accept() -> None:
    """A player who takes every pile and lays nothing holds 30 cards and more: the melds listed
    for such a hand are exactly the packs of three card names `check` accepts, each once, and
    each rank's whole natural pack (more than three), and the notation offered is theirs."""
    rng = random.Random(4)
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4), seed=11)
    hoarder, checked = 1, 0
    while checked < 3:
        assert not round_.finished  # nobody lays, so nobody goes out
        seat = round_.turn
        options = round_.play_options(seat)
        assert options is not None
        hand = round_.hands[seat]
        if options.draw:
            take = seat == hoarder and options.take
            names = " ".join(code.split("#")[0] for code in options.take[:2])
            round_.apply(seat, f"take {names}" if take else "draw")
            continue
        if seat == hoarder and len(hand) >= 30:
            names = sorted({c.name for c in hand}, key=lambda name: TOKENS[name].sort)
            accepted = set()
            for combo in itertools.combinations_with_replacement(names, 3):
                try:
                    round_.check(seat, DameAction("meld", combo))
                except IllegalAction:
                    continue
                accepted.add(combo)
            legal = round_.legal_actions(seat)
            listed = [a.cards for a in legal if a.kind == "meld"]
            naturals: dict[str, list[str]] = {}
            for c in sorted(hand, key=lambda c: TOKENS[c.name].sort):
                if c.rank not in WILD_RANKS:
                    naturals.setdefault(c.rank, []).append(c.name)
            wholes = {
                tuple(names)
                for names in naturals.values()
                if len(names) > 3 and any(m[0] in names for m in accepted)
            }
            assert len(listed) == len(set(listed)) and set(listed) == accepted | wholes
            assert round_.legal_notation(seat) == tuple(str(a) for a in legal)
            assert all(GAME.parse_action(str(a)) == a for a in legal)
            checked += 1
        round_.apply(seat, "discard " + rng.choice(options.discard).split("#")[0])


def _names(codes: Iterator[str] | tuple[str, ...]) -> list[str]:
    return sorted(code.split("#")[0] for code in codes)


def _by_name(round_: DameRound, seat: int) -> tuple[Any, ...]:
    """What a state shows, copies of a card not told apart (a name picks its lowest copy)."""
    view = round_.view(seat)
    packs = [[(p.rank, _names(p.cards)) for p in team] for team in view.packs]
    return (view.phase, view.turn, _names(view.hand), view.hand_sizes, packs, view.discard)


def _random_lay(rng: random.Random, round_: DameRound, seat: int) -> DameAction | None:
    """A take, new pack or add of random cards of one rank (codes), any number of them."""
    hand = round_.hands[seat]
    wilds = [c.code for c in hand if c.rank in WILD_RANKS]
    if not round_.drawn:
        if not round_.pile:
            return None
        naturals = [c.code for c in hand if c.rank == round_.pile[-1].rank]
        return DameAction("take", tuple(rng.sample(naturals, rng.randint(0, len(naturals)))))
    packs = round_.packs[seat % 2]
    rank = rng.choice(sorted({c.rank for c in hand if c.rank not in WILD_RANKS} | set(packs)))
    naturals = [c.code for c in hand if c.rank == rank]
    chosen = rng.sample(naturals, rng.randint(0, len(naturals)))
    chosen += rng.sample(wilds, rng.randint(0, min(len(wilds), 3)))
    if not chosen:
        return None
    if rank in packs:
        return DameAction("add", tuple(chosen), rank)
    return DameAction("meld", tuple(chosen))


def _reached_by_offered_moves(round_: DameRound, seat: int, action: DameAction) -> DameRound:
    """A copy of the round where `action`'s cards were laid by offered moves only: the take of
    two naturals or a pack of three (naturals first), then each other card by a single add."""
    copy = pickle.loads(pickle.dumps(round_))
    names = [code.split("#")[0] for code in action.cards]
    names.sort(key=lambda name: TOKENS[name].sort)
    first = 2 if action.kind == "take" else 3 if action.kind == "meld" else 0
    steps = [DameAction(action.kind, tuple(names[:first]), action.rank)] if first else []
    # a take's rank is the top card's; a new pack's, its first card's (a natural: sorted first)
    take = action.kind == "take"
    rank = round_.pile[-1].rank if take else action.rank or card(names[0]).rank
    steps += [DameAction("add", (name,), rank) for name in names[first:]]
    for step in steps:
        assert str(step) in copy.legal_notation(seat), (str(action), str(step))
        copy.apply(seat, step)
    return copy


@settings(PROPERTY, max_examples=20)
@given(rng=st.randoms(use_true_random=False))
def test_every_legal_lay_is_offered_or_reached_by_offered_moves_of_the_same_turn(
    rng: random.Random,
) -> None:
    """Dame de Pique lists the offered moves, not every legal one (`lists_every_move` is
    False): a take, pack or add of any cards `check` accepts is listed, or the same cards
    land through listed moves of the same turn (a pack of three, or a take of two, then adds),
    to the same state (copies of a card aside)."""
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4), seed=rng.randrange(2**32))
    assert isinstance(round_, DameRound) and not round_.lists_every_move
    unlisted = 0
    while not round_.finished and len(round_.history) < 150:
        (seat,) = round_.to_act()
        for _ in range(3):
            lay = _random_lay(rng, round_, seat)
            if lay is None:
                continue
            try:
                round_.check(seat, lay)
            except IllegalAction:
                continue
            if str(lay) in round_.legal_notation(seat):
                continue
            unlisted += 1
            direct = pickle.loads(pickle.dumps(round_))
            direct.apply(seat, lay)
            reached = _reached_by_offered_moves(round_, seat, lay)
            assert _by_name(reached, seat) == _by_name(direct, seat), str(lay)
        round_.apply(seat, choose_action(round_, seat, rng))
    assert unlisted or round_.finished
