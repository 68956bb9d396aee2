"""Cards in messages: as the bot's card pictures when available, else as text.

The pictures are those the bot uploaded as application emojis; as text, face-up cards are named
with their suit symbol and face-down ones shown as a card back.

The running bot hands its emojis over with `use_pictures` once their upload is complete, and
takes them back when it closes; none (tests, the local table, an upload Discord refused) means
text. There are two sets: the two-colour deck's, and the four-colour deck's (♦ blue, ♣ green;
its ♥ ♠, joker and back are the two-colour deck's). A message is rendered in one deck: the
two-colour one, unless the rendering runs inside `in_deck(FOUR_COLOURS)` (a player's own
messages, in the deck they chose); a card picture made there (`bot.render.table.with_cards`)
is drawn in that deck too. Button and select labels are plain text, so they use `pretty`; a
component shows the picture through its `emoji` field (`card_emoji`). Inside `as_marks()` (the
Activity page's words) every card, in a sentence or a label, is its name between `CARD_OPEN` and
`CARD_CLOSE`, which the page draws as the card's picture.

Pictures take ~30 characters a card where text takes 2 or 3: a part of a message that would
pass Discord's limit with pictures is written as text instead (`fitting`), so no card is cut
off (a pack of twelve cards, a hand of sixty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from bot.pictures.card_faces import BACK, FOUR_COLOURS, TWO_COLOURS, Deck
from games.cards import card

CARD_BACK = "🂠"
EMPTY_SLOT = "▫️"
NO_CARD = "—"
# The joker as text, a word the same in English and French: the 🃏 emoji is drawn by Discord as
# a picture unlike the joker's own, so it would read as another card.
JOKER_TEXT = "Joker"

# per deck: card name, or `back`, -> `<:name:id>`
_pictures: dict[Deck, dict[str, str]] = {TWO_COLOURS: {}, FOUR_COLOURS: {}}
_as_text: ContextVar[bool] = ContextVar("cards_as_text", default=False)
_as_marks: ContextVar[bool] = ContextVar("cards_as_marks", default=False)
# A card in a text the Activity page draws: its name (or `back`) between these two characters
# of Unicode's private use area, which no catalog text holds.
CARD_OPEN = "\ue000"
CARD_CLOSE = "\ue001"
_deck: ContextVar[Deck] = ContextVar("cards_deck", default=TWO_COLOURS)


def use_pictures(markup: Mapping[str, str], four_colours: Mapping[str, str] | None = None) -> None:
    """Show cards as these emojis from now on (an empty mapping: as text). `four_colours`: the
    four-colour deck's pictures of the cards it draws apart (♦ ♣), complete; without them the
    four-colour deck shows the two-colour pictures."""
    global _generation
    _pictures[TWO_COLOURS] = dict(markup)
    _pictures[FOUR_COLOURS] = {**markup, **(four_colours or {})} if markup else {}
    _generation += 1


_generation = 0  # how many times the pictures changed: what was written with the old is stale


def writing() -> tuple[Deck, bool, bool, int]:
    """Everything the way cards are written depends on now (the deck, text, marks or pictures,
    and which pictures): a text written with cards may be remembered under it."""
    return _deck.get(), _as_text.get(), _as_marks.get(), _generation


@contextmanager
def in_deck(deck: Deck) -> Iterator[None]:
    """Within this block, cards are shown in this deck's colours (emojis and pictures)."""
    token = _deck.set(deck)
    try:
        yield
    finally:
        _deck.reset(token)


def current_deck() -> Deck:
    """The deck the cards being rendered are shown in."""
    return _deck.get()


@contextmanager
def as_text() -> Iterator[None]:
    """Within this block, cards are written as text even when pictures are available."""
    token = _as_text.set(True)
    try:
        yield
    finally:
        _as_text.reset(token)


@contextmanager
def as_marks() -> Iterator[None]:
    """Within this block, every card is written as its mark (`marked`): for the Activity page,
    which draws each as its picture."""
    token = _as_marks.set(True)
    try:
        yield
    finally:
        _as_marks.reset(token)


def marking() -> bool:
    """Whether cards are written as marks now (`as_marks`)."""
    return _as_marks.get()


def marked(name: str | None) -> str:
    """A card's mark: `QS` -> CARD_OPEN + `QS` + CARD_CLOSE; None (the back) -> `back`."""
    return f"{CARD_OPEN}{BACK if name is None else name}{CARD_CLOSE}"


def fitting(build: Callable[[], str], limit: int) -> str:
    """`build()` with cards as pictures, or as text when that is longer than `limit`."""
    value = build()
    if len(value) <= limit or _as_text.get():
        return value
    with as_text():
        return build()


def pretty(name: str | None) -> str:
    """`QS` -> `Q♠`, `JK` -> `Joker`; None (unknown to this viewer) -> the card back."""
    if _as_marks.get():
        return marked(name)
    if name is None:
        return CARD_BACK
    return _pretty(name)


@lru_cache(maxsize=1024)  # a render writes dozens of cards, of a deck of 55 names
def _pretty(name: str) -> str:
    try:
        found = card(name)
    except ValueError:
        return name
    return JOKER_TEXT if found.is_joker else found.pretty


def card_emoji(name: str | None) -> str | None:
    """The card's emoji markup (None: the back), or None when pictures are unavailable; its
    mark inside `as_marks()`."""
    if _as_marks.get():
        return marked(name)
    if _as_text.get():
        return None
    return _pictures[_deck.get()].get(BACK if name is None else name)


def shown(name: str | None) -> str:
    """A card inside a sentence: its picture, else its text."""
    return card_emoji(name) or pretty(name)


def face(name: str | None, *, empty: bool = False) -> str:
    """One slot of a grid or a hand: an empty slot, a card back, or the card."""
    if empty:
        return EMPTY_SLOT
    emoji = card_emoji(name)
    if emoji is not None:
        return emoji
    return CARD_BACK if name is None else f"`{pretty(name)}`"
