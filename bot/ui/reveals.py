"""Cards a rule showed a player stay in view for the guild's reveal delay, then hide again.

They stay whatever redraws their "My cards" message meanwhile (the bots' moves it follows, a
Refresh, a new "My cards", the round's end). A memory game shows a card only that long.

The service hands each reveal out once (with the click that earned it, or with the next
"My cards" for a move played for the player). `RevealHolds` keeps it here, per player and
round, until its deadline; every render of that player's message asks `shown` which held
cards it lays over the hand: the card where the player knows it lies now (a Jack's exchange
carries it to another grid; a card swapped out is gone), as the service recalls it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.service.errors import TableError
from bot.snapshots import Reveal

if TYPE_CHECKING:
    from bot.clock import Clock


@dataclass(frozen=True, slots=True)
class Held:
    reveal: Reveal
    until: float  # clock time it hides again


# the service's `recall(table_id, user_id, round_no, reveals)`
Recall = Callable[
    [int, int, "int | None", Sequence[Reveal]], Awaitable[tuple["Reveal | None", ...]]
]


class RevealHolds:
    def __init__(self, clock: Clock, recall: Recall) -> None:
        self._clock = clock
        self._recall = recall
        # table id -> user id -> (round number, what they were shown and until when)
        self._held: dict[int, dict[int, tuple[int | None, list[Held]]]] = {}

    def tracked(self) -> int:
        """How many tables hold a reveal for someone (the soak checks it comes back down)."""
        return len(self._held)

    def hold(
        self,
        table_id: int,
        user_id: int,
        round_no: int | None,
        reveals: Sequence[Reveal],
        until: float,
    ) -> None:
        """These reveals were just handed to the player: keep them in view until `until`."""
        kept = self._current(table_id, user_id, round_no)
        kept = [h for h in kept if h.reveal not in reveals]  # shown again: the new deadline
        users = self._held.setdefault(table_id, {})
        users[user_id] = (round_no, [*kept, *(Held(r, until) for r in reveals)])

    def _current(self, table_id: int, user_id: int, round_no: int | None) -> list[Held]:
        """The player's held reveals of this round not yet due to hide (the rest dropped)."""
        users = self._held.get(table_id)
        found = users.get(user_id) if users is not None else None
        if users is None or found is None:
            return []
        held_round, held = found
        now = self._clock.now()
        current = [h for h in held if h.until > now] if held_round == round_no else []
        if current:
            users[user_id] = (round_no, current)
        else:
            del users[user_id]
            if not users:
                del self._held[table_id]
        return current

    def holds(self, table_id: int, user_id: int, round_no: int | None) -> bool:
        """Does the player's message lay held cards over the hand now (cards a move of
        another player may carry elsewhere: a Jack's exchange)?"""
        return bool(self._current(table_id, user_id, round_no))

    async def shown(
        self,
        table_id: int,
        user_id: int,
        round_no: int | None,
        fresh: Sequence[Reveal] = (),
    ) -> tuple[tuple[Reveal, ...], float | None]:
        """What the player's message lays over the hand now, and when the first of it hides:
        `fresh` (this answer's reveals, exactly as handed out), then every other held card
        the player can still place, where it lies now."""
        held = self._current(table_id, user_id, round_no)
        earlier = [h for h in held if h.reveal not in fresh]
        shown = list(fresh)
        untils = [h.until for h in held if h.reveal in fresh]
        if earlier:
            try:
                recalled = await self._recall(
                    table_id, user_id, round_no, [h.reveal for h in earlier]
                )
            except TableError:
                recalled = (None,) * len(earlier)
            for h, reveal in zip(earlier, recalled, strict=True):
                if reveal is not None and reveal not in shown:
                    shown.append(reveal)
                    untils.append(h.until)
        return tuple(shown), (min(untils) if untils else None)

    def forget_table(self, table_id: int) -> None:
        self._held.pop(table_id, None)
