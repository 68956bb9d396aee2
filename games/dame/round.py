"""One hand of Dame de Pique: the deal, the turns, going out and the hand's score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement

from games.cards import Card, shuffled
from games.contract import Event, Round, RoundResult, RoundSetup
from games.dame.actions import (
    ADD,
    ANNOUNCE,
    CODE,
    DISCARD,
    DRAW,
    MELD,
    NAME,
    RANK,
    TAKE,
    TOKENS,
    DameAction,
    announce,
    legal_action,
    legal_meld,
)
from games.dame.knock import could_go_out_next_turn
from games.dame.options import DameOptions
from games.dame.rules import (
    HAND_SIZE,
    IS_WILD,
    KEEP_BEFORE_GOING_OUT,
    N_SEATS,
    PACK_MIN,
    RANK_ORDER,
    RESHUFFLE_SEED,
    SORT_KEY,
    TAKE_NATURALS,
    TEAMS,
    VALUE,
)
from games.dame.views import DRAW_PHASE, OVER, PLAY_PHASE, DameView, PackView, PlayOptions
from games.errors import IllegalAction


def _sorted_codes(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(c.code for c in sorted(cards, key=SORT_KEY.__getitem__))


class DameRound(Round[DameOptions, DameAction, DameView]):
    """State: four hands, the stock (top last), the face-up discard pile (top last), each
    team's packs by rank (one pack per rank and team: a second meld of a laid rank is an add),
    the turn of each seat's latest announcement, whether the player to act announced on their
    previous turn (and so may go out on this one), and whether that player has drawn."""

    lists_every_move = False  # a pack of any size is legal: the list offers the usual ones

    def __init__(self, options: DameOptions, setup: RoundSetup, deck: Sequence[Card]) -> None:
        super().__init__(options, setup, deck)
        first = (setup.dealer + 1) % N_SEATS
        self.hands: list[list[Card]] = [[] for _ in range(N_SEATS)]
        for i in range(N_SEATS * HAND_SIZE):  # one card at a time, from the dealer's left
            self.hands[(first + i) % N_SEATS].append(self.deck_order[i])
        self.stock: list[Card] = list(reversed(self.deck_order[N_SEATS * HAND_SIZE :]))
        self.pile: list[Card] = []
        self.packs: tuple[dict[str, list[Card]], ...] = ({}, {})
        self.pack_points: list[int] = [0, 0]
        self.announced_turn: list[int] = [-1] * N_SEATS  # turn number of the latest announcement
        self.out_allowed = False  # the player to act announced on their previous turn
        self.turn = first
        self.turn_no = 0
        self.drawn = False
        self.winner: int | None = None
        self.went_out_by = ""
        self.reshuffles = 0
        self._planned: tuple[int, DameAction, list[Card]] | None = None
        # Each team's packs as views, built again only when the team lays (`_lay`): every
        # view shows both teams' packs, and most actions lay nothing.
        self._pack_views: list[tuple[PackView, ...] | None] = [None, None]

    # -- state queries ---------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return () if self.winner is not None else (self.turn,)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def may_go_out(self, seat: int) -> bool:
        """Going out needs an announcement made on this player's previous turn: it holds for
        the next turn only (a player who did not go out then must announce again)."""
        return self.out_allowed and seat == self.turn

    def announcement_holds(self, seat: int) -> bool:
        """Has this seat announced for its current or next turn (a knock not yet lapsed)?"""
        announced = self.announced_turn[seat]
        return announced >= 0 and self.turn_no <= announced + N_SEATS

    def max_lay(self, seat: int) -> int:
        """How many cards this seat may still lay this turn (it must keep one to discard and
        one to hold until it may go out)."""
        size = len(self.hands[seat])
        return size if self.may_go_out(seat) else max(0, size - KEEP_BEFORE_GOING_OUT)

    def announcement_before(self, seat: int, action: DameAction) -> DameAction | None:
        """The knock, just before a discard that leaves a hand able to go out next turn
        (`knock.could_go_out_next_turn`), when it is legal there and not yet made this turn."""
        if action.kind != DISCARD or seat != self.turn or not self.drawn:
            return None
        if self.announced_turn[seat] == self.turn_no:
            return None  # announced already: once a turn
        try:
            (discarded,) = self._plan(seat, action)
        except (IllegalAction, ValueError):
            return None  # the discard itself is refused: it says why
        kept = [c for c in self.hands[seat] if c is not discarded]
        if not could_go_out_next_turn(kept, self.packs[seat % 2].keys()):
            return None
        return announce()

    # -- legality --------------------------------------------------------------------------
    def check(self, seat: int, action: DameAction) -> None:
        self._planned = (seat, action, self._plan(seat, action))

    def _plan(self, seat: int, action: DameAction) -> list[Card]:
        """The cards of the seat's hand the action moves; raises IllegalAction naming the rule."""
        if self.winner is not None:
            raise IllegalAction("round_over", "The hand is over.")
        if seat != self.turn:
            raise IllegalAction("not_your_turn", f"It is seat {self.turn}'s turn, not {seat}'s.")
        kind = action.kind
        hand = self.hands[seat]
        if not self.drawn:
            if kind == DRAW:
                return []
            if kind == TAKE:
                return self._plan_take(seat, action, hand)
            raise IllegalAction("draw_first", "Draw from the stock or take the pile first.")
        if kind in (DRAW, TAKE):
            raise IllegalAction("already_drawn", "You have already drawn this turn.")
        if kind == ANNOUNCE:
            if self.announced_turn[seat] == self.turn_no:
                raise IllegalAction("already_announced", "You have already announced this turn.")
            return []
        cards = self._resolve(hand, action.cards)
        if kind == DISCARD:
            if len(hand) == 1 and not self.may_go_out(seat):
                raise IllegalAction(
                    "announce_first",
                    "You may discard your last card only after announcing on your previous turn.",
                )
            return cards
        packs = self.packs[seat % 2]
        if kind == MELD:
            if len(cards) < PACK_MIN:
                raise IllegalAction("pack_too_small", f"A new pack needs {PACK_MIN}+ cards.")
            rank = ""
            for c in cards:
                if IS_WILD[c]:
                    continue
                if not rank:
                    rank = c.rank
                elif c.rank != rank:
                    raise IllegalAction("mixed_ranks", "A pack holds cards of one rank.")
            if not rank:
                raise IllegalAction(
                    "pack_needs_natural", "A pack needs at least one natural card (3 to A)."
                )
            if rank in packs:
                raise IllegalAction(
                    "pack_exists", f"Your team has a {rank} pack already: add to it."
                )
        else:  # ADD
            if action.rank not in packs:
                raise IllegalAction("no_such_pack", f"Your team has no {action.rank} pack.")
            for c in cards:
                if not IS_WILD[c] and c.rank != action.rank:
                    raise IllegalAction(
                        "wrong_rank", f"{c.name} does not go on the {action.rank} pack."
                    )
        self._check_keep(seat, len(hand) - len(cards))
        return cards

    def _plan_take(self, seat: int, action: DameAction, hand: list[Card]) -> list[Card]:
        if not self.pile:
            raise IllegalAction("empty_pile", "The discard pile is empty.")
        top = self.pile[-1]
        if IS_WILD[top]:
            raise IllegalAction("wild_on_top", "A wild card on top of the pile blocks the take.")
        if action.cards:
            cards = self._resolve(hand, action.cards)
            if any(IS_WILD[c] for c in cards):
                raise IllegalAction(
                    "take_with_wild", "The pile is taken with natural cards only, no wild card."
                )
            if len(cards) < TAKE_NATURALS or any(c.rank != top.rank for c in cards):
                raise IllegalAction(
                    "take_needs_two_naturals",
                    f"Taking the pile needs two or more natural {top.rank}s from your hand.",
                )
        elif not self.options.take_onto_team_pack:
            raise IllegalAction(
                "take_needs_two_naturals",
                f"Taking the pile needs two or more natural {top.rank}s from your hand.",
            )
        elif top.rank not in self.packs[seat % 2]:
            raise IllegalAction("no_such_pack", f"Your team has no {top.rank} pack.")
        else:
            cards = []
        self._check_keep(seat, len(hand) - len(cards) + len(self.pile) - 1)
        return cards

    def _check_keep(self, seat: int, left: int) -> None:
        if left < KEEP_BEFORE_GOING_OUT and not self.may_go_out(seat):
            raise IllegalAction(
                "announce_first",
                "Keep two cards (one to discard, one to hold): going out needs an announcement "
                "made on your previous turn.",
            )

    @staticmethod
    def _resolve(hand: list[Card], texts: tuple[str, ...]) -> list[Card]:
        """The hand's cards the tokens name: codes first, then names (lowest copy), then ranks
        (suits S H D C, then lowest copy), each among the cards not picked yet."""
        tokens = [TOKENS[t] for t in texts]
        picked: list[Card] = []
        for kind in (CODE, NAME, RANK):
            for tok in tokens:
                if tok.kind != kind:
                    continue
                best: Card | None = None
                key = tok.key
                for c in hand:
                    if kind == CODE:
                        hit = c.code == key
                    elif kind == NAME:
                        hit = c.name == key and (best is None or c.copy < best.copy)
                    else:
                        hit = c.rank == key and (best is None or SORT_KEY[c] < SORT_KEY[best])
                    if hit and c not in picked:
                        best = c
                if best is None:
                    raise IllegalAction("not_in_hand", f"You have no {tok.text} to play.")
                picked.append(best)
        return picked

    # -- effects ---------------------------------------------------------------------------
    def _apply(self, seat: int, action: DameAction) -> list[Event]:
        planned = self._planned
        if planned is None or planned[0] != seat or planned[1] is not action:
            self.check(seat, action)
            planned = self._planned
            assert planned is not None
        self._planned = None
        cards = planned[2]
        kind = action.kind
        hand = self.hands[seat]
        events: list[Event] = []
        if kind == DRAW:
            if not self.stock:
                self._reshuffle(events)
            drawn = self.stock.pop()
            hand.append(drawn)
            self.drawn = True
            events.append(Event("draw", seat, {"card": drawn.code}, frozenset({seat})))
            events.append(Event("drew", seat, {"stock": len(self.stock)}))
        elif kind == TAKE:
            top = self.pile.pop()
            for c in cards:
                hand.remove(c)
            self._lay(seat, top.rank, [*cards, top])
            taken, self.pile = self.pile, []
            hand.extend(taken)
            self.drawn = True
            events.append(
                Event(
                    "take",
                    seat,
                    {
                        "top": top.code,
                        "with": [c.code for c in cards],
                        "pile": [c.code for c in taken],
                    },
                )
            )
        elif kind == ANNOUNCE:
            self.announced_turn[seat] = self.turn_no
            events.append(Event("announce", seat))
        elif kind == DISCARD:
            (c,) = cards
            hand.remove(c)
            self.pile.append(c)
            events.append(Event("discard", seat, {"card": c.code}))
            if hand:
                self.turn = (self.turn + 1) % N_SEATS
                self.turn_no += 1
                self.drawn = False
                # A first turn has no previous turn: no knock (-1) can hold for it, even on
                # the fourth turn of a hand, where turn_no - N_SEATS is -1 too.
                announced = self.announced_turn[self.turn]
                self.out_allowed = announced >= 0 and announced == self.turn_no - N_SEATS
            else:
                self.went_out_by = DISCARD
        else:  # MELD or ADD
            for c in cards:
                hand.remove(c)
            rank = action.rank or next(c.rank for c in cards if not IS_WILD[c])
            self._lay(seat, rank, cards)
            events.append(Event(kind, seat, {"rank": rank, "cards": [c.code for c in cards]}))
        if not hand:
            self.winner = seat
            self.went_out_by = self.went_out_by or "lay"
            events.append(Event("out", seat, {"by": self.went_out_by}))
        return events

    def _lay(self, seat: int, rank: str, cards: list[Card]) -> None:
        team = seat % 2
        pack = self.packs[team].get(rank)
        if pack is None:
            self.packs[team][rank] = pack = []
        pack.extend(cards)
        self.pack_points[team] += sum(VALUE[c] for c in cards)
        self._pack_views[team] = None

    def _reshuffle(self, events: list[Event]) -> None:
        """The whole discard pile becomes the new stock, shuffled as `RESHUFFLE_SEED` says."""
        self.reshuffles += 1
        deck = " ".join(c.code for c in self.deck_order)
        seed = RESHUFFLE_SEED.format(deck=deck, k=self.reshuffles)
        self.stock = list(reversed(shuffled(self.pile, seed)))
        self.pile = []
        events.append(
            Event("reshuffle", None, {"count": self.reshuffles, "stock": len(self.stock)})
        )

    # -- results ---------------------------------------------------------------------------
    def hand_points(self, seat: int) -> int:
        return sum(VALUE[c] for c in self.hands[seat])

    def open_hands(self) -> dict[int, list[Card]]:
        return {s: list(hand) for s, hand in enumerate(self.hands)}

    def dealt(self) -> dict[str, list[Card]]:
        return {f"seat {s}": list(hand) for s, hand in enumerate(self.hands)}

    def result(self) -> RoundResult:
        """The team that went out scores its packs; the other its packs minus its hands."""
        if self.winner is None:
            raise IllegalAction("round_not_over", "The hand is not over.")
        winning_team = self.winner % 2
        points = []
        for team, seats in enumerate(TEAMS):
            score = self.pack_points[team]
            if team != winning_team:
                score -= sum(self.hand_points(s) for s in seats)
            points.append(score)
        return RoundResult(
            points=tuple(points),
            detail={
                "winner": self.winner,
                "team": winning_team,
                "went_out_by": self.went_out_by,
                "packs": list(self.pack_points),
                "hands": [self.hand_points(s) for s in range(N_SEATS)],
            },
        )

    # -- legal actions and views -----------------------------------------------------------
    def play_options(self, seat: int) -> PlayOptions | None:
        """The seat's legal moves by kind (None if it may not act)."""
        if self.winner is not None or seat != self.turn:
            return None
        return self._remember(("options", seat), self._play_options, seat)

    def _play_options(self, seat: int) -> PlayOptions:
        hand = self.hands[seat]
        packs = self.packs[seat % 2]
        if not self.drawn:
            take: tuple[str, ...] = ()
            onto = False
            if self.pile and not IS_WILD[self.pile[-1]]:
                top = self.pile[-1]
                naturals = [c for c in hand if c.rank == top.rank]
                after = len(hand) + len(self.pile) - 1
                if len(naturals) >= TAKE_NATURALS and self.keeps(seat, after - TAKE_NATURALS):
                    take = _sorted_codes(naturals)
                onto = (
                    self.options.take_onto_team_pack
                    and top.rank in packs
                    and self.keeps(seat, after)
                )
            return PlayOptions(
                draw=True, take=take, take_onto_pack=onto, may_go_out=self.may_go_out(seat)
            )
        max_lay = self.max_lay(seat)
        wilds = [c for c in hand if IS_WILD[c]]
        naturals_by_rank = Counter(c.rank for c in hand if not IS_WILD[c])
        meld_ranks: tuple[str, ...] = ()
        if max_lay >= PACK_MIN:
            meld_ranks = tuple(
                r
                for r in sorted(naturals_by_rank, key=lambda r: RANK_ORDER[r])
                if r not in packs and naturals_by_rank[r] + len(wilds) >= PACK_MIN
            )
        add_ranks: tuple[str, ...] = ()
        if max_lay >= 1:
            add_ranks = tuple(
                r
                for r in sorted(packs, key=lambda r: RANK_ORDER[r])
                if wilds or naturals_by_rank[r]
            )
        one_card_left = len(hand) == 1 and not self.may_go_out(seat)
        return PlayOptions(
            meld_ranks=meld_ranks,
            add_ranks=add_ranks,
            wilds=_sorted_codes(wilds),
            max_lay=max_lay,
            announce=self.announced_turn[seat] != self.turn_no,
            may_go_out=self.may_go_out(seat),
            discard=() if one_card_left else _lowest_copies(hand),
        )

    def keeps(self, seat: int, left: int) -> bool:
        """May this seat be left with `left` cards after laying (see `max_lay`)?"""
        return left >= KEEP_BEFORE_GOING_OUT or self.may_go_out(seat)

    def legal_actions(self, seat: int) -> list[DameAction]:
        """The offered moves (`lists_every_move` is False): every draw, take with two naturals,
        announce and discard; every 3-card meld and single-card add (by card name), from which
        every larger lay is reached by further adds; and, as one action each, the whole packs
        a player most often wants: the take with all the naturals of the top card's rank, a new
        pack of all the naturals of a rank, and an add of all the naturals of a pack's rank.
        `check` judges every other lay (any pack of any size)."""
        return list(self._legal(seat)[0])

    def _notation(self, seat: int) -> tuple[str, ...]:
        return self._legal(seat)[1]

    def _legal(self, seat: int) -> tuple[tuple[DameAction, ...], tuple[str, ...]]:
        """The seat's legal actions and their notation (both empty if it may not act)."""
        options = self.play_options(seat)
        if options is None:
            return (), ()
        return self._remember(("legal", seat), self._legal_actions, options)

    def _legal_actions(
        self, options: PlayOptions
    ) -> tuple[tuple[DameAction, ...], tuple[str, ...]]:
        hand = self.hands[self.turn]
        counts = Counter(c.name for c in hand)
        pairs: list[tuple[DameAction, str]] = []
        if not self.drawn:
            pairs.append(legal_action(DRAW))
            names = _names_in_order(code.split("#")[0] for code in options.take)
            for pair in combinations_with_replacement(names, TAKE_NATURALS):
                if pair[0] != pair[1] or counts[pair[0]] >= 2:
                    pairs.append(legal_action(TAKE, pair))
            whole = len(options.take)
            if whole > TAKE_NATURALS and self.keeps(
                self.turn, len(hand) - whole + len(self.pile) - 1
            ):
                pairs.append(legal_action(TAKE, _all_of(names, counts)))
            if options.take_onto_pack:
                pairs.append(legal_action(TAKE))
            return _unzip(pairs)
        names_by_rank: dict[str, list[str]] = {}  # every natural card's name, copies too
        wilds: set[str] = set()
        for c in hand:
            if IS_WILD[c]:
                wilds.add(c.name)
            else:
                names_by_rank.setdefault(c.rank, []).append(c.name)
        wild_names = _names_in_order(wilds)
        wild_key = tuple((name, min(counts[name], PACK_MIN)) for name in wild_names)
        max_lay = options.max_lay
        for rank in options.meld_ranks:
            naturals = names_by_rank.get(rank, [])
            natural_names = _names_in_order(naturals)
            natural_key = tuple((name, min(counts[name], PACK_MIN)) for name in natural_names)
            pairs.extend(_melds(natural_key, wild_key))
            if PACK_MIN < len(naturals) <= max_lay:  # the whole pack of its naturals
                pairs.append(_whole_pack(natural_key))
        for rank in options.add_ranks:
            naturals = names_by_rank.get(rank, [])
            natural_names = _names_in_order(naturals)
            for name in natural_names + wild_names:
                pairs.append(legal_action(ADD, (name,), rank))
            if 1 < len(naturals) <= max_lay:  # every natural of the rank at once
                pairs.append(legal_action(ADD, _all_of(natural_names, counts), rank))
        if options.announce:
            pairs.append(legal_action(ANNOUNCE))
        for code in options.discard:
            pairs.append(legal_action(DISCARD, (code.split("#")[0],)))
        return _unzip(pairs)

    def _view(self, seat: int | None) -> DameView:
        phase = PLAY_PHASE if self.drawn else DRAW_PHASE
        if self.winner is not None:
            phase = OVER
        return DameView(
            seat=seat,
            phase=phase,
            turn=None if self.winner is not None else self.turn,
            dealer=self.setup.dealer,
            hand=() if seat is None else _sorted_codes(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            packs=(self._team_packs(0), self._team_packs(1)),
            discard=self._remember("discard", _codes, self.pile),
            stock_size=len(self.stock),
            reshuffles=self.reshuffles,
            announced=tuple(self.announcement_holds(s) for s in range(N_SEATS)),
            points=tuple(self.pack_points),
            totals=self.setup.totals,
            winner=self.winner,
            legal=None if seat is None else self.play_options(seat),
            shown_hands=()
            if self.winner is None
            else tuple(_sorted_codes(hand) for hand in self.hands),
        )

    def _team_packs(self, team: int) -> tuple[PackView, ...]:
        found = self._pack_views[team]
        if found is None:
            packs = self.packs[team]
            found = self._pack_views[team] = tuple(
                PackView(rank, tuple(c.code for c in pack), sum(VALUE[c] for c in pack))
                for rank, pack in sorted(packs.items(), key=lambda p: RANK_ORDER[p[0]])
            )
        return found

    def view(self, seat: int) -> DameView:
        if not 0 <= seat < N_SEATS:
            raise ValueError(f"there is no seat {seat}")
        return self._remember(seat, self._view, seat)

    def public_view(self) -> DameView:
        return self._remember(None, self._view, None)


# Bounded: the working set is a few keys per rank and hand, shared by every table (a key is
# card names with counts of at most 3); beyond it, melds are listed again, not kept.
@lru_cache(maxsize=4096)
def _melds(
    naturals: tuple[tuple[str, int], ...], wilds: tuple[tuple[str, int], ...]
) -> tuple[tuple[DameAction, str], ...]:
    """The new packs of three cards that can be laid from these natural cards (one rank) and
    wild cards, each given as (name, how many in hand, counted up to 3), in token order."""
    counts = dict(naturals) | dict(wilds)
    first_wild = len(naturals)
    names = [name for name, _ in (*naturals, *wilds)]
    melds = []
    for combo in combinations_with_replacement(names, PACK_MIN):
        first, second, third = combo  # PACK_MIN cards, sorted: equal names adjacent
        if names.index(first) >= first_wild:
            break  # sorted: every later combination starts with a wild card, no pack
        if first == second:
            if counts[first] < (3 if second == third else 2):
                continue
        elif second == third and counts[second] < 2:
            continue
        melds.append(legal_meld(combo))
    return tuple(melds)


@lru_cache(maxsize=4096)
def _whole_pack(naturals: tuple[tuple[str, int], ...]) -> tuple[DameAction, str]:
    """The new pack of every one of these natural cards (name, copies in hand: at most two)."""
    return legal_meld(tuple(name for name, count in naturals for _ in range(count)))


def _unzip(
    pairs: list[tuple[DameAction, str]],
) -> tuple[tuple[DameAction, ...], tuple[str, ...]]:
    if not pairs:
        return (), ()
    actions, texts = zip(*pairs, strict=True)
    return actions, texts


def _codes(cards: list[Card]) -> tuple[str, ...]:
    return tuple(c.code for c in cards)


def _names_in_order(names: Iterable[str]) -> list[str]:
    """Distinct card names in the canonical order of action tokens."""
    return sorted(set(names), key=lambda name: TOKENS[name].sort)


def _all_of(names: list[str], counts: Counter[str]) -> tuple[str, ...]:
    """Every copy in hand of these names (in token order), each named by its name: the tokens
    of an action that moves them all."""
    return tuple(name for name in names for _ in range(counts[name]))


def _lowest_copies(hand: list[Card]) -> tuple[str, ...]:
    """One code per card name in hand: its lowest copy (what a name in an action picks)."""
    lowest: dict[str, Card] = {}
    for c in hand:
        known = lowest.get(c.name)
        if known is None or c.copy < known.copy:
            lowest[c.name] = c
    return _sorted_codes(list(lowest.values()))
