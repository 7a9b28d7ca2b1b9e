# Every target bootstraps .venv itself, so a fresh Debian machine needs only make and Python
# 3.11: what else run and test need from Debian, scripts/debian-packages.sh installs as root (or
# with sudo that asks no password) or names in the one apt-get command to run.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEBIAN_PACKAGES := PYTHON=$(PYTHON) scripts/debian-packages.sh
# pytest-xdist workers: twice the cores, as much of the suite waits on its subprocesses, browsers,
# brokers and fsyncs rather than computing (make test WORKERS=0: one process, no workers)
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))

.PHONY: run test test-packages lint unit bench soak demo clean

$(STAMP): pyproject.toml
	@$(DEBIAN_PACKAGES) run
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install --quiet --upgrade pip
	@$(BIN)/pip install --quiet -e '.[dev,hub,sim]'
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/gametable sim

# the packages first: a machine that lacks one hears so in the first second, not after mypy
test: test-packages lint unit

test-packages:
	@$(DEBIAN_PACKAGES) test

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

unit: test-packages $(STAMP)
	$(BIN)/pytest -n $(WORKERS)

bench: $(STAMP)
	@$(BIN)/python -m bench

# The campaigns make test runs at CI's size, at length (tests/soak.py): 2 000 kill -9s (whole
# matches included), a stop after every commit of a whole match, long bounce storms, thousands
# of random button scripts through every table, the rules' property tests at full count, 300
# flipped journal bytes, every command fuzzed at length, every recovery instruction followed 40
# times through kill -9s (tests/recovery_campaign.py); and the hall under 1 000 faults
# (docs/hub.md, "The fault campaign": 12 tables, about 26 minutes), and in three halls bridged
# to a central broker (tests/test_hall_bridge_campaign.py: 1 000 faults in 1 500 s, "Beyond one
# hall"); and a day at the table: the
# real daemon playing full matches of every family in real time for GAMETABLE_SOAK_HOURS hours
# (3 unless told), its figures printed (docs/service.md).
SOAK_TESTS := $(shell grep -l '^from tests\.soak import' tests/test_*.py)
soak: $(STAMP)
	GAMETABLE_SOAK=1 $(BIN)/pytest -q -n $(WORKERS) $(SOAK_TESTS)
	GAMETABLE_FUZZ=1000 $(BIN)/pytest -q -n $(WORKERS) tests/test_cli_fuzz.py
	@$(BIN)/python -m bench.soak
	$(BIN)/python -m tests.recovery_campaign --trials 200 --seed 2025
	$(BIN)/python -m tests.hall_campaign --tables 12 --faults 1000 --seconds 1500

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# systemd/install.sh on fresh Debian bookworm arm64 and armhf userlands under qemu-user-static,
# then config check, selftest, a headless match and the daemon: as root; over an hour the first
# time, about half an hour once the base userlands are cached (docs/service.md, "Checking both
# kinds of Pi").
.PHONY: pi-check
pi-check:
	scripts/pi_check.sh
