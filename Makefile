# Two commands matter: `make run` and `make test`. Both work on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV_VERSION := 0.13.9
HOST ?= 127.0.0.1
PORT ?= 8000
# Test processes (pytest-xdist): two by default, as CI's 2 cores run it; `make test TEST_WORKERS=0`
# runs the suite in one process (docs/performance.md, "The test suite").
TEST_WORKERS ?= 2

.PHONY: install run serve test lint format worker bench clean messages

$(BIN)/uv:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "fogcontrol needs Python 3.11 or newer; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

$(VENV)/.synced: $(BIN)/uv pyproject.toml uv.lock
	$(BIN)/uv sync --frozen --inexact --all-extras --python $(BIN)/python
	@touch $@

install: $(VENV)/.synced

run: install
	$(BIN)/fogcontrol migrate --noinput
	$(BIN)/fogcontrol seed_demo --if-empty
	@echo "Serving on http://$(HOST):$(PORT)/ with the background worker  (Ctrl-C stops both; the data is kept in ./data)"
	$(BIN)/fogcontrol run $(HOST):$(PORT)

# Production: gunicorn and the worker together (README, "Running it for a Town"). Set FOGCONTROL_ENV,
# SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL first; WEB_CONCURRENCY sets gunicorn's processes.
serve: install
	$(BIN)/fogcontrol migrate --noinput
	$(BIN)/fogcontrol collectstatic --noinput
	$(BIN)/fogcontrol serve --bind $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/lint-imports
	$(BIN)/bandit --quiet --recursive fogcontrol --exclude '*/tests/*,fogcontrol/testing/*' --severity-level medium
	$(BIN)/python -m fogcontrol.testing.module_size
	$(BIN)/fogcontrol makemigrations --check --dry-run
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

worker: install
	$(BIN)/fogcontrol db_worker

# Benchmarks (not part of `make test`): results and commands are in docs/performance.md.
# One table, each figure beside its floor and the ratio, at 1k and 10k (bench/run_all.py,
# docs/performance.md "make bench": about an hour on a quiet 2-core machine).
bench: install
	$(BIN)/python bench/run_all.py --sizes 1000 10000

clean:
	rm -rf $(VENV)

# The Spanish catalogues (docs/i18n.md): gather every marked string into each app's locale/es/ and
# fogcontrol/locale/es/, then compile the .mo files (committed: a fresh machine needs no gettext).
messages: install
	$(BIN)/fogcontrol makemessages -l es --ignore=.venv --ignore=tests --ignore='*/tests/*' --ignore=bench --ignore=data --ignore=docs --no-obsolete --no-location
	$(BIN)/fogcontrol compilemessages -l es --ignore=.venv
