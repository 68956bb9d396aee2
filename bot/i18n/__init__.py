"""Translations: English and French message catalogs (en.json, fr.json) and the lookup.

Ephemeral texts use the clicking user's locale, public texts the guild's language. Keys are
dotted names (`error.not_your_turn`); placeholders are `{name}` fields of str.format. Texts
live in three places:

- `bot/i18n/<language>.json`: the shared texts, the same for every game; no key here names a
  game.
- `bot/games/<game>/i18n/<language>.json`: a game's own texts, every key starting with
  `<game>.` (the keys a game defines are listed in bot/games/README.md); a key outside the
  namespace, or defined twice, is an error naming the files.
- `bot/i18n/per_game/<language>.json`: what every game gets with only its words changed (its
  slash commands, `cmd…`), generated as `<game>.cmd…` for each game with `{game}`,
  `{of_game}`, `{of_the_game}`, `{command}` and `{target}` filled in; a game overrides one by
  defining the same key itself.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import bot.games

LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"


@cache  # bounded: one entry per language (any other raises, and raising caches nothing)
def catalog(language: str) -> dict[str, str]:
    """The message catalog of one language (key -> template): shared texts and every game's."""
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for language {language!r}")
    shared = resources.files(__package__).joinpath(f"{language}.json")
    data = _read(shared)
    where = dict.fromkeys(data, str(shared))  # key -> the file defining it
    per_game = _read(resources.files(__package__).joinpath("per_game", f"{language}.json"))
    for game, path in _game_catalogs(language):
        own = _read(path)
        outside = [key for key in own if not key.startswith(f"{game}.")]
        if outside:
            raise ValueError(
                f"{path}: keys outside the game's namespace (each must start with "
                f"'{game}.'): {sorted(outside)}"
            )
        for key in own:
            if key in data:
                raise ValueError(f"{key!r} is defined by both {where[key]} and {path}")
            where[key] = str(path)
        data.update(_generated(game, per_game, own))
        data.update(own)
    return data


def _game_catalogs(language: str) -> list[tuple[str, Path]]:
    """(game, its catalog file) of every plug-in package (bot/games/<game>/, and any folder
    added to that package's path), by game name."""
    found: list[tuple[str, Path]] = []
    for folder in bot.games.__path__:
        for package in Path(folder).iterdir():
            path = package / "i18n" / f"{language}.json"
            if (package / "__init__.py").is_file() and path.is_file():
                found.append((package.name, path))
    return sorted(found)


def _generated(game: str, per_game: dict[str, str], own: dict[str, str]) -> dict[str, str]:
    """Every game's keys (`per_game`) with this game's words filled in."""
    from games.registry import game_names, get_game  # games are pure: no cycle, no I/O

    name = own.get(f"{game}.name", game)
    of_game = own.get(f"{game}.name.of", name)
    target = get_game(game).options().target if game in game_names() else ""
    words = {
        "command": game,
        "game": name,
        "of_game": of_game,
        "of_the_game": own.get(f"{game}.name.of_the", of_game),
        "target": target,
    }
    return {f"{game}.{key}": template.format(**words) for key, template in per_game.items()}


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


class _Missing:
    """A parameter the caller did not give: written back as `{name}`, whatever its format."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        return "{" + self.name + "}"


class _PluralFormatter(string.Formatter):
    """Formats `{name:one form|other form}`: the form the number takes in the language, its
    `#` replaced by the number ("{wins:# win|# wins}" -> "1 win", "3 wins"; in French
    "{wins:# victoire|# victoires}" -> "0 victoire")."""

    def __init__(self, language: str) -> None:
        self.language = language

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        return kwargs[key] if key in kwargs else _Missing(str(key))

    def format_field(self, value: Any, format_spec: str) -> str:
        if PLURAL_MARK not in format_spec or isinstance(value, _Missing):
            return super().format_field(value, format_spec)
        one, _, other = format_spec.partition(PLURAL_MARK)
        singular = type(value) is int and is_one(self.language, value)
        return (one if singular else other).replace(NUMBER_MARK, str(value))


PLURAL_MARK = "|"  # between the singular and the plural form of a counted field
NUMBER_MARK = "#"  # where the number goes in either form


@cache  # bounded: one entry per template of the catalogs
def has_plurals(template: str) -> bool:
    """Does the template count something with `{name:one|other}` fields?"""
    return any(
        field and spec and PLURAL_MARK in spec
        for _, field, spec, _ in string.Formatter().parse(template)
    )


def plural_forms(template: str) -> dict[str, tuple[str, str]]:
    """The counted fields of a template: name -> (singular form, plural form)."""
    forms: dict[str, tuple[str, str]] = {}
    for _, field, spec, _ in string.Formatter().parse(template):
        if field and spec and PLURAL_MARK in spec:
            one, _, other = spec.partition(PLURAL_MARK)
            forms[field] = (one, other)
    return forms


def text(language: str, key: str, **params: object) -> str:
    """The message `key` in `language` (falling back to English, then to the key itself).
    With a `count` that takes the singular, the key's `.one` variant is used when it has one
    ("1 card", "0 carte"); a template with several numbers words each with its own
    `{name:one form|other form}` field, the form taken as the language takes it."""
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
    if language == "fr" and _elidable(template):
        template = _elided(template, params)
    if has_plurals(template):
        return _PluralFormatter(language).vformat(template, (), params)
    try:
        return template.format_map(params)
    except KeyError:
        return template.format_map(_KeepMissing(params))


# French elides "de" and "que" before a vowel: "Cartes d'Alice", "Stats d'Ève". A French
# template writes "de {name}"; the value filled in decides ("de Bob", "d'Alice"). An "h" is
# left alone (aspirated or not depends on the word), and so are digits ("de 8").
_ELIDABLE = re.compile(r"(?<![\w'’])([Dd]e|[Qq]ue) \{(\w+)\}")
_VOWELS = frozenset("aeiouy")
_LEADING_MARKUP = "*_~`|\\"  # markdown around or escaping a name: "**Alice**", "\\_Ana"


@cache  # bounded: one entry per French template with a field
def _elidable(template: str) -> bool:
    return _ELIDABLE.search(template) is not None


def starts_with_vowel(value: object) -> bool:
    """Whether a word written after French "de" takes its elided form "d'": its first letter
    (markdown skipped, accents ignored) is a vowel."""
    word = str(value).lstrip(_LEADING_MARKUP)
    if not word:
        return False
    letter = unicodedata.normalize("NFD", word[0])[0].lower()
    return letter in _VOWELS


def _elided(template: str, params: dict[str, Any]) -> str:
    def elide(found: re.Match[str]) -> str:
        word, field = found.group(1), found.group(2)
        if field in params and starts_with_vowel(params[field]):
            return f"{word[:-1]}'{{{field}}}"
        return found.group(0)

    return _ELIDABLE.sub(elide, template)


def error_key(key: str, game: str | None = None) -> str:
    """The catalog key of a table service error key (`not_your_turn`, `illegal:wrong_phase`):
    an engine rule's sentence is the game's own (`<game>.error.illegal.<rule>`), else the
    shared one, else the generic `error.illegal`."""
    if key.startswith("illegal:"):
        rule = key.removeprefix("illegal:")
        if game is not None and has_key(f"{game}.error.illegal.{rule}"):
            return f"{game}.error.illegal.{rule}"
        specific = "error.illegal." + rule
        return specific if has_key(specific) else "error.illegal"
    specific = "error." + key
    return specific if has_key(specific) else "error.unknown"


def error_text(language: str, key: str, **params: Any) -> str:
    """One short sentence for a refused click or command (`game`, among the params: the game
    whose rule refused a move, or that the sentence names as `{game_name}`)."""
    game = params.get("game")
    if game is not None and "game_name" not in params:
        params["game_name"] = text(language, f"{game}.name")
    return text(language, error_key(key, game), **params)
