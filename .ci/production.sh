#!/usr/bin/env bash
# The production configuration, briefly (under 30 s once migrated): gunicorn started with
# deploy/gunicorn.conf.py (the file the systemd unit uses), DEBUG off, real keys generated for the
# run, JSON logs, the workers' metrics merged (PROMETHEUS_MULTIPROC_DIR); then /healthz,
# /readyz and /metrics (from loopback) must answer, and /metrics from elsewhere must not without
# the token. Called by .ci/run; runs on its own too:
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_ops CELERY_BROKER_URL=redis://127.0.0.1:6379/13 .ci/production.sh
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "[production] $*"; }
die() { echo "[production] ERROR: $*" >&2; exit 1; }
: "${DATABASE_URL:?set DATABASE_URL (it is migrated)}"
PORT=${PORT:-$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
BASE="http://127.0.0.1:$PORT"
WORK=$(mktemp -d -t casino-production.XXXXXX)

export DEBUG=0 ALLOWED_HOSTS=127.0.0.1,localhost LOG_FORMAT=json
export SECRET_KEY=$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))')
export CHAIN_KEY=$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(32))')
export CHECKPOINT_DIR="$WORK/checkpoints" CHECKPOINT_DEV_KEY=0
openssl genpkey -algorithm ed25519 -out "$WORK/checkpoint.pem" 2>/dev/null
export CHECKPOINT_SIGNING_KEY="$WORK/checkpoint.pem"
export METRICS_TOKEN=$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(24))')
export PROMETHEUS_MULTIPROC_DIR="$WORK/metrics"
export GUNICORN_BIND="127.0.0.1:$PORT" GUNICORN_WORKERS=2 GUNICORN_THREADS=2 GUNICORN_CONTROL_SOCKET="$WORK/gunicorn.ctl"

.venv/bin/python manage.py migrate --no-input -v0

SERVER_LOG="$WORK/gunicorn.log"
.venv/bin/gunicorn -c deploy/gunicorn.conf.py casino.wsgi:application >"$SERVER_LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 40); do
  curl -fsS -o /dev/null "$BASE/healthz" 2>/dev/null && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$SERVER_LOG" >&2; die "gunicorn exited"; }
  sleep 0.5
done

expect() {  # expect STATUS URL [curl options]: the answer's status must be STATUS
  local want=$1 url=$2; shift 2
  local got
  got=$(curl -sS -o "$WORK/body" -w '%{http_code}' "$@" "$url") || true
  [ "$got" = "$want" ] || { cat "$WORK/body" >&2; tail -n 20 "$SERVER_LOG" >&2; die "$url: $got, expected $want"; }
  log "$url${1:+ (with headers)} -> $got"
}
expect 200 "$BASE/healthz"
expect 200 "$BASE/readyz"
grep -q '"database": {"ok": true}' "$WORK/body" || die "/readyz: the database is not ok: $(cat "$WORK/body")"
expect 200 "$BASE/metrics"
grep -q '^casino_rounds_logged_total ' "$WORK/body" || die "/metrics lacks the floor's figures"
grep -q '^django_http_requests_total_by_method_total{method="GET"}' "$WORK/body" \
  || die "/metrics lacks the request metrics merged across workers"
# A forwarded request (the proxy in front) is not loopback: the token is needed.
expect 403 "$BASE/metrics" -H "X-Forwarded-For: 203.0.113.9"
expect 200 "$BASE/metrics" -H "X-Forwarded-For: 203.0.113.9" -H "Authorization: Bearer $METRICS_TOKEN"
# The access log: JSON lines carrying the request id the application answered with.
.venv/bin/python - "$SERVER_LOG" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"time"') and '"gunicorn.access"' in l]
assert lines, "no JSON access log line"
assert all(l["request_id"] and len(l["request_id"]) == 32 for l in lines), lines[-1]
print(f"[production] {len(lines)} JSON access log lines, each with its request id")
PY
# Two workers on their queues and beat, as the systemd units run them (when a broker is set): a
# task routed to "notifications" is answered by the worker of that queue, and beat keeps its
# schedule in CELERY_BEAT_SCHEDULE_FILE.
if [ -n "${CELERY_BROKER_URL:-}" ]; then
  export CELERY_BEAT_SCHEDULE_FILE="$WORK/celerybeat/schedule" AUDIT_SWEEP_INTERVAL_S=0
  tag="ci-$$"
  .venv/bin/celery -A casino worker -Q audit -n "audit-$tag@%h" --pool=solo --without-gossip --without-mingle \
    >"$WORK/worker-audit.log" 2>&1 &
  AUDIT_WORKER=$!
  .venv/bin/celery -A casino worker -Q reports,notifications -n "reports-$tag@%h" --pool=solo --without-gossip \
    --without-mingle >"$WORK/worker-reports.log" 2>&1 &
  REPORTS_WORKER=$!
  .venv/bin/celery -A casino beat >"$WORK/beat.log" 2>&1 &
  BEAT=$!
  trap 'kill "$SERVER" "$AUDIT_WORKER" "$REPORTS_WORKER" "$BEAT" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
  .venv/bin/python - <<'PY' || { tail -n 20 "$WORK"/worker-*.log >&2; die "no worker answered"; }
import django, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup()
from casino.celery import app
from casino.tasks import ping
result = ping.delay()
assert result.get(timeout=30) == "pong"
queues = {q["name"] for qs in (app.control.inspect(timeout=5).active_queues() or {}).values() for q in qs}
assert {"audit", "reports", "notifications"} <= queues, queues
print(f"[production] workers serve {sorted(queues)}; ping answered through the notifications queue")
PY
  for _ in $(seq 1 20); do ls "$WORK"/celerybeat/schedule* >/dev/null 2>&1 && break; sleep 0.5; done
  ls "$WORK"/celerybeat/schedule* >/dev/null 2>&1 || { cat "$WORK/beat.log" >&2; die "beat wrote no schedule file"; }
  log "beat keeps its schedule in $CELERY_BEAT_SCHEDULE_FILE"
fi
log "ok"
