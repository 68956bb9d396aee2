"""Translations: English and French message catalogs (en.json, fr.json) and the lookup.

Ephemeral texts use the clicking user's locale, public texts the guild's language. Keys are
dotted names (`error.not_your_turn`); placeholders are `{name}` fields of str.format. The shared
texts live here; each game plug-in keeps its own in `bot/games/<game>/i18n/`, merged into the
same catalog (a key defined twice is an error).
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"


PLUGINS_PACKAGE = "bot.games"


@cache  # bounded: one entry per language (any other raises, and raising caches nothing)
def catalog(language: str) -> dict[str, str]:
    """The message catalog of one language (key -> template): shared texts and every game's."""
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for language {language!r}")
    data = _read(resources.files(__package__).joinpath(f"{language}.json"))
    for package in sorted(resources.files(PLUGINS_PACKAGE).iterdir(), key=lambda p: p.name):
        path = package.joinpath("i18n", f"{language}.json")
        if not path.is_file():
            continue
        own = _read(path)
        twice = own.keys() & data.keys()
        if twice:
            raise ValueError(f"{path} defines keys defined elsewhere: {sorted(twice)}")
        data.update(own)
    return data


def _read(path: Traversable) -> dict[str, str]:
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def language_of(locale: object) -> str:
    """The catalog language for a Discord locale (`fr`, `en-US`, a discord.Locale, None)."""
    value = str(getattr(locale, "value", locale) or "").lower()
    return "fr" if value.startswith("fr") else DEFAULT_LANGUAGE


def placeholders(template: str) -> set[str]:
    """The `{name}` fields of a template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


class _KeepMissing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has_key(key: str) -> bool:
    return key in catalog(DEFAULT_LANGUAGE)


ONE_SUFFIX = ".one"


def is_one(language: str, count: int) -> bool:
    """Does `count` take the singular (CLDR's "one"): 1 in English, 0 and 1 in French."""
    return count in (0, 1) if language == "fr" else count == 1


def text(language: str, key: str, **params: Any) -> str:
    """The message `key` in `language` (falling back to English, then to the key itself).
    With a `count` that takes the singular, the key's `.one` variant is used when it has one
    ("1 card", "0 carte")."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    words = catalog(language)
    if params:
        count = params.get("count")
        if type(count) is int and is_one(language, count) and key + ONE_SUFFIX in words:
            key += ONE_SUFFIX
    template = words.get(key)
    if template is None:
        template = catalog(DEFAULT_LANGUAGE).get(key, key)
    # The hot path of every message: a text without fields is itself, and the parameters
    # are a fresh dict already; only a missing one needs the dict that keeps it as `{name}`.
    if "{" not in template and "}" not in template:
        return template
    try:
        return template.format_map(params)
    except KeyError:
        return template.format_map(_KeepMissing(params))


def error_key(key: str) -> str:
    """The catalog key of a table service error key (`not_your_turn`, `illegal:wrong_phase`)."""
    if key.startswith("illegal:"):
        specific = "error.illegal." + key.removeprefix("illegal:")
        return specific if has_key(specific) else "error.illegal"
    specific = "error." + key
    return specific if has_key(specific) else "error.unknown"


def error_text(language: str, key: str, **params: Any) -> str:
    """One short sentence for a refused click or command."""
    return text(language, error_key(key), **params)
