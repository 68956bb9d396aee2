"""A watcher's message (`render_watcher`) and the watchers' count on the table message."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.i18n import text
from bot.render.table import render_table
from bot.render.watching import EMBED_TOTAL, render_watcher
from bot.snapshots import LOBBY, ROUND_OVER, WatcherSnapshot
from bot.ui.custom_ids import Verb, parse
from games.contract import RoundSetup
from games.registry import get_game
from tests.bot.render.snapshots import new_round, play, public, round_end


def _watched(round_: object, mode: str, **fields: object) -> WatcherSnapshot:
    snapshot = replace(public(round_, **fields), spectators=mode)  # type: ignore[arg-type]
    round_.keep_turn_hands()  # type: ignore[attr-defined]
    hands = round_.spectator_view(with_hands=mode == "hands").hands  # type: ignore[attr-defined]
    return WatcherSnapshot(public=snapshot, hands=hands, version=snapshot.version)


def _text(rendered: object) -> str:
    return json.dumps(rendered.embed.to_dict(), ensure_ascii=False)  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_watcher_of_a_public_table_sees_the_table_no_hand_and_nothing_to_click(
    language: str,
) -> None:
    round_ = new_round(n_seats=3, seed=5)
    watched = _watched(round_, "public")
    rendered = render_watcher(watched, language)
    assert rendered.components == ()
    words = _text(rendered)
    assert text(language, "watch.title") in words and text(language, "watch.public") in words
    assert text(language, "watch.hand_of", name="Alice") not in words
    table = render_table(watched.public, language).embed.to_dict()
    assert all(f in rendered.embed.to_dict()["fields"] for f in table["fields"])


@pytest.mark.parametrize("game", ["dutch", "euchre", "dame"])
def test_a_watcher_of_a_table_shown_with_its_hands_reads_every_seats_cards(game: str) -> None:
    engine = get_game(game)
    round_ = engine.new_round(engine.options(), RoundSetup(n_seats=4), seed=3)
    watched = _watched(round_, "hands", game=game, n_seats=4)
    rendered = render_watcher(watched, "en")
    fields = {f["name"]: f["value"] for f in rendered.embed.to_dict()["fields"]}
    for seat, info in enumerate(watched.public.seats):
        shown = fields[text("en", "watch.hand_of", name=info.name)]
        assert shown.count("`") // 2 == len(round_.open_hands()[seat])  # each card, as text
    assert len(rendered.embed) <= EMBED_TOTAL


def test_a_table_rebuilt_mid_turn_tells_the_watcher_the_hands_come_with_the_next_turn() -> None:
    round_ = new_round(n_seats=3, seed=5)
    play(round_, 5, seed=5)
    watched = _watched(round_, "hands")
    assert watched.hands is None
    assert text("fr", "watch.hands_later") in _text(render_watcher(watched, "fr"))


def test_ten_long_named_players_hands_fit_discords_embed_limits() -> None:
    round_ = new_round(n_seats=10, seed=8, preset="house")
    watched = _watched(round_, "hands", n_seats=10)
    long_names = tuple(
        replace(info, name=f"{info.name} the Magnificent Player of Cards {'x' * 40}")
        for info in watched.public.seats
    )
    watched = replace(watched, public=replace(watched.public, seats=long_names))
    embed = render_watcher(watched, "fr").embed
    assert len(embed) <= EMBED_TOTAL and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 for f in embed.fields)


def test_a_watcher_after_a_round_sees_its_end_without_the_picture_only_the_table_has() -> None:
    round_ = new_round(n_seats=3, seed=4)
    play(round_, 2000, seed=4)
    snapshot = public(round_, status=ROUND_OVER, last_round=round_end(round_))
    rendered = render_watcher(WatcherSnapshot(snapshot, None, 1), "en")
    assert rendered.picture is None and "image" not in rendered.embed.to_dict()
    assert text("en", "table.round_over") in _text(rendered)


def test_the_table_message_counts_its_watchers_and_offers_watch_in_play_only() -> None:
    round_ = new_round(n_seats=3, seed=5)
    nobody = render_table(public(round_), "en")
    assert "footer" not in nobody.embed.to_dict()
    assert Verb.WATCH in [parse(c.custom_id).verb for c in nobody.components]
    two = render_table(replace(public(round_), watchers=2), "fr").embed.to_dict()
    assert two["footer"]["text"] == text("fr", "table.watchers", count=2) == "👁 2 spectateurs"
    one = render_table(replace(public(round_), watchers=1), "fr").embed.to_dict()
    assert one["footer"]["text"] == "👁 1 spectateur"
    lobby = render_table(public(None, status=LOBBY), "en")
    assert Verb.WATCH not in [parse(c.custom_id).verb for c in lobby.components]
    assert text("en", "table.spectators.public") in _text(lobby)
