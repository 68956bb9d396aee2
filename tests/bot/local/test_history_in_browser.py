"""`/history`, the replay viewer and the hand records on the local page, as a person uses them:
a short match against bot players, the history asked for with the command bar, a hand picked in
the menu, the replay stepped to its end with its buttons, both records downloaded from their
links, the machine record played back by `games.replay`, and a review of her play asked: its
progress line while the bot players' workers compute it, then the accuracy and the costly
decisions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.replay import main as replay_main
from tests.bot.local.browser import MINE, Player, local_table, play_against_bots
from tests.bot.local.test_games_in_browser import open_table_with_bots, round_end_shown

HISTORY = f"{MINE}:has(select[data-custom-id='hist:open'])"
VIEWER = f"{MINE}:has(button[data-custom-id^='rp:'][data-custom-id$=':last'])"
RECORDS = f"{MINE}:has(.attachment-file)"
REVIEW = f"{MINE}:has-text('Review of your play')"
PROGRESS = f"{MINE}:has-text('Reviewing your play')"
PATIENCE_MS = 60_000  # a step may wait long on a loaded machine; a passing run never waits


def replay_button(viewer: Any, op: str) -> Any:
    """A button of the replay viewer by what it does (`first`, `back`, `fwd`, `last`)."""
    return viewer.locator(f"button[data-custom-id^='rp:'][data-custom-id$=':{op}']")


def shown_step(viewer: Any) -> tuple[int, int]:
    """ "Action 3 of 27" over the step's move, right under the viewer's picture."""
    found = re.search(r"Action (\d+) of (\d+)", str(viewer.inner_text()))
    assert found is not None
    return int(found[1]), int(found[2])


def step_shown(viewer: Any, step: int, steps: int) -> None:
    """Wait for the viewer to show this step."""
    viewer.locator(".v2-text", has_text=f"Action {step} of {steps}").wait_for()


def test_a_match_s_hand_replayed_to_its_end_both_records_downloaded_and_a_review_on_the_page(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with local_table(tmp_path, seed=1) as table:
        alice = Player(browser, table, 1)
        alice.page.set_default_timeout(PATIENCE_MS)
        # One hand of Euchre to 1 point is a whole match; the simple bots play at once.
        open_table_with_bots(alice, "euchre", 3, target="1", bots="simple")
        play_against_bots(alice, ("order", "discard"))
        round_end_shown(alice, "Alice", "Bot 1", "Bot 2", "Bot 3")

        alice.command("history")
        history = alice.page.locator(HISTORY).last
        history.wait_for()
        assert "Euchre" in history.inner_text()
        hands = history.locator("select[data-custom-id='hist:open'] option:not([disabled])")
        assert hands.count() == 1  # the match's one hand
        history.locator("select[data-custom-id='hist:open']").select_option(
            str(hands.first.get_attribute("value"))
        )
        alice.settled()

        viewer = alice.page.locator(VIEWER).last
        viewer.wait_for()
        step, steps = shown_step(viewer)
        assert step == 0 and steps > 20  # bids, the dealer's discard, twenty cards
        assert replay_button(viewer, "back").is_disabled()
        rows = viewer.locator(".component-row")
        steps_row = rows.first.locator("button").all_inner_texts()
        assert [label.strip() for label in steps_row] == ["⏮", "◀", "▶", "⏭"]
        alice.click(replay_button(viewer, "fwd"))
        step_shown(viewer, 1, steps)
        picture = viewer.locator(".v2-gallery img[src*='replay-']")
        picture.wait_for()
        alice.page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=picture.element_handle()
        )
        assert viewer.locator(".embed").count() == 0  # a Components V2 message
        # every hand is drawn face up in the picture, not listed again in card emojis
        words = viewer.locator(".v2-text").all_inner_texts()
        assert not any("Every hand, face up" in w for w in words), words
        alice.screenshot("replay-viewer")  # the table and every hand face up, the first bid
        alice.click(replay_button(viewer, "last"))
        step_shown(viewer, steps, steps)
        assert replay_button(viewer, "fwd").is_disabled()
        assert replay_button(viewer, "last").is_disabled()
        assert "Only you can see this" in viewer.inner_text()

        alice.click(viewer.locator("button[data-custom-id^='rpf:']"))
        records = alice.page.locator(RECORDS).last
        records.wait_for()
        links = records.locator(".attachment-file a")
        names = sorted(str(name) for name in links.all_inner_texts())
        assert [Path(name).suffix for name in names] == [".hand", ".txt"], names
        saved: dict[str, Path] = {}
        for name in names:
            with alice.page.expect_download() as downloading:
                records.locator(".attachment-file a", has_text=name).click()
            download = downloading.value
            assert download.suggested_filename == name
            saved[name] = tmp_path / name
            download.save_as(saved[name])
        readable = saved[names[1]].read_text(encoding="utf-8")
        assert "Deal" in readable and "Actions" in readable
        capsys.readouterr()
        assert replay_main([str(saved[names[0]])]) == 0
        assert "the record holds" in capsys.readouterr().out

        # A review of her play: computed by the bot players' workers, with a progress line.
        alice.click(viewer.locator("button[data-custom-id^='rpr:']"))
        progress = alice.page.locator(PROGRESS).last
        progress.wait_for()
        assert re.search(
            r"Reviewing your play… (\d+ of \d+|0 of …) decisions", progress.inner_text()
        )
        review = alice.page.locator(REVIEW).last
        review.wait_for()
        words = review.inner_text()
        assert re.search(r"Review of your play, Euchre hand 1: accuracy \d+(\.\d)?%", words)
        assert re.search(
            r"Decisions with a choice: \d+ · inaccuracies: \d+ · mistakes: \d+ · blunders: \d+",
            words,
        )
        marked = re.findall(
            r"Action \d+: you played .+, the bot .+ \((?:inaccuracy|mistake|blunder)", words
        )
        assert marked or "Nothing costly" in words, words
        alice.screenshot("review")
        assert alice.page_errors == []
