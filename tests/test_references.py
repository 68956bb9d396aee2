"""The repository stands alone: every path its texts name exists in it, and nothing points
outside it (a sibling folder, an absolute path on a developer's machine, a document that only
exists elsewhere)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".md", ".toml", ".json", ".txt", ".cfg", ".ini", ".example", ".sql"}
TEXT_NAMES = {"Makefile", "Procfile", "run"}
# Words that only make sense outside this repository.
OUTSIDE = re.compile(r"\.\./shared|/work/|RULES\.md|seeds/|\bthe brief\b|\bthe issue\b", re.I)
# A repository path: a top-level folder, then path characters, ending in a file or a folder.
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:bot|games|storage|benchmarks|tests|docs)/"
    r"[\w./-]*?(?:\.(?:py|md|json|sql|toml)|/))"
    r"(?![\w/<{*-])"
)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    files = [ROOT / name for name in listed]
    return [f for f in files if f.is_file() and (f.suffix in TEXT_SUFFIXES or f.name in TEXT_NAMES)]


FILES = tracked_text_files()
THIS = Path(__file__).resolve()


def test_the_scan_sees_the_documents() -> None:
    names = {f.relative_to(ROOT).as_posix() for f in FILES}
    assert {"README.md", "docs/rules/dutch.md", "docs/rules/euchre.md"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda f: f.relative_to(ROOT).as_posix())
def test_no_reference_points_outside_the_repository(path: Path) -> None:
    if path == THIS:
        return
    found = [m.group(0) for m in OUTSIDE.finditer(path.read_text(encoding="utf-8"))]
    assert not found, f"{path.relative_to(ROOT)} points outside the repository: {found}"


@pytest.mark.parametrize("path", FILES, ids=lambda f: f.relative_to(ROOT).as_posix())
def test_every_named_path_exists(path: Path) -> None:
    if path == THIS:
        return
    content = path.read_text(encoding="utf-8")
    missing = [name for name in REPO_PATH.findall(content) if not (ROOT / name).exists()]
    for link in MARKDOWN_LINK.findall(content) if path.suffix == ".md" else ():
        target = link.split("#", 1)[0]
        if target and "://" not in target and not (path.parent / target).exists():
            missing.append(link)
    assert not missing, f"{path.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_the_checks_catch_a_dangling_reference() -> None:
    # the outside folder's name in two pieces: a search of the repository for links that
    # leave it finds none here, where the link is only the checks' test data
    sample = "See `docs/rules/nothing.md` and [the rules](../" + "shared/RULES.md)."
    assert OUTSIDE.search(sample)
    assert [n for n in REPO_PATH.findall(sample) if not (ROOT / n).exists()] == [
        "docs/rules/nothing.md"
    ]
