# Set-up and everyday commands. `make test` builds everything it needs from a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test test-all bench bench-native native postgresql clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The native rules core (Rust, PyO3): built where cargo exists, copied into the package beside the
# Python sources (the editable install imports it from there); without cargo the package runs on
# the Python core. cargo rebuilds only what changed.
NATIVE_SO := superchess/_native.abi3.so
native:
	@if command -v cargo >/dev/null 2>&1; then \
		cargo build --release --quiet --manifest-path native/Cargo.toml && \
		cp native/target/release/libsuperchess_native.so $(NATIVE_SO).tmp && mv $(NATIVE_SO).tmp $(NATIVE_SO); \
	else \
		echo "no Rust toolchain (cargo): the native core is not built, superchess runs on the Python core"; \
	fi

# Debian's Chromium for the browser tests (Playwright drives it; it cannot download browsers here)
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# Debian's PostgreSQL for the store and server tests that also run on it (tests/postgres.py starts a
# throwaway server in a temporary folder; no system service is used)
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql)

## serve: the game server with its embedded database; open the printed URL
serve: $(STAMP) native
	$(BIN)/superchess serve

## test: the whole default test suite (what CI runs), then the rules tests of the variants on the
## native core once more on the Python core (its reference), when the native core is built: all of
## tests/rules but the families that have no native core (their folders, and their cases in the tests
## run for every variant) and the native-against-Python differential (it runs both cores itself)
RULES_ON_PYTHON := SUPERCHESS_CORE=python $(BIN)/python -m pytest -q tests/rules \
	--ignore=tests/rules/tiling --ignore=tests/rules/intergrid --ignore=tests/rules/core/test_native_differential.py \
	-k "not tilingrider and not intergrid"
test: $(STAMP) $(CHROMIUM) postgresql native
	$(BIN)/python -m pytest -q; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; rc=0; fi; \
	if [ $$rc -eq 0 ] && [ -f $(NATIVE_SO) ]; then echo "rules tests on the Python core:"; $(RULES_ON_PYTHON); rc=$$?; fi; \
	exit $$rc

## test-all: also the slow checks (deep perft)
test-all: $(STAMP) $(CHROMIUM) postgresql native
	$(BIN)/python -m pytest -q -m ''

## bench: move-generator speed against python-chess
bench: $(STAMP) native
	$(BIN)/python bench/perft.py

## bench-native: perft lists/s of the native core against the Python core, Fairy-Stockfish (Grand
## Chess, chess) and Stockfish; Debian's engines are installed as anchors only
ANCHORS := /usr/games/fairy-stockfish /usr/games/stockfish
$(ANCHORS):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fairy-stockfish stockfish
bench-native: $(STAMP) native $(ANCHORS)
	$(BIN)/python bench/native.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis native/target $(NATIVE_SO)
