"""The JSON a page receives: plain dicts built from a viewer's snapshot, and from nothing else.

A seated player gets their `PrivateSnapshot` beside the `PublicSnapshot`; anyone else the
public snapshot alone. Engine views are walked field by field (dataclasses, named tuples,
mappings, sequences); a card becomes its name (`QS`, `10H`, `JK`), which the page draws. So a
frame holds exactly what the view holds: a hidden card is absent from the view, hence from it.

A frame carries its views already encoded (`view_json`: an `orjson.Fragment`, written into the
frame's JSON as it is), since walking them into dicts in Python was the largest part of a
frame; `plain` is the same walk into dicts, for what reads a view rather than sends it.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

import orjson

from bot.activity.words import move_labels, table_words
from bot.i18n import DEFAULT_LANGUAGE
from bot.snapshots import PrivateSnapshot, PublicSnapshot, Reveal, SeatInfo
from games.cards import Card

_DEPTH = 32  # engine views are shallow; a deeper value is a bug, not a frame
_SCALARS = frozenset({str, int, float, bool, type(None)})
# a dataclass's or named tuple's type -> the fields a frame carries (found once per type)
_FIELDS: dict[type, tuple[str, ...]] = {}


def plain(value: Any, depth: int = 0) -> Any:
    """A JSON-ready copy of a view value: a card is its name, a dataclass or named tuple a
    dict of its fields, an enum its value; anything else unknown is its text."""
    if depth > _DEPTH:
        raise ValueError("a view nested too deep to send")
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is Card:
        return value.name
    if kind is list or kind is tuple:
        return [plain(item, depth + 1) for item in value]
    if kind is dict:
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: plain(getattr(value, name), depth + 1) for name in names}
    return _plain_other(value, depth)


def _plain_other(value: Any, depth: int) -> Any:
    """`plain` of what its quick paths leave: the first value of a dataclass or named tuple
    type (its fields are kept for the next), enums, other mappings and collections."""
    if isinstance(value, bool | int | float | str):
        return value  # an int or str enum: JSON writes its value
    if isinstance(value, enum.Enum):
        return plain(value.value, depth + 1)
    if hasattr(value, "rank") and hasattr(value, "suit") and hasattr(value, "code"):
        return str(value.name)  # a card of another type than games.cards.Card
    kind = type(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value) if f.name[0] != "_")
        return plain(value, depth)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        _FIELDS[kind] = tuple(value._fields)
        return plain(value, depth)
    if isinstance(value, Mapping):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [plain(item, depth + 1) for item in value]
        return sorted(items, key=str) if isinstance(value, set | frozenset) else items
    return str(value)


# dataclasses (cards among them) and named tuples go to `_json_default`; int keys become text
_VIEW_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_NON_STR_KEYS


def _json_default(value: Any) -> Any:
    """What orjson writes for a view value it does not know, as `plain` would: a card is its
    name, a dataclass or named tuple a dict of its fields (orjson then writes those)."""
    kind = type(value)
    if kind is Card:
        return value.name
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: getattr(value, name) for name in names}
    return _plain_other(value, 0)


def view_json(value: Any) -> orjson.Fragment:
    """A view as JSON, the same as `plain(value)` would encode to, encoded once: orjson walks
    it in C and calls back for the engine's types alone."""
    return orjson.Fragment(orjson.dumps(value, default=_json_default, option=_VIEW_OPTIONS))


def _seat(info: SeatInfo, host_id: int) -> dict[str, Any]:
    return {
        "seat": info.seat,
        "name": info.name,
        "host": info.user_id is not None and info.user_id == host_id,
        "bot": info.is_bot,
        "away": info.away,
        "left": info.left,
        "total": info.total,
        "user": str(info.user_id) if info.user_id is not None else None,
    }


def _reveal(reveal: Reveal) -> dict[str, Any]:
    return {"kind": reveal.kind, "seat": reveal.seat, "data": view_json(reveal.data)}


def public_frame(public: PublicSnapshot) -> dict[str, Any]:
    """What everyone at the table may see. The log goes as words (`table_words`: its last
    lines), not as entries: the page writes those lines and nothing else of it."""
    last = public.last_round
    return {
        "table": public.table_id,
        "game": public.game,
        "status": public.status,
        "round": public.round_no,
        "version": public.version,
        "target": public.target,
        "seats": [_seat(info, public.host_id) for info in public.seats],
        "to_act": list(public.to_act),
        "totals": list(public.totals),
        "winners": list(public.winners),
        "deadline": public.turn_deadline,
        "next_round_at": public.next_round_at,
        "view": view_json(public.view),
        "last_round": None
        if last is None
        else {
            "round": last.round_no,
            "points": list(last.points),
            "totals": list(last.totals),
            "view": view_json(last.view),
        },
    }


def private_frame(private: PrivateSnapshot[Any], reveals: tuple[Reveal, ...]) -> dict[str, Any]:
    """What one seated player sees besides the public table: their view, their legal moves
    and the cards a rule shows them now (`reveals`: the page shows them for the reveal time)."""
    return {
        "seat": private.seat,
        "round": private.round_no,
        "view": view_json(private.view),
        "legal": list(private.legal),
        "reveals": [_reveal(reveal) for reveal in reveals],
        "away": private.away,
        "deadline": private.turn_deadline,
    }


def table_part(public: PublicSnapshot, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The part of a frame every viewer of the table in `language` gets: the public table and
    its words (`bot.activity.words`). Never changed once built, so the frames of several
    viewers share it."""
    table = public_frame(public)
    table["words"] = table_words(public, language)
    return table


def frame(
    public: PublicSnapshot,
    private: PrivateSnapshot[Any] | None = None,
    reveals: tuple[Reveal, ...] = (),
    language: str = DEFAULT_LANGUAGE,
    table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One message to one page: the table, and the viewer's own part if they sit at it, with
    the words the messages would say in the viewer's language (`table`: the table's part
    built already for that language)."""
    if table is None:
        table = table_part(public, language)
    me = None
    if private is not None:
        me = private_frame(private, reveals)
        me["labels"] = move_labels(public, private, language)
    return {"type": "table", "table": table, "me": me}
