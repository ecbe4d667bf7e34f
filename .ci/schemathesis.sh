#!/usr/bin/env bash
# The API contract against a live server: Schemathesis generates requests from /api/schema/ and
# checks every response against it (every check on, a fixed budget of examples per operation, a
# fresh seed each run, printed so that a failure can be replayed with SCHEMATHESIS_SEED=<seed>;
# every phase: the schema's examples, coverage, fuzzing, and the stateful phase, which follows the
# schema's OpenAPI links from a list or a create to the operations on that id). Called by .ci/run
# after `make test`; runs on its own too:
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_me PORT=8101 .ci/schemathesis.sh
#
# The database is migrated and given the demo floor (demo_floor needs DEBUG=1: its users have the
# password "demo"), then .ci/schemathesis_ids.py opens shifts, a fill, a ledger night and drills of
# the caller's, and writes the run's config: .ci/schemathesis.toml and dictionaries of those ids,
# bound to the path parameters of the books, ledger and drills operations (most generated cases
# take an id that exists, so they reach the write). SCHEMATHESIS_TALLY=<file>: every response's
# status per operation, as JSON (.ci/schemathesis_hooks.py). The server is gunicorn on
# 127.0.0.1:$PORT (default: a free port); the calls are made with the token of the demo superuser
# `admin`, who holds every role. Exit code: Schemathesis's.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "[schemathesis] $*"; }
: "${DATABASE_URL:?set DATABASE_URL to the database to test against (it gets the demo floor)}"
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-25}
SEED=${SCHEMATHESIS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
PORT=${PORT:-$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
BASE="http://127.0.0.1:$PORT"

export DEBUG=1 ALLOWED_HOSTS=127.0.0.1,localhost
# The run is one token and one address making thousands of calls: not what the throttles are for
# (tests/casino/test_throttling.py proves the 429, and the schema documents it on every operation).
export THROTTLE_TOKEN_RATE=100000/minute THROTTLE_USER_RATE=100000/minute THROTTLE_ANON_RATE=100000/minute
# The superuser's token is asked for with a password only: the second factor (tests/casino/
# test_second_factor.py proves it) is off for this run, as OTP_REQUIRED_ROLES= turns it off.
export OTP_REQUIRED_ROLES=
# Eager tasks unless a broker is configured (CI's Redis: the rounds logged are then queued).
.venv/bin/python manage.py migrate --no-input -v0
.venv/bin/python manage.py demo_floor >/dev/null
CONFIG=$(mktemp -t schemathesis-config.XXXXXX.toml)
trap 'rm -f "$CONFIG" "$CONFIG.log"' EXIT
IDS=$(PYTHONPATH=. .venv/bin/python .ci/schemathesis_ids.py "$CONFIG" 2>"$CONFIG.log") || { cat "$CONFIG.log"; exit 1; }
log "the writes' ids: $IDS"
export SCHEMATHESIS_HOOKS=.ci/schemathesis_hooks.py

SERVER_LOG=${SCHEMATHESIS_SERVER_LOG:-$(mktemp -t schemathesis-server.XXXXXX.log)}
log "gunicorn on $BASE (its log: $SERVER_LOG)"
# No request-line limit of gunicorn's own (an HTML 414): the application answers every URL itself.
# The game math solved once before the workers fork (GAMEMATH_WARM, --preload), as in production.
GAMEMATH_WARM=${GAMEMATH_WARM:-1} .venv/bin/gunicorn casino.wsgi:application --bind "127.0.0.1:$PORT" --workers 2 --timeout 60 --preload \
  --limit-request-line 0 >"$SERVER_LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$CONFIG" "$CONFIG.log"' EXIT
for _ in $(seq 1 1800); do  # up to 15 min: the game math (exact splits included) is solved before the workers start
  if curl -fsS -o /dev/null "$BASE/healthz" 2>/dev/null; then break; fi
  sleep 0.5
done

token() {
  # A run of the token endpoint's own tests locks the address out (django-axes): start afresh.
  .venv/bin/python manage.py axes_reset >/dev/null
  curl -fsS -X POST "$BASE/api/v1/auth/token/" -H 'Content-Type: application/json' \
    -d '{"username": "admin", "password": "demo"}' | .venv/bin/python -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}

run() {  # run [schemathesis options]: one run with a new token of the demo superuser
  .venv/bin/schemathesis --config-file "$CONFIG" run "$BASE/api/schema/" \
    --header "Authorization: Token $(token)" \
    --checks all \
    --max-examples "$MAX_EXAMPLES" \
    --seed "$SEED" \
    --workers 1 \
    --generation-database none \
    --request-timeout 30 \
    --no-color \
    "$@"
}

log "schemathesis: every check, $MAX_EXAMPLES examples per operation, seed $SEED (replay: SCHEMATHESIS_SEED=$SEED)"
status=0
# Every operation but the token endpoints, which revoke the token the run is made with ...
run --exclude-path-regex '^/api/v1/auth/token/' "$@" || status=$?
# ... and those last, with a token of their own (once revoked, the rest of this run is answered 401).
log "schemathesis: the token endpoints"
# No stateful phase there: no link joins the token endpoints (Schemathesis would report it as an error).
run --include-path-regex '^/api/v1/auth/token/' --phases examples,coverage,fuzzing "$@" || status=$?
exit "$status"
