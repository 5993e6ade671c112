#!/usr/bin/env bash
# CI's production stage, on this machine's PostgreSQL and Redis: gunicorn with DEBUG off, a
# real Celery worker and beat on Redis, then the HTTP smoke test (log in, record a night, close
# it, wait for the ranking and the e-mails through the worker; static 200; /healthz green), and
# the outage drill (benchmarks/drill.py: the database's and Redis's connections dropped while
# four phones post deals).
# Its own database (clubwhist_prod), Redis DB 3 and queue name, a free port; it stops only
# the processes it started, by pid, and every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  # A warm shutdown first (gunicorn and the worker stop their own children), at most 20 s.
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 40); do
    alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.5
  done
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DJANGO_SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
export DJANGO_SECRET_KEY
# STAGE_DB and STAGE_REDIS_DBS let two runs on one machine keep apart (the drill drops every
# connection to its own database and Redis databases only).
STAGE_DB=${STAGE_DB:-clubwhist_prod}
read -r BROKER_DB CACHE_DB <<<"${STAGE_REDIS_DBS:-3 4}"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$STAGE_DB"
export CELERY_BROKER_URL="redis://127.0.0.1:6379/$BROKER_DB"
export CACHE_URL="redis://127.0.0.1:6379/$CACHE_DB"  # the cache in a database of its own
export CELERY_QUEUE="prod-smoke-$$"
export DJANGO_STATIC_ROOT="$WORK/static" DJANGO_MEDIA_ROOT="$WORK/media"
# As behind deploy/nginx.conf (one proxy); the smoke test's requests, sent straight to gunicorn
# with no X-Forwarded-For, count as the connection's address.
export DJANGO_TRUSTED_PROXY_COUNT=1
# Plain HTTP on 127.0.0.1: the smoke test's cookies must travel without TLS.
export DJANGO_SECURE_COOKIES=0
unset DJANGO_DEBUG

STAGE_DB=$STAGE_DB $PY - <<'PY'
import os

import psycopg

name = os.environ["STAGE_DB"]
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{name}"')
PY
$PY manage.py migrate -v 0
$PY manage.py collectstatic --noinput -v 0
# The deployment checks are clean once the HTTPS switches are on (as behind the club's proxy).
DJANGO_SECURE_SSL_REDIRECT=1 DJANGO_SECURE_HSTS_SECONDS=31536000 DJANGO_SECURE_PROXY_SSL_HEADER=1 \
  DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS=1 DJANGO_SECURE_HSTS_PRELOAD=1 \
  DJANGO_SECURE_COOKIES=1 $PY manage.py check --deploy --fail-level WARNING

.venv/bin/gunicorn -c deploy/gunicorn.conf.py config.wsgi -b "127.0.0.1:$PORT" \
  --access-logfile - --error-logfile - >"$WORK/web.log" 2>&1 &
PIDS+=($!)
.venv/bin/celery -A config worker -Q "$CELERY_QUEUE" -c 2 -l warning -n "prod-smoke-$$@%h" \
  >"$WORK/worker.log" 2>&1 &
PIDS+=($!)
.venv/bin/celery -A config beat -l warning -s "$WORK/beat-schedule" >"$WORK/beat.log" 2>&1 &
PIDS+=($!)

for _ in $(seq 60); do
  $PY -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$PORT/healthz', timeout=2)" \
    2>/dev/null && break
  sleep 0.5
done
status=0
timeout 240 $PY manage.py bench smoke "http://127.0.0.1:$PORT" --timeout 90 || status=$?
# The outage drill: four phones post deals while PostgreSQL drops every connection of the
# site (twice busy, once idle), then Redis its clients: no 5xx, each deal stored once.
[ "$status" -eq 0 ] && { timeout 120 $PY manage.py bench drill "http://127.0.0.1:$PORT" || status=$?; }
if [ "$status" -ne 0 ]; then
  echo "-- web"; tail -n 40 "$WORK/web.log"; echo "-- worker"; tail -n 40 "$WORK/worker.log"
  echo "-- beat"; tail -n 20 "$WORK/beat.log"
  exit "$status"
fi
echo "== production stage: real broker and worker tests (worker killed mid-task)"
# Not the Redis cache: the tests empty their cache, and DB 3 is the broker's too.
CACHE_URL= timeout 600 $PY -m pytest -q -m production tests/production
