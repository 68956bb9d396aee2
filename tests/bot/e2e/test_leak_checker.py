"""The leak checker, on synthetic payloads: it must see every written card and flag each leak."""

from __future__ import annotations

from dataclasses import dataclass

from bot.local.records import LocalInteraction, LocalUser, RecordedRequest
from games.cards import card
from tests.bot.e2e.leak_checker import Exposure, LeakChecker, card_faces, card_faces_in_text

ALICE = LocalUser(1, "alice")
BOB = LocalUser(2, "bob")


def test_card_faces_are_read_in_every_form_players_read() -> None:
    text = "Discard Q♠, then 10♥ and 7 ♦️; codes AS 10C; joker 🃏 or JK or Joker; emoji <:KD:123>"
    assert card_faces_in_text(text) == {"QS", "10H", "7D", "AS", "10C", "JK", "KD"}


def test_words_numbers_and_notation_are_not_cards() -> None:
    text = "Seat 2 swaps slot 3 with 1:4. Scores: 10 pts, 3 D? Jack. ASK. 10h30. ct:12:3:p=swap 2"
    assert card_faces_in_text(text) == set()


def test_card_faces_walks_payloads_and_engine_objects() -> None:
    @dataclass(frozen=True)
    class Slot:
        card: str | None

    payload = {
        "embeds": [{"fields": [{"name": "You", "value": "8♣ ?"}]}],
        "components": [{"type": 1, "components": [{"label": "Take 2♦", "custom_id": "x"}]}],
    }
    assert card_faces(payload) == {"8C", "2D"}
    assert card_faces((Slot("QS"), Slot(None), [card("10H")])) == {"QS", "10H"}


def _interaction(user: LocalUser, custom_id: str = "ct:1:1:hand") -> LocalInteraction:
    return LocalInteraction(
        id=100 + user.id,
        token=f"t{user.id}",
        user=user,
        kind="button",
        data={"custom_id": custom_id},
        channel_id=9,
        custom_id=custom_id,
    )


def _answer(
    interaction: LocalInteraction | None, content: str, *, ephemeral: bool
) -> RecordedRequest:
    route = "POST /interactions/{interaction_id}/{token}/callback" if interaction else "PATCH x"
    payload = {"type": 4, "data": {"content": content}}
    return RecordedRequest(
        "POST", route, "/", payload, 200, interaction, ephemeral=ephemeral, message_id=7
    )


class Table:
    """A mutable stand-in for the game: what is public and what each user sees now."""

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.private: dict[int, set[str]] = {}

    def exposure(self) -> Exposure:
        private = {user: frozenset(faces) for user, faces in self.private.items()}
        return Exposure(frozenset(self.public), private)


def test_a_public_payload_may_show_only_public_cards() -> None:
    table = Table()
    table.public = {"5H"}
    table.private = {ALICE.id: {"QS"}}
    checker = LeakChecker(table.exposure)
    checker.check(_answer(None, "Discard pile: 5♥", ephemeral=False))
    assert checker.leaks == []
    checker.check(_answer(None, "Alice holds Q♠", ephemeral=False))
    assert [set(leak.faces) for leak in checker.leaks] == [{"QS"}]


def test_a_card_once_public_stays_showable() -> None:
    table = Table()
    table.public = {"5H"}
    checker = LeakChecker(table.exposure)
    checker.observe()
    table.public = set()  # covered by the next discard
    checker.check(_answer(None, "Last discards: 5♥", ephemeral=False))
    assert checker.leaks == []


def test_a_private_answer_shows_only_what_its_user_sees() -> None:
    table = Table()
    table.private = {ALICE.id: {"QS"}, BOB.id: {"KD"}}
    checker = LeakChecker(table.exposure)
    alice_click = _interaction(ALICE)
    checker.interaction_arrived(alice_click)
    checker.check(_answer(alice_click, "Your cards: Q♠ ? ? ?", ephemeral=True))
    assert checker.leaks == []
    checker.check(_answer(alice_click, "Bob has K♦", ephemeral=True))
    assert [set(leak.faces) for leak in checker.leaks] == [{"KD"}]


def test_an_ephemeral_answer_to_a_user_is_not_public_even_for_their_own_cards() -> None:
    table = Table()
    table.private = {ALICE.id: {"QS"}}
    checker = LeakChecker(table.exposure)
    alice_click = _interaction(ALICE)
    checker.interaction_arrived(alice_click)
    checker.check(_answer(alice_click, "Your cards: Q♠", ephemeral=False))
    assert [leak.reason for leak in checker.leaks] == [
        "public payload shows cards its viewer may not see"
    ]


def test_a_peek_seen_before_the_click_is_not_shown_again() -> None:
    table = Table()
    table.private = {ALICE.id: {"QS"}}
    checker = LeakChecker(table.exposure)
    checker.observe()  # the peek was shown to alice back then
    table.private = {ALICE.id: set()}  # hidden again: a memory game
    later_click = _interaction(ALICE)
    checker.interaction_arrived(later_click)
    checker.check(_answer(later_click, "Your cards: Q♠", ephemeral=True))
    assert [set(leak.faces) for leak in checker.leaks] == [{"QS"}]


def test_an_answer_to_a_private_view_request_must_be_ephemeral() -> None:
    table = Table()
    checker = LeakChecker(
        table.exposure, is_private_view_request=lambda i: (i.custom_id or "").endswith(":hand")
    )
    click = _interaction(ALICE, "ct:1:1:hand")
    checker.interaction_arrived(click)
    checker.check(_answer(click, "You have not peeked yet", ephemeral=False))
    assert [leak.reason for leak in checker.leaks] == ["a private view answered in public"]
    checker.leaks.clear()
    checker.check(_answer(click, "You have not peeked yet", ephemeral=True))
    assert checker.leaks == []


def test_requests_that_show_no_message_are_not_checked() -> None:
    table = Table()
    checker = LeakChecker(table.exposure)
    deferred = RecordedRequest("POST", "callback", "/", {"type": 6}, 200, _interaction(ALICE))
    refused = RecordedRequest("PATCH", "edit", "/", {"content": "Q♠"}, 429, message_id=None)
    checker.check(deferred)
    checker.check(refused)
    assert checker.leaks == [] and checker.checked == 0
