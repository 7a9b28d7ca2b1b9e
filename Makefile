# Every target bootstraps .venv itself, so a fresh clone needs only Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint unit bench soak demo clean

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install --quiet --upgrade pip
	@$(BIN)/pip install --quiet -e '.[dev,hub,sim]'
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/gametable sim

test: lint unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	@$(BIN)/python -m bench

# The fault campaigns at length: 2 000 kill -9s (whole matches included), long bounce storms,
# thousands of random button scripts through the table, every command fuzzed at length.
soak: $(STAMP)
	GAMETABLE_SOAK=1 $(BIN)/pytest -q tests/test_durability.py -k "kill or storm"
	GAMETABLE_SOAK=1 $(BIN)/pytest -q tests/test_table_properties.py tests/test_guesstimation_table_properties.py
	GAMETABLE_FUZZ=1000 $(BIN)/pytest -q tests/test_cli_fuzz.py
	@$(BIN)/python -m bench.soak

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# systemd/install.sh on fresh Debian bookworm arm64 and armhf userlands under qemu-user-static,
# then config check, selftest, a headless match and the daemon: as root; over an hour the first
# time, about half an hour once the base userlands are cached (docs/service.md, "Checking both
# kinds of Pi").
.PHONY: pi-check
pi-check:
	scripts/pi_check.sh
