"""Euchre end to end: the real bot against the fake Discord. Whole matches to a low target
through `/euchre start`, the seat select and clicks; every payload is checked for a card of
another hand; bad clicks, a restart mid-hand and the leaderboard."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.render.card_text import face
from bot.render.stats import shown_rating
from bot.snapshots import FINISHED, PLAYING
from bot.ui.custom_ids import play_id
from games.cards import cards
from tests.bot.e2e.harness import (
    EIGHT,
    BotUnderTest,
    assert_one_short_private_sentence,
    players,
)
from tests.bot.e2e.players import (
    SELECT,
    Choice,
    Chooser,
    answer_text,
    answered_text,
    choices,
    message_text,
    pick_at_random,
    use,
    verb_choice,
)

TARGET = 3  # a few hands
# No hand is worth ordering up the turned 9♠ (its bowers and ace are buried): the player
# left of the dealer passes, whoever deals, and the first player is asked to bid.
QUIET_DEAL = cards(
    "10S JH 9C 10C QD  QS JD 9D 10D KC  KS AH 9H 10H QC  AD AC QH KH KD  9S  JS JC AS"
)


def _chooser(seed: int) -> Chooser:
    """Random legal moves (seeded); ordering up, which ends the bidding, one time in five."""
    rng = random.Random(seed)

    def choose(offered: Sequence[Choice]) -> Choice | None:
        return pick_at_random(offered, rng, rare=("order",))

    return choose


async def test_one_player_and_three_bots_play_a_whole_match_and_no_card_leaks(
    harness: BotUnderTest,
) -> None:
    alice, _, _ = players(harness.fake)
    harness.choose = _chooser(11)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        rules = await harness.fake.slash(alice, "euchre rules")
        await rules.wait_answered()
        assert "Euchre" in answer_text(harness.fake, rules)
        table_id = await harness.start_with_bots(
            alice,
            "euchre",
            3,
            before_start=lambda table: harness.stack_decks(table, range(100, 130)),
            target=TARGET,
        )
        await harness.play_to_the_end(table_id)
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == FINISHED and snapshot.winners
        assert max(snapshot.totals) >= TARGET
        assert verb_choice(harness.table_message(table_id), "rematch") is not None
        # The end names the partnerships, their totals and the winning one.
        won = 0 if 0 in snapshot.winners else 1
        name = [info.name for info in snapshot.seats]
        teams = [("N–S", f"{name[0]} & {name[2]}"), ("E–W", f"{name[1]} & {name[3]}")]
        final = message_text(harness.table_message(table_id))
        bold = " & ".join(f"**{n}**" for n in teams[won][1].split(" & "))
        assert f"🏆 Match over. Winners: {teams[won][0]} ({bold})" in final
        lines = [
            f"🏆 **{teams[won][0]}** · {teams[won][1]}: **{snapshot.totals[won]}**",
            f"**{teams[1 - won][0]}** · {teams[1 - won][1]}: **{snapshot.totals[1 - won]}**",
        ]
        assert "Final totals\n" + "\n".join(lines) in final
        checker.assert_clean()
        assert checker.checked > 20
        assert all(r.status != 400 for r in harness.fake.requests)

        board = await harness.fake.slash(alice, "leaderboard", game="euchre")
        shown = await answered_text(harness.fake, board)
        (row,) = await bot.store.leaderboard(harness.fake.guild_id, "euchre", min_matches=1)
        assert (row.user_id, row.matches, row.wins) == (alice.id, 1, int(0 in snapshot.winners))
        assert "Euchre" in shown and row.display_name in shown


async def test_four_players_choose_seats_play_a_match_and_bad_clicks_get_one_sentence(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    users = [harness.fake.user(name) for name in EIGHT[:4]]
    harness.choose = _chooser(5)
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id = await harness.open_table(users[0], game="euchre", target=TARGET)
        # Bob takes the place facing Alice (her partner) through the seat select.
        seat = next(
            c
            for c in choices(harness.table_message(table_id))
            if c.component_type == SELECT and c.custom_id.endswith(":seat") and c.value == "2"
        )
        await use(harness.fake, users[1], seat)
        await harness.settle()
        harness.stack_decks(table_id, range(200, 230))
        for user in users[2:]:
            await harness.press(user, table_id, "join")
        await harness.press(users[0], table_id, "start")
        service = bot.service
        assert harness.user_of_seat(table_id, 2) is users[1]
        snapshot = service.public_snapshot(table_id)
        assert snapshot.status == PLAYING and snapshot.round_no is not None
        mover = harness.user_of_seat(table_id, snapshot.to_act[0])
        other = next(u for u in users if u is not mover)
        message_id = int(harness.table_message(table_id)["id"])
        refusals = (
            (other, play_id(table_id, snapshot.round_no, "pass")),  # out of turn
            (mover, play_id(table_id, snapshot.round_no, "discard 9S")),  # the engine refuses
            (mover, play_id(table_id, snapshot.round_no + 5, "pass")),  # stale round
            (mover, f"ct:{table_id}:{snapshot.round_no}:p=fly away"),  # no such action
            (mover, "ct:not-a-table:1:p=pass"),  # forged
        )
        for user, custom_id in refusals:
            click = await harness.fake.click(user, message_id, custom_id, forged=True)
            await click.wait_answered()
            await harness.settle()
            assert_one_short_private_sentence(click)
        assert harness.actions_played(table_id) == 0
        await harness.play_to_the_end(table_id)
        snapshot = service.public_snapshot(table_id)
        assert snapshot.status == FINISHED and snapshot.winners
        assert snapshot.totals[0] == snapshot.totals[2] and snapshot.totals[1] == snapshot.totals[3]
        checker.assert_clean()

        # Partners win or lose together, and the board lists the store's ranking in order.
        rows = await bot.store.leaderboard(harness.fake.guild_id, "euchre", min_matches=1)
        wins = {row.user_id: row.wins for row in rows}
        seat_of = {harness.user_of_seat(table_id, s).id: s for s in range(4)}
        assert wins == {user_id: int(s in snapshot.winners) for user_id, s in seat_of.items()}
        board = await harness.fake.slash(users[3], "leaderboard", game="euchre")
        shown = await answered_text(harness.fake, board)
        positions = [shown.index(row.display_name) for row in rows]
        assert positions == sorted(positions)

        # /stats shows the team result: the partner, the opponents, the score and the rating.
        me = seat_of[users[0].id]
        name = [info.name for info in snapshot.seats]
        partner = name[(me + 2) % 4]
        opponents = f"{name[(me + 1) % 4]} & {name[(me + 3) % 4]}"
        won = me in snapshot.winners
        score = f"{snapshot.totals[me]}–{snapshot.totals[(me + 1) % 4]}"
        asked = await harness.fake.slash(users[2], "stats", member=users[0])
        await answered_text(harness.fake, asked)
        (answer,) = [r for r in asked.requests if r.shows_message]
        (embed,) = answer.payload.get("data", answer.payload)["embeds"]
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        (mine,) = (await bot.store.player_stats(harness.fake.guild_id, users[0].id)).games
        assert fields["Euchre"] == (
            f"1 match: {int(won)} won, {1 - int(won)} lost ({int(won):.0%}), "
            f"{mine.rounds} rounds · rating {shown_rating(mine.rating)} · ranked after 3 matches\n"
            f"Partners (won–lost, last match): **{partner}** {int(won)}–{1 - int(won)}"
        )
        result = "won" if won else "lost"
        line = f"Euchre with {partner}: {result} {score} against {opponents} ("
        assert fields["Recent matches"].startswith(("🏆 " if won else "") + line)


async def test_a_restart_mid_hand_keeps_the_hand_and_the_old_my_cards_button_works(
    harness: BotUnderTest,
) -> None:
    alice, _, _ = players(harness.fake)
    async with harness.running() as bot:
        table_id = await harness.start_with_bots(
            alice,
            "euchre",
            3,
            before_start=lambda table: harness.stack_decks(table, [QUIET_DEAL]),
            target=TARGET,
        )
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.to_act == (0,) and snapshot.round_no is not None
        await harness.my_cards(alice, table_id)
        old_choices = harness.private_choices(alice, snapshot.round_no)
        hand_before = bot.service._table(table_id).round.view(0).hand
        played_before = harness.actions_played(table_id)
        old_table_message = harness.table_message(table_id)

    async with harness.running() as bot:
        checker = harness.leak_checker()
        assert bot.service.public_snapshot(table_id).status == PLAYING
        assert harness.actions_played(table_id) == played_before
        assert bot.service._table(table_id).round.view(0).hand == hand_before
        hand = verb_choice(old_table_message, "hand")
        assert hand is not None
        answer = await use(harness.fake, alice, hand)  # made by the previous process
        await harness.settle()
        shown = answer_text(harness.fake, answer)
        assert all(face(name) in shown for name in hand_before)  # the same five cards
        move = next(c for c in old_choices if c.notation is not None)
        await use(harness.fake, alice, move)
        await harness.settle()
        assert harness.actions_played(table_id) > played_before
        checker.assert_clean()
