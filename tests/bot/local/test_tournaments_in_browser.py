"""A tournament's standings and podium on the local page, in Chromium: the real bot, on the
fake clock, runs a Swiss of Dutch among the page's four people to its end (their moves
clicked as the simple bot would), then Alice's page shows the last standings with their
tie-breaks and the podium. With CARDTABLE_SCREENSHOTS set it saves the README's picture."""

from __future__ import annotations

from pathlib import Path

from bot.local.page import LocalPage
from bot.local.server import LocalDiscord
from bot.local.table import PAGE_USERS
from games.tournament.event import FINISHED
from tests.bot.e2e.harness import BotUnderTest
from tests.bot.e2e.test_tournaments_e2e import create, play_rounds, sign_up_and_check_in
from tests.bot.local.browser import SCREENSHOTS, async_chromium


async def test_a_tournaments_standings_and_podium_read_on_the_page(tmp_path: Path) -> None:
    server = LocalDiscord(user_names=PAGE_USERS)
    page = LocalPage(server, {})
    await server.start(extend=page.install)
    try:
        with server.pointed_at():
            harness = BotUnderTest(server, tmp_path / "cardtable.sqlite3")
            people = [server.user(name) for name in PAGE_USERS]
            async with harness.running() as bot:
                tournament_id = await create(
                    harness, game="dutch", rounds=2, start_in=2, checkin=1, target=10
                )
                await sign_up_and_check_in(harness, tournament_id, people, start_in=2)
                await play_rounds(harness, tournament_id, 2)
                stored = await bot.store.tournaments.load(tournament_id)
                assert stored.event.status == FINISHED
                async with async_chromium() as browser:
                    context = await browser.new_context(viewport={"width": 1100, "height": 900})
                    tab = await context.new_page()
                    tab.set_default_timeout(10_000)
                    await tab.goto(page.entry_url("user=1"))
                    standings = tab.locator("article.message").filter(
                        has_text="standings after round 2"
                    )
                    await standings.last.wait_for()
                    shown = await standings.last.inner_text()
                    assert "Buchholz" in shown and "1. " in shown
                    podium = tab.locator("article.message").filter(has_text="is over! 🥇")
                    await podium.last.wait_for()
                    if SCREENSHOTS:
                        folder = Path(SCREENSHOTS)
                        folder.mkdir(parents=True, exist_ok=True)
                        await tab.screenshot(path=str(folder / "tournament-standings.png"))
                    await context.close()
    finally:
        await server.stop()
