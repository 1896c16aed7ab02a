# Two commands on a fresh machine with only Python 3.11+ and make:
#   make build   validate the bundled compendium and write every output into dist/
#   make test    run the whole test suite
# Each creates .venv on first use; a second run only reinstalls when pyproject.toml changed.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
NPM    := $(shell command -v npm 2>/dev/null)
# The official Foundry CLI, which the tests use to read back our packs (needs Node.js).
FOUNDRY_CLI := tools/foundry-cli/node_modules/@foundryvtt/foundryvtt-cli/fvtt.mjs
TEST_TOOLS  := $(if $(NPM),$(FOUNDRY_CLI))

.PHONY: build test lint bench fuzz clean

build: $(VENV)/.installed
	$(BIN)/rulepress build

test: $(VENV)/.installed-test $(TEST_TOOLS)
	$(BIN)/ruff check rulepress tests bench
	$(BIN)/ruff format --check rulepress tests bench
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

fuzz: $(VENV)/.installed-test
	RULEPRESS_FUZZ=long $(BIN)/python -m pytest tests/test_fuzz.py -q -p no:cacheprovider --hypothesis-show-statistics

bench: $(VENV)/.installed-test $(TEST_TOOLS)
	$(BIN)/python bench/bench_rules.py
	$(BIN)/python bench/bench_build.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check rulepress tests bench
	$(BIN)/ruff format --check rulepress tests bench
	$(BIN)/lint-imports

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

$(FOUNDRY_CLI): tools/foundry-cli/package.json tools/foundry-cli/package-lock.json
	cd tools/foundry-cli && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf dist .pytest_cache build *.egg-info
