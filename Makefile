# Two entry points a fresh clone needs: `make serve` (install, then run the server on SQLite)
# and `make test` (install everything, Debian's chromium included, then run the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: serve play test install install-test system-deps js-tools lint format bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

serve: install
	$(BIN)/nekobako serve

# `make play` (Shut the Box against a bot) or `make play ARGS="catbox --players 4 --lang ja"`.
ARGS ?= shutbox --players 2
play: install
	$(BIN)/nekobako play $(ARGS)

# Browser tests drive Debian's chromium (Playwright cannot download browsers here); the terminal
# test runs `nekobako play` inside tmux; the Japanese font keeps screenshots readable. apt waits
# up to 10 minutes for a lock another apt holds (unattended upgrades) instead of failing.
SYSTEM_PACKAGES := chromium tmux fonts-ipafont-gothic
system-deps:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get -o DPkg::Lock::Timeout=600 install -y -qq $$missing >/dev/null; \
	fi

# The browser client's linter and formatter: Biome, pinned in package.json/package-lock.json.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

js-tools: node_modules/.installed

lint: install-test js-tools
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	node_modules/.bin/biome ci --error-on-warnings

# Rewrites in place what `lint` only checks: Python with ruff, the browser client with Biome.
format: install-test js-tools
	$(BIN)/ruff format src tests benchmarks
	node_modules/.bin/biome check --write

# The parts that run on the compiled kernels, first on the pure engine alone (NEKOBAKO_PURE=1: the
# kernel tests skip and say why), then the whole suite with the kernels.
PURE_TESTS := tests/bots tests/rl tests/catbox/test_kernel.py tests/catopomp/test_kernel.py tests/shutbox/test_kernel.py
test: install-test system-deps lint
	NEKOBAKO_PURE=1 $(BIN)/pytest -n 2 --dist loadgroup -q -rs $(PURE_TESTS)
	$(BIN)/pytest -n 2 --dist loadgroup --durations=30

bench: install
	$(BIN)/nekobako bench
