# Two entry points a newcomer needs: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/python -m games.bench dutch
	$(BIN)/python -m games.bench euchre
	$(BIN)/python -m games.bench dame
	$(BIN)/python -m storage.bench
	$(BIN)/python -m bot.bench

clean:
	rm -rf $(VENV)
