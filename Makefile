# Set-up and everyday commands. `make test` builds everything it needs from a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test test-all bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# Debian's Chromium for the browser tests (Playwright drives it; it cannot download browsers here)
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

## serve: the game server with its embedded database; open the printed URL
serve: $(STAMP)
	$(BIN)/superchess serve

## test: the whole default test suite (what CI runs)
test: $(STAMP) $(CHROMIUM)
	$(BIN)/python -m pytest -q; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; rc=0; fi; exit $$rc

## test-all: also the slow checks (deep perft)
test-all: $(STAMP) $(CHROMIUM)
	$(BIN)/python -m pytest -q -m ''

## bench: move-generator speed against python-chess
bench: $(STAMP)
	$(BIN)/python bench/perft.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
