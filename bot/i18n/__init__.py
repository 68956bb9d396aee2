"""Translations: English and French message catalogs (en.json, fr.json) and the lookup.

Ephemeral texts use the clicking user's locale, public texts the guild's language. Keys are
dotted names (`error.not_your_turn`); placeholders are `{name}` fields of str.format.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"


@cache  # bounded: one entry per language (any other raises, and raising caches nothing)
def catalog(language: str) -> dict[str, str]:
    """The message catalog of one language (key -> template)."""
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for language {language!r}")
    raw = resources.files(__package__).joinpath(f"{language}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(raw)
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


def text(language: str, key: str, **params: Any) -> str:
    """The message `key` in `language` (falling back to English, then to the key itself)."""
    template = catalog(language if language in LANGUAGES else DEFAULT_LANGUAGE).get(key)
    if template is None:
        template = catalog(DEFAULT_LANGUAGE).get(key, key)
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
