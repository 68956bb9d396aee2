from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import (
    LANGUAGES,
    ONE_SUFFIX,
    catalog,
    error_key,
    error_text,
    has_plurals,
    language_of,
    placeholders,
    plural_forms,
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


def test_a_start_with_the_wrong_number_of_players_names_the_game_in_a_sentence() -> None:
    """The refusal of a start reads as a person would say it, naming the game and, for a game
    of four, the one button that seats bots in every empty place."""
    assert error_text("en", "players_exactly", game="dame", count=4) == (
        "Dame de Pique is played by exactly 4 players: press Fill with bot players to seat "
        "bots in the empty places."
    )
    assert error_text("fr", "players_exactly", game="euchre", count=4).startswith(
        "Euchre se joue à exactement 4 joueurs"
    )
    assert error_text("en", "players_between", game="dutch", min=2, max=10).startswith(
        "Dutch is played by 2 to 10 players"
    )


def test_language_of_discord_locales() -> None:
    assert language_of("fr") == "fr"
    assert language_of("en-US") == "en"
    assert language_of("de") == "en"
    assert language_of(None) == "en"


def test_text_fills_placeholders_and_keeps_unknown_ones() -> None:
    assert text("en", "error.table_full", max=4) == "The table is full (4 players)."
    assert "{max}" in text("en", "error.table_full")
    assert text("fr", "no.such.key") == "no.such.key"


def test_a_singular_variant_belongs_to_a_key_and_uses_only_its_placeholders() -> None:
    for language in LANGUAGES:
        messages = catalog(language)
        singulars = [key for key in messages if key.endswith(ONE_SUFFIX)]
        assert singulars, language  # the claim is about them: each language has some
        for key in singulars:
            base = key.removesuffix(ONE_SUFFIX)
            assert base in messages, (language, key)
            assert placeholders(messages[key]) <= placeholders(messages[base]), (language, key)
            assert "count" in placeholders(messages[base]), (language, key)


def test_a_count_takes_the_singular_as_each_language_does() -> None:
    assert [text("en", "table.stock_count", count=n) for n in (0, 1, 2)] == [
        "0 cards",
        "1 card",
        "2 cards",
    ]
    assert [text("fr", "table.stock_count", count=n) for n in (0, 1, 2)] == [
        "0 carte",
        "1 carte",
        "2 cartes",
    ]
    assert text("en", "table.free_seats", count=1) == "…1 free seat"
    assert text("en", "table.players", count=1, max=4) == "Players (1/4)"  # no variant: as is


def test_every_message_reads_as_its_template_formatted_with_missing_fields_kept() -> None:
    """`text` skips formatting where a template has no field and formats with the caller's
    own parameters otherwise: every message reads as the plain rule says, whatever parameters
    are given (all, some or none of its fields)."""

    class Kept(dict[str, object]):
        def __missing__(self, key: str) -> str:
            return "{" + key + "}"

    for language in LANGUAGES:
        for key, template in catalog(language).items():
            if has_plurals(template):
                continue  # counted fields: test_each_number_of_a_message_takes_its_own_plural
            fields = sorted(placeholders(template) - {"count"})
            for given in ({}, {f: f"<{f}>" for f in fields}, {f: 7 for f in fields[:1]}):
                assert text(language, key, **given) == template.format_map(Kept(given)), key
    assert text("en", "table.deadline") == "(time runs out at {when})"
    assert text("en", "no.such.key", name="x") == "no.such.key"


def test_french_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    """ "Cartes de Alice" is not French: "de" before a vowel is "d'", whatever the name (an
    accent, markdown around it); a consonant, an "h" or a digit keeps "de"; English as is."""
    title = "private.title"
    assert text("fr", title, name="Alice", table_id=3) == "Cartes d'Alice — table n° 3"
    assert text("fr", title, name="Émile", table_id=3).startswith("Cartes d'Émile")
    assert text("fr", title, name="Bob", table_id=3).startswith("Cartes de Bob")
    assert text("fr", title, name="Hugo", table_id=3).startswith("Cartes de Hugo")
    assert text("fr", "stats.title", name="**Ines**") == "Stats d'**Ines**"
    assert text("fr", "dutch.log.look", slot=2, target="Ève") == "a regardé la carte 2 d'Ève"
    assert text("fr", "table.thread_name", game="Euchre", table_id=4) == "Table d'Euchre n° 4"
    assert text("fr", "dame.menu.pack", rank="As") == "Le paquet d'As"
    assert text("fr", "dame.menu.pack", rank="8") == "Le paquet de 8"
    assert text("en", title, name="Alice", table_id=3) == "Alice's cards — table #3"


ELIDED_BEFORE_A_VOWEL = re.compile(
    r"(?<![\w'’-])(de|que|le|la|ne|se|je|me|te|si) [aeiouéèêàâîôûAEIOUÉÈÊÀÂÎÔÛ]", re.IGNORECASE
)


def test_no_french_text_writes_de_le_or_que_before_a_vowel() -> None:
    """Written words elide too ("d'abord", "l'atout", "qu'un"): no French text keeps the
    full form before a vowel (a field's value is elided when filled in)."""
    unelided = {
        key: found.group(0)
        for key, template in catalog("fr").items()
        if (found := ELIDED_BEFORE_A_VOWEL.search(template))
    }
    assert unelided == {}


# A player's name or "vous" as the subject of an adjective or a participle that agrees with it
# ("Alice s'est assis", "vous êtes oublié", "Bob joue seul"), which a player's gender breaks.
AGREES_WITH_A_PLAYER = re.compile(
    r"(?:\{(?:name|host|names)\}\**|\b[Vv]ous) (?:s'est|est|êtes) (?!de retour\b|en |à |pas )\w+"
    r"|(?:\{name\}\**|\b[Vv]ous) (?:\w+ )?seul\b"
)


def test_no_french_text_agrees_an_adjective_with_a_players_gender() -> None:
    """French texts about a player say what they did, not what they are: "a pris place", "a
    quitté la table", "ne répond plus", "en solo", never an agreement guessed for them."""
    agreeing = {
        key: found.group(0)
        for key, template in catalog("fr").items()
        if (found := AGREES_WITH_A_PLAYER.search(template))
    }
    assert agreeing == {}


def test_each_number_of_a_message_takes_its_own_plural() -> None:
    """Several numbers in one message each take the form their language gives them: French
    treats 0 and 1 as singular, English only 1 ("0 wins in 1 match", "0 victoire en 1
    partie")."""
    assert (
        text(
            "en",
            "leaderboard.row",
            rank=1,
            name="Ann",
            rating="980",
            wins=0,
            matches=1,
            win_rate="0%",
        )
        == "**1.** Ann — rating 980 · 0 wins in 1 match (0%)"
    )
    assert (
        text(
            "fr",
            "leaderboard.row",
            rank=1,
            name="Ann",
            rating="980",
            wins=0,
            matches=1,
            win_rate="0%",
        )
        == "**1.** Ann — cote 980 · 0 victoire en 1 partie (0%)"
    )
    assert text("en", "privacy.matches", count=1, hands=3, servers=1, seats=1) == (
        "1 finished match (3 hands) in 1 server; 1 seat taken at tables."
    )
    assert text("en", "leaderboard.row", rank=2).startswith("**2.** {name}")  # missing: kept


def test_a_counted_field_has_both_forms_in_every_language() -> None:
    for language in LANGUAGES:
        for key, template in catalog(language).items():
            for field, (one, other) in plural_forms(template).items():
                assert one and other, (language, key, field)
                english = catalog("en")[key]
                assert field in plural_forms(english), (language, key, field)
