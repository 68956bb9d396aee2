"""The bot's soak, restart and bot-table benchmarks run in their short modes (`--short`), so
none breaks unseen (`python -m benchmarks.bot.restart` once crashed building its file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bot import bots, restart, soak


def test_the_soak_short_mode_ends_every_way_and_leaves_no_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    soak.main(["--short"])
    printed = capsys.readouterr().out
    assert "20 matches" in printed and "service.tables=0" in printed.splitlines()[-2]


def test_the_restart_short_mode_builds_its_file_and_answers_a_click(
    capfd: pytest.CaptureFixture[str],
) -> None:
    restart.main(["--short"])  # the measure runs in a fresh process: its output is fd-level
    printed = capfd.readouterr().out
    assert "8 active tables" in printed and "first click answered" in printed
    assert "every table loaded" in printed


def test_the_bot_tables_short_mode_times_clicks(capsys: pytest.CaptureFixture[str]) -> None:
    bots.main(["--short"])
    printed = capsys.readouterr().out
    assert "click answered" in printed and "bots moved" in printed


def test_the_replay_bench_short_mode_times_opening_and_steps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.bot import replays

    replays.main(["--short"])
    printed = capsys.readouterr().out
    assert "replay opened" in printed and "replay step" in printed


def test_the_review_bench_short_mode_times_a_review_per_game_and_bot_moves_meanwhile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.bot import review

    review.main(["--short"])
    printed = capsys.readouterr().out
    for game in ("euchre", "dutch", "dame"):
        assert f"review {game}: 1 hands" in printed and "(one worker)" in printed
        assert f"review {game}, bot moves meanwhile:" in printed


def test_the_render_bench_finds_the_same_payloads_again_and_names_one_that_changed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from benchmarks.bot import renders

    saved = tmp_path / "payloads.txt"
    renders.main(["--short", "--save", str(saved)])
    renders.main(["--short", "--compare", str(saved)])  # the same seeds: the same messages
    printed = capsys.readouterr().out
    for game in ("dame", "dutch", "euchre"):
        assert f"{game}: " in printed and " private renders " in printed
    assert f"0 renders differ from {saved}" in printed
    lines = saved.read_text().split()
    saved.write_text("\n".join(["0" * 20, *lines[1:]]))  # as if the first render had changed
    with pytest.raises(SystemExit):
        renders.main(["--short", "--compare", str(saved)])
    printed = capsys.readouterr().out
    assert "1 renders differ" in printed and "render 0 (dame table message, en) differs" in printed


def test_the_tournament_bench_short_mode_times_the_step_between_rounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.bot import tournament

    tournament.main(["--short"])
    printed = capsys.readouterr().out
    assert "16 players, 2 rounds, 16 tables" in printed
    assert "last match to next round's tables" in printed and "is over! 🥇" in printed


def test_the_activity_bench_short_mode_times_pages_seeing_moves_with_and_without_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.bot import activity

    activity.main(["--short"])
    printed = capsys.readouterr().out
    assert "9 open pages, 30 moves" in printed and "every page" in printed
    # the load run: the same tables of bots without pages, then with a page at each
    assert "activity under load: 4 tables of one human and three simple bots" in printed
    assert "  0 open pages: " in printed and "  4 open pages: " in printed
    assert "move to its page" in printed and ", 0 never, in " in printed


def test_the_activity_bench_short_mode_with_the_activity_in_its_own_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.bot import activity

    activity.main(["--short", "--own-process"])
    printed = capsys.readouterr().out
    assert "the Activity's server in a process of its own" in printed
    assert "  0 open pages: " in printed and "  4 open pages: " in printed
    assert "move to its page" in printed and ", 0 never, in " in printed
    assert "changes sent to its process" in printed and "the Activity's own process: " in printed
