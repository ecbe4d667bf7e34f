# The two commands: `make run` (the demo on http://127.0.0.1:8000, PORT=… for another port) and `make test`.
# Everything runs from .venv, created with Python 3.11 and reinstalled only when a
# requirements file changes (the stamp file records the last install).

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# `make run PORT=8080` serves the demo on another port.
PORT ?= 8000
# Commands that serve no requests (bench, worker) may run on a developer's machine without a
# real key; an exported SECRET_KEY always wins. The same for the chain's key (the development key
# `make run` links rounds with, so a local worker verifies them) and the checkpoints' signing key
# (a development key generated in CHECKPOINT_DIR): exported CHAIN_KEY / CHECKPOINT_SIGNING_KEY win.
LOCAL_KEY := SECRET_KEY="$${SECRET_KEY:-local-commands-only-not-a-secret-key}" \
	CHAIN_KEY="$${CHAIN_KEY:-development-only-chain-key-never-use-in-production-4b8e1f}" \
	CHECKPOINT_DEV_KEY="$${CHECKPOINT_DEV_KEY:-1}"

.PHONY: install run test worker beat bench bench-scale clean

# The rules engine compiled with mypyc (dealing/engine/native.py), rebuilt when a source of it
# changes; an engine whose build is stale or missing imports its Python source instead.
NATIVE := dealing/engine/_native.json
ENGINE_SOURCES := $(wildcard dealing/engine/*.py dealing/engine/*/*.py) pyproject.toml

install: $(STAMP) $(NATIVE)

$(NATIVE): $(STAMP) $(ENGINE_SOURCES)
	$(BIN)/python -m dealing.engine native build

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# DEBUG=1: the demo floor's users (password "demo") are for a development machine only.
run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py demo_floor
	DEBUG=1 GAMEMATH_WARM=background $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Uses DATABASE_URL / CELERY_BROKER_URL when they are set, SQLite and eager tasks otherwise.
# The layer contracts first (pyproject.toml, [tool.importlinter]; under a second): an import that
# crosses a layer fails the target before any test runs. pytest's exit code 5 ("no tests
# collected") is not a failure.
test: install
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest $(PYTEST_ARGS) || [ $$? -eq 5 ]

worker: install
	@test -n "$$CELERY_BROKER_URL" || { echo "make worker needs CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0)" >&2; exit 2; }
	$(LOCAL_KEY) $(BIN)/celery -A casino worker -l info

beat: install
	@test -n "$$CELERY_BROKER_URL" || { echo "make beat needs CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0)" >&2; exit 2; }
	$(LOCAL_KEY) $(BIN)/celery -A casino beat -l info --schedule "$${CELERY_BEAT_FILE:-/tmp/casino-celerybeat-schedule}"

bench: install
	$(LOCAL_KEY) $(BIN)/python manage.py bench

# A casino's year: ROUNDS rounds imported into a throwaway PostgreSQL database, audited by 2
# workers (needs CELERY_BROKER_URL), every auditor's page timed at 100,000 and at ROUNDS (bench/scale.py).
ROUNDS ?= 1000000
bench-scale: install
	$(LOCAL_KEY) $(BIN)/python manage.py bench_scale --rounds $(ROUNDS)

clean:
	-test -x $(BIN)/python && $(BIN)/python -m dealing.engine native clean
	rm -rf $(VENV) staticfiles .pytest_cache .import_linter_cache
