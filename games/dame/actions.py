"""Actions of Dame de Pique and their notation (see the package docstring and README.md).

A card in an action is a *token*: a code `QS#1` (exactly that copy; `QS#0` is the first copy),
a name `QS` (the lowest copy of that card in the player's hand) or a rank `Q` (any card of that
rank in hand: suits in the order S H D C, then the lowest copy). A round resolves codes first,
then names, then ranks, each against the cards not yet picked, so the order of the tokens never
matters: an action keeps its tokens sorted, and `str(action)` is canonical.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from games.cards import JOKER, SUIT_SYMBOLS
from games.dame.rules import DECK, NATURAL_RANKS, RANK_ORDER, SUIT_ORDER, WILD_RANKS
from games.errors import NotationError

DRAW, TAKE, MELD, ADD, ANNOUNCE, DISCARD = "draw", "take", "meld", "add", "announce", "discard"
KINDS = (DRAW, TAKE, MELD, ADD, ANNOUNCE, DISCARD)

CODE, NAME, RANK = 0, 1, 2  # token kinds, resolved in this order


class Token(NamedTuple):
    kind: int  # CODE, NAME or RANK
    text: str  # canonical text: "QS#0", "QS", "Q"
    key: str  # the card code (CODE), the card name (NAME) or the rank (RANK)
    wild: bool
    sort: tuple[int, int, int, int]


def _tokens() -> dict[str, Token]:
    table: dict[str, Token] = {}
    for c in DECK:
        wild = c.rank in WILD_RANKS
        order = (int(wild), RANK_ORDER[c.rank], SUIT_ORDER[c.suit])
        text = f"{c.name}#{c.copy}"
        table[text] = Token(CODE, text, c.code, wild, (*order, c.copy))
        table[c.name] = Token(NAME, c.name, c.name, wild, (*order, -1))
        if c.rank != JOKER:  # "JK" is the joker's name already
            table[c.rank] = Token(
                RANK, c.rank, c.rank, wild, (int(wild), RANK_ORDER[c.rank], -1, -1)
            )
    return table


TOKENS: dict[str, Token] = _tokens()


def token(text: str) -> Token:
    """The token written `text` (`qs`, `Q♠`, `QS#1`, `10`); raises NotationError."""
    found = TOKENS.get(text) or TOKENS.get(_normal(text))
    if found is None:
        raise NotationError(text, "unknown card")
    return found


def _normal(text: str) -> str:
    normal = text.strip().upper()
    for suit, symbol in SUIT_SYMBOLS.items():
        normal = normal.replace(symbol, suit)
    return normal


def _problem(kind: str, cards: tuple[str, ...], rank: str) -> str:
    """What makes this not an action of the notation ("" if nothing)."""
    if kind not in KINDS:
        return f"actions are {', '.join(KINDS)}"
    if kind in (DRAW, ANNOUNCE) and cards:
        return f"{kind} takes no cards"
    if kind in (MELD, ADD) and not cards:
        return "name the cards to lay"
    if kind == DISCARD and len(cards) != 1:
        return "discard exactly one card"
    if (kind == ADD) != bool(rank):
        return "add names a pack rank then cards: add 7 7D"
    if rank and rank not in NATURAL_RANKS:
        return "a pack's rank is 3 to A"
    for text in cards:
        if text not in TOKENS and _normal(text) not in TOKENS:
            return f"unknown card {text}"
    return ""


def _canonical(cards: tuple[str, ...]) -> tuple[str, ...]:
    tokens = [token(t) for t in cards]
    tokens.sort(key=lambda t: t.sort)
    return tuple(t.text for t in tokens)


@dataclass(frozen=True, slots=True)
class DameAction:
    """`kind` is one of KINDS; `cards` the card tokens (kept sorted, canonical texts); `rank`
    the pack an `add` goes to. Build with the helpers below or `parse_action`."""

    kind: str
    cards: tuple[str, ...] = ()
    rank: str = ""

    def __post_init__(self) -> None:
        problem = _problem(self.kind, self.cards, self.rank)
        if problem:
            raise NotationError(" ".join((self.kind, self.rank, *self.cards)).strip(), problem)
        canonical = _canonical(self.cards)
        if canonical != self.cards:
            object.__setattr__(self, "cards", canonical)

    @classmethod
    def trusted(cls, kind: str, cards: tuple[str, ...] = (), rank: str = "") -> DameAction:
        """An action from canonical parts (the engine's own, already sorted and checked),
        built without re-validating them: legal-action generation stays fast."""
        action = object.__new__(cls)
        object.__setattr__(action, "kind", kind)
        object.__setattr__(action, "cards", cards)
        object.__setattr__(action, "rank", rank)
        return action

    def __str__(self) -> str:
        parts = [self.kind]
        if self.rank:
            parts.append(self.rank)
        parts.extend(self.cards)
        return " ".join(parts)


# The engine's legal actions with their notation, by (kind, cards, rank), and the melds by their
# cards alone (the hot loop): a seat's legal list holds hundreds of actions once its hand is
# big, asked again after every action. Bounded by the deck: only canonical actions of card
# *names* go in (54 names; per rank at most C(11, 3) melds of its 4 natural and 5 wild names,
# 9 adds, 10 takes; 54 discards): fewer than 2,500 in each.
_LEGAL: dict[tuple[str, tuple[str, ...], str], tuple[DameAction, str]] = {}
_MELDS: dict[tuple[str, ...], tuple[DameAction, str]] = {}


def legal_action(kind: str, cards: tuple[str, ...] = (), rank: str = "") -> tuple[DameAction, str]:
    """The engine's action from canonical parts (sorted tokens of card names, already checked),
    and its notation: one shared object per action, built once."""
    key = (kind, cards, rank)
    found = _LEGAL.get(key)
    if found is None:
        action = DameAction.trusted(kind, cards, rank)
        found = _LEGAL[key] = (action, str(action))
    return found


def legal_meld(cards: tuple[str, ...]) -> tuple[DameAction, str]:
    """`legal_action(MELD, cards)`, looked up by the cards alone."""
    found = _MELDS.get(cards)
    if found is None:
        found = _MELDS[cards] = legal_action(MELD, cards)
    return found


def draw() -> DameAction:
    return DameAction(DRAW)


def take(*cards: str) -> DameAction:
    return DameAction(TAKE, cards)


def meld(*cards: str) -> DameAction:
    return DameAction(MELD, cards)


def add(rank: str, *cards: str) -> DameAction:
    return DameAction(ADD, cards, rank.strip().upper())


def announce() -> DameAction:
    return DameAction(ANNOUNCE)


def discard(card: str) -> DameAction:
    return DameAction(DISCARD, (card,))


def parse_action(text: str) -> DameAction:
    """`draw`, `take 7H 7S`, `meld 7H 7S 2C`, `add 7 7D`, `announce`, `discard QS`."""
    words = text.split()
    if not words:
        raise NotationError(text, "empty")
    kind = words[0].lower()
    rest = tuple(words[1:])
    rank = ""
    if kind == ADD and rest:
        rank, rest = rest[0].upper(), rest[1:]
    problem = _problem(kind, rest, rank)
    if problem:
        raise NotationError(text, problem)
    return DameAction(kind, tuple(token(w).text for w in rest), rank)
