"""The README's two commands stay quiet: every pip install of the Makefile runs with the build
backend's warnings off (setuptools warned of the editable install on every `make run`)."""

from __future__ import annotations

from pathlib import Path

MAKEFILE = Path(__file__).resolve().parent.parent / "Makefile"


def test_every_pip_install_runs_with_the_build_backends_warnings_off() -> None:
    text = MAKEFILE.read_text()
    assert "PIP := PYTHONWARNINGS=ignore $(BIN)/python -m pip" in text
    recipes = [line.strip() for line in text.splitlines() if line.startswith("\t")]
    installs = [line for line in recipes if "install" in line and "pip" in line.lower()]
    assert installs and all(line.startswith("$(PIP) install") for line in installs), installs
