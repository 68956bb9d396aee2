"""The end of a short Dame de Pique match end to end (target 100, stacked decks): equal team
totals past the target play another hand, the next hand decides, and `/stats` and
`/leaderboard game:dame` show the partners' wins and team ratings."""

from __future__ import annotations

from bot.i18n import text
from bot.render.stats import MIN_MATCHES, shown_rating
from bot.snapshots import FINISHED, ROUND_OVER
from tests.bot.e2e.harness import BotUnderTest
from tests.bot.e2e.players import message_text
from tests.bot.games.dame.tables import four_at_a_stacked_table
from tests.games.dame.tie_match import HAND_1, HAND_1_POINTS, HAND_2, TARGET, decks


async def test_a_tie_past_the_target_plays_on_and_the_winners_are_ranked(
    eight_players: BotUnderTest,
) -> None:
    harness = eight_players
    async with harness.running() as bot:
        checker = harness.leak_checker()
        table_id, seat = await four_at_a_stacked_table(harness, decks(), target=TARGET)
        for s, notation in HAND_1:
            await harness.play(seat[s], table_id, notation)
        await harness.settle()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER and snapshot.totals == HAND_1_POINTS * 2
        table = message_text(harness.table_message(table_id))
        assert table.count("(total 110)") == 2  # both teams past 100, equal: no winner yet
        assert "Match over" not in table

        await harness.next_round(table_id)
        for s, notation in HAND_2:
            await harness.play(seat[s], table_id, notation)
        await harness.settle()
        snapshot = bot.service.public_snapshot(table_id)
        assert snapshot.status == FINISHED and snapshot.winners == (0, 2)
        names = [info.name for info in snapshot.seats]
        table = message_text(harness.table_message(table_id))
        assert f"Winners: N–S (**{names[0]}** & **{names[2]}**)" in table
        checker.assert_clean()

        _, answer = await harness.ask(seat[2], "stats")
        shown = message_text(answer)
        (mine,) = (await bot.store.player_stats(harness.fake.guild_id, seat[2].id, "dame")).games
        line = text(
            "en",
            "stats.game",
            count=1,
            wins=1,
            losses=0,
            win_rate="100%",
            rounds=2,
            rating=shown_rating(mine.rating),
            rank=text("en", "stats.unranked", min_matches=MIN_MATCHES),
        )
        assert f"{text('en', 'dame.name')}\n{line}" in shown
        assert f"with {names[0]}: won 220" in shown and f"against {names[1]} & {names[3]}" in shown
        _, answer = await harness.ask(seat[1], "leaderboard", game="dame")
        shown = message_text(answer)
        rows = await bot.store.leaderboard(harness.fake.guild_id, "dame", min_matches=1)
        assert [row.display_name for row in rows[:2]] == sorted([names[0], names[2]])
        assert {row.display_name for row in rows} == set(names)
        positions = [shown.index(row.display_name) for row in rows]
        assert positions == sorted(positions)
        rating = {row.display_name: row.rating for row in rows}
        assert rating[names[0]] == rating[names[2]] > rating[names[1]] == rating[names[3]]
        for row in rows:
            assert f"rating {shown_rating(row.rating)} " in shown and row.wins == int(
                row.display_name in names[::2]
            )
