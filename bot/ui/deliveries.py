"""Interactions Discord delivers more than once (a retried INTERACTION_CREATE).

The first delivery is the one answered; a later one would only meet "already acknowledged"
(40060)."""

from __future__ import annotations

from collections import OrderedDict

SEEN_INTERACTIONS = 4_096  # ids remembered (minutes of traffic; a retry comes within seconds)


class SeenInteractions:
    """The ids of the last interactions handled, to recognise one that Discord delivers again
    (a retried INTERACTION_CREATE): its first delivery is the one answered."""

    def __init__(self, size: int = SEEN_INTERACTIONS) -> None:
        self._size = size
        self._ids: OrderedDict[int, None] = OrderedDict()

    def first_time(self, interaction_id: int) -> bool:
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = None
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)
        return True
