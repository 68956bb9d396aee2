from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

from bot.games import plugin_for
from bot.render.actions import ButtonSpec
from bot.render.private import render_private
from bot.render.table import render_table
from bot.snapshots import CLOSED, FINISHED, LOBBY, ROUND_OVER
from bot.ui.custom_ids import Kind, Verb, parse
from games.cards import card
from games.contract import RoundSetup
from games.registry import get_game
from tests.bot.render.snapshots import (
    new_round,
    play,
    private,
    public,
    reveals_of,
    round_end,
    seats,
)

CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def shown_cards(rendered: object) -> set[str]:
    """Every card face written in a rendered message (embed and component labels)."""
    embed = rendered.embed.to_dict()  # type: ignore[attr-defined]
    labels = [repr(c) for c in rendered.components]  # type: ignore[attr-defined]
    return set(CARD_TEXT.findall(json.dumps(embed, ensure_ascii=False) + " ".join(labels)))


def pretty_names(names: object) -> set[str]:
    return {card(n).pretty for n in names if n is not None and n != "JK"}  # type: ignore[attr-defined]


def public_cards(round_: object, events: list[object]) -> set[str]:
    """What the public may know: the public view's faces, and cards named by public events."""
    view = round_.public_view()  # type: ignore[attr-defined]
    names = {s.card for grid in view.grids for s in grid} | {view.discard_top, view.held}
    names |= {e.data.get("card") for e in events if e.to is None}  # type: ignore[attr-defined]
    return pretty_names(names)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("preset", ["classic", "house"])
def test_no_hidden_card_reaches_the_public_table_message(seed: int, preset: str) -> None:
    round_ = new_round(n_seats=4, seed=seed, preset=preset)
    events: list[object] = []
    for _ in range(40):
        events += play(round_, 1, seed=seed)
        if round_.finished:
            break
        rendered = render_table(public(round_, n_seats=4, events=events), "en")
        assert shown_cards(rendered) <= public_cards(round_, events)


@pytest.mark.parametrize("seed", range(6))
def test_a_private_message_shows_only_public_cards_the_held_card_and_its_reveals(seed: int) -> None:
    round_ = new_round(n_seats=3, seed=seed)
    events: list[object] = []
    for _ in range(40):
        step = play(round_, 1, seed=seed)
        events += step
        if round_.finished:
            break
        for seat in range(3):
            reveals = reveals_of(step, seat)
            mine = private(round_, seat, reveals)
            rendered = render_private(mine, public(round_, events=events), "fr", reveals=reveals)
            allowed = public_cards(round_, events)
            allowed |= pretty_names([round_.view(seat).held])
            allowed |= pretty_names([r.data["card"] for r in reveals])
            assert shown_cards(rendered) <= allowed


def test_the_initial_peek_is_shown_once_then_hidden() -> None:
    round_ = new_round(n_seats=2, seed=3)
    events = round_.apply(0, "peek 3 4")
    reveals = reveals_of(events, 0)
    peeked = pretty_names([r.data["card"] for r in reveals])
    assert len(peeked) == 2 or "JK" in {r.data["card"] for r in reveals}
    snapshot = public(round_, n_seats=2, events=events)
    shown = render_private(
        private(round_, 0, reveals), snapshot, "en", reveals=reveals, hide_at=9e9
    )
    assert peeked <= shown_cards(shown)
    assert "<t:9000000000:R>" in json.dumps(shown.embed.to_dict())
    hidden = render_private(private(round_, 0), snapshot, "en")
    assert not peeked & shown_cards(hidden)


def test_a_peek_is_not_listed_as_hiding_again_once_the_round_is_over() -> None:
    round_ = new_round(n_seats=2, seed=3)
    reveals = reveals_of(round_.apply(0, "peek 3 4"), 0)
    assert reveals
    over = replace(private(round_, 0, reveals), status=ROUND_OVER)
    snapshot = public(round_, n_seats=2, status=ROUND_OVER)
    shown = json.dumps(
        render_private(over, snapshot, "en", reveals=reveals, hide_at=9e9).embed.to_dict()
    )
    assert "Just seen" not in shown
    assert "hide again" not in shown and "<t:9000000000:R>" not in shown


def test_a_queen_look_at_an_opponent_names_the_card_to_the_looker_only() -> None:
    round_ = new_round(n_seats=2, seed=3)
    reveal = reveals_of(round_.apply(0, "peek 3 4"), 0)  # any private reveal to seat 0
    assert reveal
    snapshot = public(round_, n_seats=2)
    other = render_private(private(round_, 1), snapshot, "en")
    assert not pretty_names([r.data["card"] for r in reveal]) & shown_cards(other)


def test_lobby_message_lists_players_and_offers_the_lobby_buttons() -> None:
    rendered = render_table(public(None, status=LOBBY), "en")
    text = json.dumps(rendered.embed.to_dict(), ensure_ascii=False)
    assert "Alice" in text and "Chloé" in text and "(3/10)" in text
    verbs = [parse(c.custom_id).verb for c in rendered.components]
    assert verbs == [Verb.JOIN, Verb.LEAVE, Verb.ADD_BOT, Verb.START, Verb.CANCEL]
    assert all(parse(c.custom_id).table_id == 12 for c in rendered.components)


@pytest.mark.parametrize("game", ["euchre", "dame"])
def test_a_lobby_of_a_game_of_four_offers_fill_with_bot_players_while_two_seats_are_free(
    game: str,
) -> None:
    def verbs(seated: int) -> list[Verb | None]:
        rendered = render_table(public(None, game=game, n_seats=seated, status=LOBBY), "en")
        return [parse(c.custom_id).verb for c in rendered.components if isinstance(c, ButtonSpec)]

    assert verbs(1) == [
        Verb.JOIN,
        Verb.LEAVE,
        Verb.ADD_BOT,
        Verb.FILL_BOTS,
        Verb.START,
        Verb.CANCEL,
    ]
    rendered = render_table(public(None, game=game, n_seats=1, status=LOBBY), "en")
    assert "Fill with bot players" in [getattr(c, "label", "") for c in rendered.components]
    assert verbs(3) == [Verb.JOIN, Verb.LEAVE, Verb.ADD_BOT, Verb.START, Verb.CANCEL]


@pytest.mark.parametrize(("game", "max_seats"), [("euchre", 4), ("dame", 4), ("dutch", 10)])
def test_a_full_lobby_offers_neither_join_nor_add_bot_player(game: str, max_seats: int) -> None:
    names = [f"P{i}" for i in range(max_seats)]
    full = public(None, game=game, seated=seats(max_seats, names), status=LOBBY)
    rendered = render_table(full, "en")
    verbs = [parse(c.custom_id).verb for c in rendered.components if isinstance(c, ButtonSpec)]
    assert verbs == [Verb.LEAVE, Verb.START, Verb.CANCEL]


def test_round_in_play_shows_card_backs_discard_stock_turn_and_my_cards() -> None:
    round_ = new_round(n_seats=3, seed=5)
    events = play(round_, 6, seed=5)
    view = round_.public_view()
    rendered = render_table(public(round_, events=events), "en")
    text = json.dumps(rendered.embed.to_dict(), ensure_ascii=False)
    assert text.count("🂠") >= 3 * 4 - 1  # face-down cards as backs
    assert f"{view.stock} cards" in text
    assert "Last actions" in text and "**Alice**" in text
    assert card(view.discard_top).pretty in text
    first = rendered.components[0]
    assert parse(first.custom_id).verb is Verb.HAND and first.label == "My cards"


def test_the_log_joins_one_seats_burst_of_actions_in_one_line() -> None:
    round_ = new_round(n_seats=2, seed=11)
    events = round_.apply(0, "peek 3 4") + round_.apply(1, "peek 3 4")
    seat = round_.to_act()[0]
    events += round_.apply(seat, "draw") + round_.apply(seat, "swap 2")
    rendered = render_table(public(round_, n_seats=2, events=events), "en")
    log = next(
        f["value"] for f in rendered.embed.to_dict()["fields"] if f["name"] == "Last actions"
    )
    last = log.splitlines()[-1]
    name = ("Alice", "Bob")[seat]
    assert last.startswith(f"**{name}**: drew from the stock; swapped it into card 2;")
    assert CARD_TEXT.search(last)  # the card that left the grid is public once discarded


def test_round_over_shows_every_card_the_points_and_next_round() -> None:
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 500, seed=2)
    assert round_.finished
    end = round_end(round_)
    snapshot = public(round_, status=ROUND_OVER, last_round=end, totals=end.totals)
    rendered = render_table(snapshot, "fr")
    every = {c.pretty for grid in round_.grids for c in grid if c is not None and c.name != "JK"}
    assert every <= shown_cards(rendered)
    verbs = [parse(c.custom_id).verb for c in rendered.components]
    assert verbs == [Verb.NEXT_ROUND, Verb.HAND, Verb.WATCH]
    assert "Manche suivante" in rendered.components[0].label


def test_match_over_names_the_winners_and_offers_a_rematch() -> None:
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 500, seed=2)
    end = round_end(round_)
    snapshot = public(round_, status=FINISHED, last_round=end, winners=(1,), totals=(120, 30, 45))
    rendered = render_table(snapshot, "en")
    text = json.dumps(rendered.embed.to_dict(), ensure_ascii=False)
    assert "Winner: **Bob**" in text
    assert text.index("Bob: 30") < text.index("Chloé: 45") < text.index("Alice: 120")
    assert [parse(c.custom_id).verb for c in rendered.components] == [Verb.REMATCH]


@pytest.mark.parametrize(
    ("language", "over", "totals"),
    [
        ("en", "🏆 Match over. Winner: **Bob**", "Final totals: Bob 30, Chloé 45, Alice 120"),
        ("fr", "🏆 Partie terminée.", "Totaux finaux : Bob 30, Chloé 45, Alice 120"),
    ],
)
def test_my_cards_at_the_dutch_match_end_says_the_match_is_over_with_the_result(
    language: str, over: str, totals: str
) -> None:
    """Not "The round is over.", as if another round were coming (the round's `over` phase
    alone says that only while the match goes on)."""
    round_ = new_round(n_seats=3, seed=2)
    play(round_, 500, seed=2)
    assert round_.public_view().phase == "over"
    end = round_end(round_)
    snapshot = public(round_, status=FINISHED, last_round=end, winners=(1,), totals=(120, 30, 45))
    for seat in range(3):
        mine = render_private(private(round_, seat), snapshot, language).embed.description
        assert mine is not None and over in mine and totals in mine, mine
        assert "round is over" not in mine and "manche est finie" not in mine


def test_a_closed_table_has_no_buttons() -> None:
    rendered = render_table(public(None, status=CLOSED), "en")
    assert rendered.components == ()
    assert "closed" in rendered.embed.description


def test_private_buttons_are_the_seats_legal_actions_only() -> None:
    round_ = new_round(n_seats=2, seed=4)
    round_.apply(0, "peek 3 4")
    round_.apply(1, "peek 3 4")
    seat = round_.to_act()[0]
    waiting = render_private(private(round_, 1 - seat), public(round_, n_seats=2), "en")
    assert [parse(c.custom_id).kind for c in waiting.components] == [Kind.NAVIGATE]
    assert waiting.components[0].label == "🔄 Refresh"
    mine = render_private(private(round_, seat), public(round_, n_seats=2), "en")
    played = {
        parse(c.custom_id).text for c in mine.components if parse(c.custom_id).kind is Kind.PLAY
    }
    # every legal move but the Dutch call, which "Call Dutch…" asks for first
    assert played == {str(a) for a in round_.legal_actions(seat)} - {"dutch"}
    steps = {
        parse(c.custom_id).text for c in mine.components if parse(c.custom_id).kind is Kind.NAVIGATE
    }
    assert steps == {"dutch", ""}


def test_ten_long_named_players_stay_within_discords_embed_limits() -> None:
    round_ = new_round(n_seats=10, seed=8, preset="house")
    events = play(round_, 2000, seed=8)
    assert round_.finished
    end = round_end(round_)
    snapshot = public(round_, n_seats=10, status=ROUND_OVER, events=events, last_round=end)
    long_names = tuple(
        replace(info, name=f"{info.name} the Magnificent Player of Cards {'x' * 40}")
        for info in snapshot.seats
    )
    embed = render_table(replace(snapshot, seats=long_names), "fr").embed.to_dict()
    assert len(embed.get("description") or "") <= 4096
    assert all(len(f["value"]) <= 1024 and f["value"] for f in embed["fields"])
    assert len(embed["fields"]) <= 25


def _waiting_render(round_: object, seat: int, game: str, events: list[object]) -> object:
    rendered = render_private(
        private(round_, seat), public(round_, game=game, n_seats=4, events=events), "en"
    )
    return (rendered.embed.to_dict(), [repr(c) for c in rendered.components])  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("game", ["dutch", "euchre", "dame"])
def test_a_waiting_players_cards_say_nothing_another_players_move_changes(
    game: str, seed: int
) -> None:
    """A waiting player's "My cards" is redrawn only when their own moment changes (their turn,
    a new round, what the game's `waiting_key` says it shows of the table): what it says must
    stay true through everyone else's other moves."""
    engine = get_game(game)
    round_ = engine.new_round(engine.options(), RoundSetup(n_seats=4), seed=seed)
    rng = random.Random(seed)
    events: list[object] = []
    compared = 0
    for _ in range(120):
        if round_.finished:
            break
        waiting = [s for s in range(4) if not round_.legal_actions(s)]
        before = {s: _waiting_render(round_, s, game, events) for s in waiting}
        before_views = {s: round_.view(s) for s in waiting}
        seat = round_.to_act()[0]
        events += round_.apply(seat, rng.choice(round_.legal_actions(seat)))
        if round_.finished:
            break
        key = plugin_for(game).waiting_key
        for s in waiting:
            if not round_.legal_actions(s) and key(round_.view(s)) == key(before_views[s]):
                # still waiting, nothing it shows of the table changed: left as it was
                assert _waiting_render(round_, s, game, events) == before[s]
                compared += 1
    assert compared > 10


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_90_second_turn_shows_its_deadline_to_the_second_never_rounded_to_2_minutes(
    language: str,
) -> None:
    """Discord words `<t:…:R>` in whole minutes past 60 s ("in 2 minutes" for 90 s): the
    table message and My cards give the time of day to the second instead (`<t:…:T>`)."""
    round_ = new_round(n_seats=2, seed=3)
    for peeker in (0, 1):
        round_.apply(peeker, "peek 3 4")
    deadline = 1_700_000_090.0
    snapshot = replace(public(round_, n_seats=2), turn_deadline=deadline)
    seat = round_.to_act()[0]
    mine = replace(private(round_, seat), turn_deadline=deadline)
    for rendered in (render_table(snapshot, language), render_private(mine, snapshot, language)):
        said = json.dumps(rendered.embed.to_dict(), ensure_ascii=False)
        assert "<t:1700000090:T>" in said and ":R>" not in said
        assert {"en": "time runs out at <t:", "fr": "fin du temps à <t:"}[language] in said
    over = replace(public(round_, n_seats=2, status=ROUND_OVER), next_round_at=deadline)
    ended = json.dumps(render_table(over, language).embed.to_dict(), ensure_ascii=False)
    assert "<t:1700000090:T>" in ended and ":R>" not in ended
