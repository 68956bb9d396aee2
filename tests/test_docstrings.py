"""A module's docstring one reads at a glance, in bot/, games/, storage/ and benchmarks/.

It opens with one sentence on a line of its own saying what the module is for, then why in a
short paragraph, and runs to 20 lines at most; the detail goes onto the class or function it
describes, the package's README, or (a measured figure) docs/performance.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "games", "storage", "benchmarks")
MOST_LINES = 20


def module_docstrings() -> dict[str, str]:
    found = {}
    for package in PACKAGES:
        for module in sorted((ROOT / package).rglob("*.py")):
            docstring = ast.get_docstring(ast.parse(module.read_text("utf-8")))
            if docstring:
                found[module.relative_to(ROOT).as_posix()] = docstring
    return found


def test_a_module_docstring_is_at_most_20_lines() -> None:
    docstrings = module_docstrings()
    assert docstrings, "no module docstring was found"
    too_long = {
        name: len(text.splitlines())
        for name, text in docstrings.items()
        if len(text.splitlines()) > MOST_LINES
    }
    assert not too_long, f"module docstrings over {MOST_LINES} lines: {too_long}"


def test_a_module_docstring_opens_with_one_sentence_on_its_own_line() -> None:
    docstrings = module_docstrings()
    assert docstrings, "no module docstring was found"
    run_on = sorted(
        name
        for name, text in docstrings.items()
        if not text.splitlines()[0].rstrip().endswith((".", ":", ")"))
        or (len(text.splitlines()) > 1 and text.splitlines()[1].strip())
    )
    assert not run_on, f"module docstrings whose first line is not one sentence alone: {run_on}"
