from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import (
    LANGUAGES,
    catalog,
    error_key,
    error_text,
    language_of,
    placeholders,
    text,
)

ROOT = Path(__file__).resolve().parents[3]


def test_every_key_exists_in_every_language() -> None:
    keys = {language: set(catalog(language)) for language in LANGUAGES}
    for language in LANGUAGES:
        missing = keys["en"] - keys[language]
        extra = keys[language] - keys["en"]
        assert not missing, f"{language} lacks {sorted(missing)}"
        assert not extra, f"{language} has keys English lacks: {sorted(extra)}"


def test_placeholders_match_across_languages() -> None:
    for key, english in catalog("en").items():
        for language in LANGUAGES:
            assert placeholders(catalog(language)[key]) == placeholders(english), (language, key)


def test_no_message_is_empty() -> None:
    for language in LANGUAGES:
        assert all(value.strip() for value in catalog(language).values()), language


def _keys_raised_by(package: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        found |= set(re.findall(r'TableError\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_error_the_table_service_raises_has_a_sentence() -> None:
    raised = _keys_raised_by("bot/service")
    assert raised, "the table service raises TableError keys"
    for key in raised:
        assert error_key(key) == f"error.{key}", f"no message for service error {key!r}"


def test_engine_rules_fall_back_to_a_generic_sentence() -> None:
    assert error_key("illegal:not_your_turn") == "error.illegal.not_your_turn"
    assert error_key("illegal:some_future_rule") == "error.illegal"
    assert error_key("no_such_key_anywhere") == "error.unknown"
    assert error_text("fr", "not_your_turn") == "Ce n'est pas votre tour."


def test_language_of_discord_locales() -> None:
    assert language_of("fr") == "fr"
    assert language_of("en-US") == "en"
    assert language_of("de") == "en"
    assert language_of(None) == "en"


def test_text_fills_placeholders_and_keeps_unknown_ones() -> None:
    assert text("en", "error.table_full", max=4) == "The table is full (4 players)."
    assert "{max}" in text("en", "error.table_full")
    assert text("fr", "no.such.key") == "no.such.key"
