# Two entry points a fresh clone needs: `make serve` (install, then run the server on SQLite)
# and `make test` (install everything, Debian's chromium included, then run the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: serve test install install-test system-deps lint bench

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

# Browser tests drive Debian's chromium (Playwright cannot download browsers here); the terminal
# test runs `nekobako play` inside tmux; the Japanese font keeps screenshots readable.
SYSTEM_PACKAGES := chromium tmux fonts-ipafont-gothic
system-deps:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

lint: install-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: install-test system-deps lint
	$(BIN)/pytest -n 2 --dist loadgroup

bench: install
	$(BIN)/nekobako bench
