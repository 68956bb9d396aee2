"""Checks every payload the bot sends to the fake Discord against who may see which card.

The rules it enforces, payload by payload, at the moment the fake receives it:
- a public payload (a channel message or edit, a non-ephemeral answer) shows only card faces
  that the public table shows now or has shown before (a card once face up for all is no secret);
- an ephemeral answer to user X shows only those, plus what X's own view has shown since X's
  interaction arrived, or within the reveal delay before now (a card a rule showed X stays in
  view that long, through any redraw; an older peek is not shown again: Dutch is a memory
  game);
- every answer to a private-view request ("My cards") is ephemeral, whatever it shows.

Card faces are read from the payload's text (content, embeds, labels, options, custom ids) in the
forms players read them: `Q♠`, `10♥`, `QS`, `10H`, `Joker`, `🃏`, `JK`, and card emojis
(`<:ct1_QS:id>`).
An uploaded picture (the round's end) is read through the card names the bot writes into it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.local.records import LocalInteraction, RecordedRequest
from bot.local.server import LocalDiscord
from bot.pictures.round_end import cards_in

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_SYMBOL_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_CARD_TEXT = re.compile(
    r"(?<![0-9A-Za-z])(?P<rank>10|[2-9AJQK])"
    r"(?:\s?(?P<symbol>[♠♥♦♣])\ufe0f?|(?P<letter>[SHDC])(?![0-9A-Za-z]))"
    r"|(?P<joker>🃏|(?<![0-9A-Za-z])(?:JK|Joker)(?![0-9A-Za-z]))"
)


def card_faces_in_text(text: str) -> set[str]:
    """Card names (`QS`, `10H`, `JK`) written in a text in any of the forms players read."""
    faces: set[str] = set()
    for found in _CARD_TEXT.finditer(text):
        if found["joker"]:
            faces.add("JK")
        else:
            suit = _SYMBOL_SUITS[found["symbol"]] if found["symbol"] else found["letter"]
            faces.add(f"{found['rank']}{suit}")
    return faces


def card_faces(value: Any, _depth: int = 0) -> set[str]:
    """Card names anywhere in a JSON payload or an engine/service object (dataclasses,
    mappings, sequences, strings, and anything with a `name` like `games.cards.Card`)."""
    if _depth > 40:
        return set()
    if isinstance(value, str):
        return card_faces_in_text(value)
    if isinstance(value, bytes):
        return set(cards_in(value)) if value.startswith(PNG_SIGNATURE) else set()
    if isinstance(value, Mapping):
        found: set[str] = set()
        for key, item in value.items():
            found |= card_faces(key, _depth + 1) | card_faces(item, _depth + 1)
        return found
    if isinstance(value, list | tuple | set | frozenset):
        found = set()
        for item in value:
            found |= card_faces(item, _depth + 1)
        return found
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = set()
        for item in dataclasses.fields(value):
            found |= card_faces(getattr(value, item.name), _depth + 1)
        return found
    if hasattr(value, "rank") and hasattr(value, "suit") and hasattr(value, "name"):
        return card_faces_in_text(str(value.name))
    return set()


@dataclass(frozen=True, slots=True)
class Exposure:
    """Which card faces may be seen right now: by everyone, and by each user in their own view."""

    public: frozenset[str] = frozenset()
    private: Mapping[int, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Leak:
    reason: str
    request: RecordedRequest
    faces: frozenset[str] = frozenset()

    def __str__(self) -> str:
        who = self.request.interaction.user.name if self.request.interaction else "the channel"
        shown = ", ".join(sorted(self.faces))
        return f"{self.reason} [{self.request.route} answering {who}] {shown}".strip()


class LeakChecker:
    """Attach to a LocalDiscord; read `leaks` (or `assert_clean()`) at the end of the test."""

    def __init__(
        self,
        exposure: Callable[[], Exposure],
        *,
        is_private_view_request: Callable[[LocalInteraction], bool] = lambda _: False,
        is_exempt: Callable[[LocalInteraction], bool] = lambda _: False,
        now: Callable[[], float] = lambda: 0.0,
        reveal_seconds: float = 0.0,
    ) -> None:
        self._exposure = exposure
        self._is_private_view_request = is_private_view_request
        self._is_exempt = is_exempt
        self._now = now
        self._reveal_seconds = reveal_seconds
        self.public_seen: set[str] = set()
        self._history: list[Mapping[int, frozenset[str]]] = []  # per observation: user -> faces
        self._times: list[float] = []  # per observation: the clock time it was taken at
        self._window_start: dict[int, int] = {}  # interaction id -> index into _history
        self.leaks: list[Leak] = []
        self.checked = 0  # payloads that showed a message (for tests to assert coverage)

    def attach(self, fake: LocalDiscord) -> LeakChecker:
        fake.inject_listeners.append(self.interaction_arrived)
        fake.listeners.append(self.check)
        return self

    def observe(self) -> None:
        """Take a snapshot of what may be seen now (called on every interaction and request)."""
        exposure = self._exposure()
        self.public_seen |= exposure.public
        self._history.append(dict(exposure.private))
        self._times.append(self._now())

    def interaction_arrived(self, interaction: LocalInteraction) -> None:
        self.observe()
        self._window_start[interaction.id] = len(self._history) - 1

    def seen_by(self, user_id: int, since: int) -> set[str]:
        """What the user's own view showed from observation `since` on, or within the reveal
        delay before now."""
        faces: set[str] = set()
        still = self._now() - self._reveal_seconds
        for index, observation in enumerate(self._history):
            if index >= since or (self._reveal_seconds and self._times[index] > still):
                faces |= observation.get(user_id, frozenset())
        return faces

    def check(self, request: RecordedRequest) -> None:
        self.observe()
        if not request.shows_message:
            return
        interaction = request.interaction
        if interaction is not None and self._is_exempt(interaction):
            return
        self.checked += 1
        faces = card_faces(request.payload)
        if (
            interaction is not None
            and self._is_private_view_request(interaction)
            and not request.ephemeral
        ):
            self.leaks.append(Leak("a private view answered in public", request, frozenset(faces)))
        allowed = set(self.public_seen)
        if request.ephemeral and interaction is not None:
            since = self._window_start.get(interaction.id, len(self._history) - 1)
            allowed |= self.seen_by(interaction.user.id, since)
        hidden = faces - allowed
        if hidden:
            where = "private answer" if request.ephemeral else "public payload"
            reason = f"{where} shows cards its viewer may not see"
            self.leaks.append(Leak(reason, request, frozenset(hidden)))

    def assert_clean(self) -> None:
        assert not self.leaks, "card leaks:\n" + "\n".join(str(leak) for leak in self.leaks)


def faces_of_all(values: Iterable[Any]) -> frozenset[str]:
    found: set[str] = set()
    for value in values:
        found |= card_faces(value)
    return frozenset(found)
