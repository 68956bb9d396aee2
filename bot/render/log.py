"""The public log in words: table events (joined, timeout, round over, …) and a game's events.

`table_line` words a table event (`LogEntry.source == "table"`), the same for every game.
`burst_lines` is the usual way a plug-in words its engine events: one line per burst of one
seat's doings ("**Alice**: drew …; swapped …"), from the plug-in's words for each event.
`recent_lines` words only the end of a log, for the messages and pages that show its last lines.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import cast

from bot.i18n import has_key, text
from bot.render.card_text import writing
from bot.render.names import escape
from bot.snapshots import FORMER_PLAYER, LogEntry

Phrase = Callable[[LogEntry, Sequence[str], str], "str | None"]  # entry, names, language
SWAPPED = " ↔ "  # between the names of the seats the host swapped


# Entries worded lately, by identity and way of wording: (the entry, its words). The table
# message words the same dozen entries at every render, and an Activity page the same entries
# with its cards marked (or in another language); with one place per entry, the two took turns
# evicting each other. This keeps about 1,300 tables' logs in two ways (a few MB), the oldest
# used forgotten first. An entry kept here cannot die, so its id is never another entry's
# while it is here.
_worded: OrderedDict[tuple[int, Hashable], tuple[LogEntry, str | None]] = OrderedDict()
WORDED_KEPT = 32_768
# A way of wording (the phrase, the names, the language, how cards are written) -> its token:
# the words of an entry are found under the token, a plain object whose hash costs nothing,
# where hashing the whole way again for each entry of a log took a third of its words.
_ways: dict[Hashable, object] = {}
WAYS_KEPT = 16_384  # then forgotten all at once: an entry worded since is worded again once


def way(*parts: Hashable) -> object:
    """The token of a way of wording, the same object for equal parts (while remembered)."""
    token = _ways.get(parts)
    if token is None:
        if len(_ways) >= WAYS_KEPT:
            _ways.clear()  # the words under the old tokens are never found again, just aged out
        token = _ways[parts] = object()
    return token


def table_line(entry: LogEntry, names: Sequence[str], language: str) -> str:
    """`names`: the seats' names, already escaped; a name the entry carries (who joined, left,
    opened the table: it may no longer be seated) is the person's own and is escaped here."""
    return table_line_in(entry, names, language, way(table_line, _tuple(names), language))


def table_line_in(entry: LogEntry, names: Sequence[str], language: str, words: object) -> str:
    """`table_line`, its way of wording (`way`) found already."""
    return cast(str, _said(_table_line, entry, names, language, words))


def _table_line(entry: LogEntry, names: Sequence[str], language: str) -> str:
    params = dict(entry.data)
    for key in ("name", "names"):
        if isinstance(params.get(key), str):
            params[key] = _person(params[key], language)
    if isinstance(params.get("names"), list):  # seats swapped: "Ann ↔ Bob"
        params["names"] = SWAPPED.join(_person(str(name), language) for name in params["names"])
    if "name" not in params:
        seat = entry.seat
        params["name"] = names[seat] if seat is not None and 0 <= seat < len(names) else "?"
    key = f"log.table.{entry.kind}"
    if entry.kind == "match_over":
        winners = [names[s] for s in params.get("winners") or () if 0 <= s < len(names)]
        params["names"] = listed(winners, language)
        if len(winners) == 1:  # "Alice wins"; a pair: "Bot 1 and Bot 3 win"
            key = "log.table.match_over_by_one"
    said = text(language, key if has_key(key) else "log.unknown", kind=entry.kind, **params)
    former = text(language, "player.former")
    if entry.data.get("name") == FORMER_PLAYER and said.startswith(former):
        return said[:1].upper() + said[1:]  # "A former player left."
    return said


def _person(name: str, language: str) -> str:
    """A name an entry carries, escaped; "a former player" once they asked to be forgotten
    (`/privacy forget` scrubs the names in the logs kept for a restart)."""
    return escape(name) if name != FORMER_PLAYER else text(language, "player.former")


def listed(words: Sequence[str], language: str) -> str:
    """Words as a sentence lists them: "Ann", "Ann and Cat", "Ann, Ben and Cat"."""
    if len(words) < 2:
        return "".join(words)
    return text(language, "log.and", first=", ".join(words[:-1]), last=words[-1])


def burst_lines(
    entries: Sequence[LogEntry],
    names: Sequence[str],
    language: str,
    *,
    phrase: Phrase,
    separate: Collection[str] = (),
    breaks: Collection[str] = (),
) -> list[str]:
    """One line per burst of one seat's doings, oldest first. `phrase` words one engine event
    without the seat's name (None: not said); events of a kind in `separate` (or of no seat)
    get a line of their own; a kind in `breaks` (a new turn) ends the current burst."""
    lines: list[str] = []
    current_seat: int | None = None
    phrases: list[str] = []
    names = _tuple(names)
    said_way = way(phrase, names, language, writing())  # found once for all the entries
    table_way = way(table_line, names, language)
    separator = text(language, "log.separator")

    def flush() -> None:
        if phrases and current_seat is not None:
            name = names[current_seat] if 0 <= current_seat < len(names) else "?"
            lines.append(text(language, "log.burst", name=name, doings=separator.join(phrases)))
        phrases.clear()

    for entry in entries:
        if entry.source != "engine":
            flush()
            current_seat = None
            lines.append(table_line_in(entry, names, language, table_way))
            continue
        if entry.kind in breaks:
            flush()
            current_seat = None
        said = _said(phrase, entry, names, language, said_way)
        if said is None:
            continue
        if entry.seat is None or entry.kind in separate:
            flush()
            current_seat = None
            lines.append(said)
            continue
        if entry.seat != current_seat:
            flush()
            current_seat = entry.seat
        phrases.append(said)
    flush()
    return lines


def _said(
    phrase: Phrase, entry: LogEntry, names: Sequence[str], language: str, key: Hashable
) -> str | None:
    """`phrase(entry, names, language)`, remembered for the entry under `key`: everything the
    words read besides the entry (its cards are written as the render writes them:
    `writing()`), best a `way` token."""
    place = (id(entry), key)
    found = _worded.get(place)
    if found is not None and found[0] is entry:
        _worded.move_to_end(place)
        return found[1]
    said = phrase(entry, names, language)
    _worded[place] = (entry, said)
    _worded.move_to_end(place)
    while len(_worded) > WORDED_KEPT:
        _worded.popitem(last=False)
    return said


def _tuple(names: Sequence[str]) -> tuple[str, ...]:
    return names if isinstance(names, tuple) else tuple(names)


def recent_lines(
    entries: Sequence[LogEntry],
    count: int,
    starts: Iterable[int],
    word: Callable[[Sequence[LogEntry]], list[str]],
) -> list[str]:
    """The last `count` lines `word` makes of `entries`, worded from as few entries as that
    takes. `starts` (newest first) are the indices where the words begin afresh: nothing before
    such an entry changes the lines from it on, so `word(entries[start:])` ends with the lines
    `word(entries)` ends with. The table message and the Activity show a log's last lines at
    every change, and wording the whole log each time was most of a page's words."""
    needed = count  # entries a tail needs at least (each line has one)
    for start in starts:
        size = len(entries) - start
        if size < needed:
            continue
        if start <= 0:
            break
        lines = word(entries[start:])
        if len(lines) >= count:
            return lines[-count:]
        # too few: as many more entries as the lines so far took, and a line's worth more
        needed = max(size + 1, size * (count + 1) // max(len(lines), 1))
    return word(entries)[-count:]


def recent_burst_lines(
    entries: Sequence[LogEntry],
    names: Sequence[str],
    language: str,
    count: int,
    *,
    phrase: Phrase,
    separate: Collection[str] = (),
    breaks: Collection[str] = (),
) -> list[str]:
    """The last `count` lines of `burst_lines` (the same arguments), worded from the latest
    bursts only."""
    return recent_lines(
        entries,
        count,
        burst_starts(entries, breaks),
        lambda tail: burst_lines(
            tail, names, language, phrase=phrase, separate=separate, breaks=breaks
        ),
    )


def burst_starts(entries: Sequence[LogEntry], breaks: Collection[str] = ()) -> Iterable[int]:
    """Where `burst_lines` begins afresh, newest first: a table event, or an event of a kind in
    `breaks` (both end the burst before them and belong to no burst before)."""
    for index in range(len(entries) - 1, 0, -1):
        entry = entries[index]
        if entry.source != "engine" or entry.kind in breaks:
            yield index
