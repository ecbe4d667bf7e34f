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

.PHONY: install run test test-fast test-compiled lint format coverage lock audit-deps worker beat bench bench-scale bench-live clean

# The rules engine compiled with mypyc (dealing/engine/native.py), rebuilt when a source of it
# changes; an engine whose build is stale or missing imports its Python source instead.
NATIVE := dealing/engine/_native.json
ENGINE_SOURCES := $(shell find dealing/engine -name '*.py') pyproject.toml

# Every installed package pinned with its hashes: the runtime lock, the engine's build tools and
# the test and development tools (`make lock` writes them from the .in files with pip-tools).
LOCKS := requirements.txt requirements-build.txt requirements-dev.txt

install: $(STAMP) $(NATIVE)

$(NATIVE): $(STAMP) $(ENGINE_SOURCES)
	@echo "==> compiling the rules engine with mypyc (a minute or two, once and after an engine edit)"
	$(BIN)/python -m dealing.engine native build

$(STAMP): $(LOCKS)
	@echo "==> installing the $$(cat $(LOCKS) | grep -c '^[A-Za-z0-9].*==') locked packages into $(VENV) (once, and after a lock file changes)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps $(addprefix -r ,$(LOCKS))
	touch $(STAMP)

# After editing a .in file: the locks again, keeping every pin that still fits.
lock: $(STAMP)
	for name in requirements requirements-build requirements-dev; do \
	  $(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
	    --no-emit-find-links --output-file $$name.txt $$name.in || exit 1; done

# Known vulnerabilities in every locked package (pip-audit, the locks as they are: hashes required,
# no resolution by pip). AUDIT_DEPS_SERVICE: osv (the default of pip-audit) or pypi (PyPI's JSON API,
# for a network that reaches only the package registry). A package the service does not know is
# listed as skipped, not failed; AUDIT_DEPS_STRICT=1 fails on it too. An advisory that does not
# apply is ignored here, with the reason: --ignore-vuln ID  # why. (None so far.)
AUDIT_DEPS_SERVICE ?= pypi
AUDIT_DEPS_IGNORE :=
audit-deps: $(STAMP)
	$(BIN)/pip-audit --disable-pip --require-hashes --progress-spinner off \
	  --vulnerability-service $(AUDIT_DEPS_SERVICE) $(AUDIT_DEPS_IGNORE) $(addprefix -r ,$(LOCKS)) \
	  $(if $(filter 1,$(AUDIT_DEPS_STRICT)),--strict)

# DEBUG=1: the demo floor's users (password "demo") are for a development machine only.
# Each step says what it does as it starts: the demo floor each of its loaders (rounds per table,
# days, audit chunks), the server each step of the game math ("game math warm-up n/m: … "). The game
# math (one to two minutes of CPU) is solved once, in the serving process (no reloader: uvicorn
# without --reload; GAMEMATH_WARM only on its line), while a person logs in. The whole run peaks
# under 1.5 GB (docs/benchmarks.md, "The first make run").
run: install
	@echo "==> migrating the database"
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	@echo "==> loading the demo floor (users, tables, shoes, rounds, a night; once)"
	DEBUG=1 $(BIN)/python manage.py demo_floor
	@echo "==> serving http://127.0.0.1:$(PORT)/ (user dealer1, pitboss1, auditor1 …, password demo); the game math warms in the background"
	@echo "==> ASGI (uvicorn, one process): the pages, and the live streams on the in-memory bus unless LIVE_REDIS_URL is set"
	DEBUG=1 GAMEMATH_WARM=background $(BIN)/python -m uvicorn casino.asgi:application --host 127.0.0.1 --port $(PORT) \
	  --lifespan off --timeout-graceful-shutdown 2

# Uses DATABASE_URL / CELERY_BROKER_URL when they are set, SQLite and eager tasks otherwise.
# Lint and the layer contracts first (a few seconds): an import that crosses a layer fails the
# target before any test runs. Then the whole suite in parallel, each process with a database of
# its own (pytest-xdist; JOBS=1 runs it in one process): three processes on two cores, as the tests
# also wait on PostgreSQL, browsers and the processes they start (docs/benchmarks.md, "The test loop"). The tests run the engine's
# Python source (ENGINE_PURE=1): an engine edit needs no mypyc build before the tests;
# `make test-compiled` runs the engine's tests on the compiled build. pytest's exit code 5 ("no
# tests collected") is not a failure.
JOBS ?= 3
test: $(STAMP) lint
	ENGINE_PURE=1 $(BIN)/python -m pytest -n $(JOBS) $(PYTEST_ARGS) || [ $$? -eq 5 ]

# The edit loop, under a minute: the engine's rules, golden rounds and properties, the games'
# seam (the toy game through every page), the layer and private-name checks, on SQLite, stopping
# at the first failure; no browser, no real worker, nothing marked slow, not the exhaustive game
# math. `make test-fast FAST=tests/books` runs another folder the same way. Not a replacement for
# `make test`.
FAST ?= tests/engine tests/games tests/test_contracts.py tests/test_private_imports.py
test-fast: $(STAMP)
	env -u DATABASE_URL -u CELERY_BROKER_URL ENGINE_PURE=1 $(BIN)/python -m pytest -n $(JOBS) -q -x \
	  -p no:cacheprovider -m "not browser and not worker and not slow" --ignore-glob='*_math.py' \
	  --ignore=tests/engine/test_ochko_optimal.py $(FAST) $(PYTEST_ARGS) || [ $$? -eq 5 ]

# The engine's tests on the engine compiled with mypyc, as a server runs it (CI runs it after
# `make test`): the golden rounds, the properties, the fuzzing, each game's rules and the
# compiled-against-pure comparison. The game math is never compiled: its tests stay in `make test`.
test-compiled: install
	$(BIN)/python -m pytest -n $(JOBS) -q -p no:cacheprovider --ignore-glob='*_math.py' \
	  --ignore=tests/engine/test_ochko_optimal.py tests/engine $(PYTEST_ARGS) || [ $$? -eq 5 ]

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Line coverage of the whole suite (pytest-cov over the parallel run): the figure goes into
# docs/benchmarks.md; it is a reading, not a gate.
coverage: $(STAMP)
	ENGINE_PURE=1 $(BIN)/python -m pytest -n $(JOBS) -q --cov --cov-report=term:skip-covered \
	  --cov-report=xml:coverage.xml $(PYTEST_ARGS) || [ $$? -eq 5 ]

# Every queue by default (WORKER_QUEUES=audit for one); deploy/ runs a worker per queue. Beat keeps
# its schedule in CELERY_BEAT_SCHEDULE_FILE (default var/celerybeat/schedule).
worker: install
	@test -n "$$CELERY_BROKER_URL" || { echo "make worker needs CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0)" >&2; exit 2; }
	$(LOCAL_KEY) $(BIN)/celery -A casino worker -l info -Q "$${WORKER_QUEUES:-audit,reports,notifications}"

beat: install
	@test -n "$$CELERY_BROKER_URL" || { echo "make beat needs CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0)" >&2; exit 2; }
	$(LOCAL_KEY) $(BIN)/celery -A casino beat -l info

bench: install
	$(LOCAL_KEY) $(BIN)/python manage.py bench

# A casino's year: ROUNDS rounds imported into a throwaway PostgreSQL database, audited by 2
# workers (needs CELERY_BROKER_URL), every auditor's page timed at COMPARE and at ROUNDS; then the
# degenerate shape — one table, one shoe, one day holding every round — at ONE_COMPARE and
# ONE_ROUNDS (bench/scale.py). Each prints the pages over p95 300 ms or 1.5x their smaller size's.
# Smaller: `make bench-scale ROUNDS=20000 COMPARE=2000 ONE_ROUNDS=2000 ONE_COMPARE=200`.
ROUNDS ?= 1000000
COMPARE ?= 100000
ONE_ROUNDS ?= 200000
ONE_COMPARE ?= 20000
bench-scale: install
	$(LOCAL_KEY) $(BIN)/python manage.py bench_scale --shape both --rounds $(ROUNDS) --compare $(COMPARE) \
	  --one-rounds $(ONE_ROUNDS) --one-compare $(ONE_COMPARE)

# 200 live stream clients held by one uvicorn process while rounds are logged: event latency and
# the process's memory (bench/live_load.py; needs PostgreSQL and Redis, docs/benchmarks.md).
CLIENTS ?= 200
bench-live: install
	$(LOCAL_KEY) $(BIN)/python manage.py bench_live --clients $(CLIENTS)

clean:
	-test -x $(BIN)/python && $(BIN)/python -m dealing.engine native clean
	rm -rf $(VENV) staticfiles .pytest_cache .import_linter_cache
