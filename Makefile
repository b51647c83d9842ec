# boardbot — the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 50051

.PHONY: install run test lint typecheck unit proto proto-check bench loadtest clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/boardbot serve --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest -n 2

test: lint typecheck unit

bench: install
	$(BIN)/boardbot bench engine --game leda --seconds 10
	$(BIN)/boardbot bench engine --game legend_raiders --players 2 --seconds 10
	$(BIN)/boardbot bench engine --game legend_raiders --players 4 --seconds 10

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build *.egg-info
