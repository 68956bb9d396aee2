"""The picture of a round's end.

Each player's name comes with the round's points and the match total, and under it every card of
theirs face up; a team's packs are shown too.

It is drawn from `RoundEndRow`s that the renderer builds from the *public* view of the
finished round, in which the engine has turned every card face up: so the picture shows what
the round's end makes public and nothing else. The card names drawn are also written into the
PNG (text chunk `cards`), so a test can check a picture without reading pixels.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image
from PIL.PngImagePlugin import PngInfo

from bot.pictures.card_faces import TWO_COLOURS, Deck, png_with

BACKGROUND = (43, 45, 49, 255)
TEXT = (235, 235, 235, 255)
DIM = (170, 170, 170, 255)
CARDS_KEY = "cards"
NAME_LIMIT = 32


@dataclass(frozen=True, slots=True)
class RoundEndRow:
    """A row: a name (a player, a team's pack), its cards face up, and on the right the
    round's points and the match total, or `note` instead (a pack's points, "not counted")."""

    name: str
    cards: tuple[str, ...]  # face-up card names, in slot order (empty slots left out)
    points: int | None
    total: int | None
    note: str = ""
    pack: bool = False  # a group (a pack, a rank of a hand): overlapped, its note under it


def round_end_png(
    rows: Sequence[RoundEndRow],
    points_label: str,
    total_label: str,
    deck: Deck = TWO_COLOURS,
) -> bytes:
    """The picture as PNG bytes, the faces in the deck's colours (call it off the event loop:
    it takes milliseconds). A flowing picture (`bot.pictures.layout.flow_image`), a few cards
    wide so that it stays legible at a phone's width: each row's name and points on a line of
    their own, its cards side by side under them; a pack's cards overlapped after the previous
    pack, its note under it."""
    from bot.pictures.layout import CardRow, flow_image  # it draws with this module's colours

    laid: list[CardRow] = []
    for row in rows:
        if row.pack:
            laid.append(CardRow("", row.cards, note=row.note, flow=True))
            continue
        note = row.note
        if row.points is not None and row.total is not None:
            note = f"{points_label} {row.points:+d} · {total_label} {row.total}"
        laid.append(CardRow(row.name[:NAME_LIMIT], (), note=note))
        laid += (CardRow("", (name,)) for name in row.cards)
    image, drawn = flow_image(laid, deck)
    info = PngInfo()
    info.add_text(CARDS_KEY, " ".join(drawn))
    return png_with(image, info, optimize=False)  # a one-off picture: speed over bytes


def cards_in(picture: bytes) -> list[str]:
    """The card names a round-end picture shows (read back from its text chunk)."""
    with Image.open(io.BytesIO(picture)) as image:
        image.load()
        return str(image.text.get(CARDS_KEY, "")).split()  # type: ignore[attr-defined]
