# Two entry points a newcomer needs: `make run` and `make test`. Both build .venv first:
# `run` installs only what the bot needs, `test` adds the test and lint tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The project is installed editable from this folder on purpose; setuptools' build backend
# warns about exactly that ("folders ... with the same name as your package") on every install,
# which a newcomer's `make run` need not read.
PIP := PYTHONWARNINGS=ignore $(BIN)/python -m pip
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint bench screenshots activity-sdk clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PIP) install --quiet -e '.[test]'
	touch $(TEST_STAMP)

run: $(STAMP)
	$(BIN)/python -m bot --local-without-token

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -n 2

# The README's pictures, taken by the browser tests (needs Chromium: apt-get install chromium).
screenshots: $(TEST_STAMP)
	CARDTABLE_SCREENSHOTS=docs/screenshots CARDTABLE_REQUIRE_BROWSER=1 \
		$(BIN)/python -m pytest tests/bot/local/test_page_in_browser.py \
		tests/bot/local/test_games_in_browser.py tests/bot/local/test_history_in_browser.py \
		tests/bot/local/test_tournaments_in_browser.py tests/bot/local/test_lessons_in_browser.py \
		tests/bot/local/test_coach_in_browser.py tests/bot/local/test_watching_in_browser.py \
		tests/bot/local/test_seasons_in_browser.py tests/bot/local/test_my_cards_dutch_in_browser.py \
		tests/bot/local/test_my_cards_dame_in_browser.py \
		tests/bot/local/test_my_cards_euchre_in_browser.py \
		tests/bot/local/test_activity_games_in_browser.py \
		-p no:xdist

# Scripts that print numbers, from benchmarks/ (`python -m benchmarks` lists them all).
bench: $(STAMP)
	$(BIN)/python -m benchmarks.games dutch
	$(BIN)/python -m benchmarks.games euchre
	$(BIN)/python -m benchmarks.games dame
	$(BIN)/python -m benchmarks.storage
	$(BIN)/python -m benchmarks.bot

# Discord's Embedded App SDK for the Activity's page, rebuilt from its lock file into the one
# committed file the page loads (bot/activity/static/vendor/discord-sdk.js). Needs Node.js and
# npm; `make run` does not (the built file is in the repository).
activity-sdk:
	cd bot/activity/sdk && npm ci --no-audit --no-fund && npm run build

clean:
	rm -rf $(VENV)
