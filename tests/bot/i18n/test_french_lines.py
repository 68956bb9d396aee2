"""French as a French speaker writes it: typical lines a player reads, rendered from the French
catalogs, read as a careful pass rewrote them (elision, idiom, no word of English), and none of
the phrasings that pass replaced left anywhere."""

from __future__ import annotations

import json
import re

import pytest

from bot.i18n import catalog, text
from bot.render.private import render_private
from bot.render.table import render_table
from tests.bot.render.snapshots import new_round, private, public, seats


def test_a_french_dutch_turn_reads_as_french_in_my_cards_and_on_the_table() -> None:
    """Émile draws, then puts the card in place of his card 1: "Cartes d'Émile", "Remplacer"
    beside card 1, "a remplacé sa carte 1 et défaussé …" (never "Mettre en carte 1")."""
    round_ = new_round(n_seats=3, seed=4)
    for seat in range(3):
        round_.apply(seat, "peek 3 4")
    seated = seats(3, ("Alice", "Émile", "Chloé"))
    seat = round_.to_act()[0]
    assert seated[seat].name == "Émile"
    events = round_.apply(seat, "draw")
    mine = render_private(private(round_, seat), public(round_, seated=seated, events=events), "fr")
    assert mine.embed.title == "Cartes d'Émile — table n° 12"
    beside = [s.button for s in mine.sections]  # each slot beside its swap
    labels = [getattr(c, "label", "") for c in [*beside, *mine.components]]
    assert [label for label in labels if label.startswith("Remplacer")] == ["Remplacer"] * 4
    assert not [label for label in labels if "Mettre" in label]
    events += round_.apply(seat, "swap 1")
    table = render_table(public(round_, seated=seated, events=events), "fr").embed.to_dict()
    said = json.dumps(table, ensure_ascii=False)
    assert re.search(r"\*\*Émile\*\* : a pioché ; a remplacé sa carte 1 et défaussé \S+", said)
    assert table["title"] == "Dutch · règles classiques — table n° 12"


@pytest.mark.parametrize(
    ("key", "fields", "french"),
    [
        ("dutch.action.swap", {"slot": 2}, "Remplacer votre carte 2"),
        ("dutch.log.swap", {"slot": 2, "card": "9♦"}, "a remplacé sa carte 2 et défaussé 9♦"),
        ("dutch.action.take", {"card": "J♥"}, "Prendre J♥ à la défausse"),
        ("dutch.log.match_wrong", {"slot": 3, "card": "5♠"}, "a posé sa carte 3 à tort (5♠)"),
        ("dutch.log.look", {"slot": 1, "target": "Alice"}, "a regardé la carte 1 d'Alice"),
        ("dutch.log.deal", {"card": "7♣"}, "Cartes distribuées, on retourne 7♣."),
        ("watch.hand_of", {"name": "Ophélie"}, "Cartes d'Ophélie"),
        ("table.deadline", {"when": "<t:1:T>"}, "(fin du temps à <t:1:T>)"),
        ("euchre.log.off", {"name": "Ann", "card": "9♠"}, "**Ann** a défaussé 9♠."),
        ("euchre.action.order_alone", {"card": "J♣"}, "Commander J♣ en solo"),
        ("euchre.your_discard", {"card": "10♦"}, "Votre écart, visible de vous seulement : 10♦"),
        ("settings.turn_pings", {}, "Mentions de tour"),
        ("settings.on", {}, "oui"),
    ],
)
def test_a_typical_french_line_reads_as_a_french_speaker_writes_it(
    key: str, fields: dict[str, object], french: str
) -> None:
    assert text("fr", key, **fields) == french


# What the careful pass replaced: a move in words nobody uses ("Mettre en carte", "l'a mise en
# carte"), a gendered agreement guessed for a player, a noun French does not have
# ("cognement"), "(s)" plurals, and a sentence in two languages ("time runs out dans").
REPLACED = re.compile(
    r"Mettre en carte|mise en carte|s'est trompée?\b|s'est défaussée?\b|\bcognement|\w\(s\)"
    r"|temps écoulé|runs out|\bturn\b|Match over|Round over"
)


def test_no_french_text_keeps_a_phrasing_the_careful_pass_replaced() -> None:
    kept = {
        key: found.group(0)
        for key, template in catalog("fr").items()
        if (found := REPLACED.search(template))
    }
    assert kept == {}
