#!/usr/bin/env bash
# Load test of the public ranking and the room screen against gunicorn (4 workers, DEBUG off)
# on this machine's PostgreSQL: its own database (clubwhist_prod), the demo club, a running
# night for the room screen, 16 clients on 127.0.0.1 for 30 s per page (manage.py bench load).
# Usage: deploy/loadtest.sh [SECONDS] [CLIENTS]. With Debian's wrk installed, it measures the
# ranking with wrk too (a client in C takes less of the CPU the server needs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
SECONDS_EACH=${1:-30}
CLIENTS=${2:-16}
WORK=$(mktemp -d)
PID=
cleanup() {
  if [ -n "$PID" ]; then
    kill -TERM "$PID" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DJANGO_SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
export DJANGO_SECRET_KEY DATABASE_URL="postgres://postgres@127.0.0.1:5432/clubwhist_prod"
export DJANGO_STATIC_ROOT="$WORK/static" DJANGO_SECURE_COOKIES=0
unset DJANGO_DEBUG CELERY_BROKER_URL
$PY - <<'PY'
import psycopg

with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
    conn.execute('DROP DATABASE IF EXISTS "clubwhist_prod" WITH (FORCE)')
    conn.execute('CREATE DATABASE "clubwhist_prod"')
PY
$PY manage.py migrate -v 0
$PY manage.py collectstatic --noinput -v 0
$PY manage.py demo_club >/dev/null
# Tonight's night at the demo club, round 1 drawn: what the room screen shows.
ROOM=$($PY manage.py shell -v 0 -c '
import datetime
from club import services as club_services
from club.models import Club, Player
from games import services
from scoring import services as scoring
# The demo has two clubs: RCWhist, playing Belgian whist, is the one measured.
club = Club.objects.get(name="RCWhist La Chevalerie")
players = list(Player.objects.in_club(club)[:16])
today = datetime.date.today()
night = services.tournament_create(club=club, season=club_services.season_for_date(club, today),
    date=today, game="belgian_whist",
    point_table=services.point_table_for_preset("rcwhist"), rounds=3)
services.presence_set(night, players)
scoring.round_draw(night, 1, seed=1)
print(f"/clubs/{club.slug}/soirees/{night.pk}/salle/ /clubs/{club.slug}/classement/")
')
read -r ROOM_PATH RANKING_PATH <<<"$ROOM"
ADMIN=$($PY manage.py shell -v 0 -c '
from club.models import Membership
print(Membership.objects.filter(club__name="RCWhist La Chevalerie", role="admin",
                                player__user__isnull=False).first().player.user.username)')
.venv/bin/gunicorn -c deploy/gunicorn.conf.py config.wsgi -b "127.0.0.1:$PORT" --log-level warning >"$WORK/web.log" 2>&1 &
PID=$!
for _ in $(seq 60); do $PY -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$PORT/healthz', timeout=2)" \
    2>/dev/null && break; sleep 0.5; done
echo "load: $(uptime)"
timeout $((SECONDS_EACH + 30)) $PY manage.py bench load --url "http://127.0.0.1:$PORT" \
  --path "$RANKING_PATH" -c "$CLIENTS" -d "$SECONDS_EACH"
timeout $((SECONDS_EACH + 30)) $PY manage.py bench load --url "http://127.0.0.1:$PORT" \
  --path "$ROOM_PATH" -c "$CLIENTS" -d "$SECONDS_EACH" --as "$ADMIN"
if command -v wrk >/dev/null; then
  COOKIE=$($PY manage.py shell -v 0 -c "
from benchmarks.load import session_cookie
print(session_cookie('$ADMIN'))")
  for page in "$RANKING_PATH" "$ROOM_PATH"; do
    echo "== wrk (C client): $page"
    cookie=""; [ "$page" = "$ROOM_PATH" ] && cookie="Cookie: $COOKIE"
    timeout $((SECONDS_EACH + 30)) wrk -t 2 -c "$CLIENTS" -d "${SECONDS_EACH}s" --latency \
      ${cookie:+-H "$cookie"} "http://127.0.0.1:$PORT$page" |
      grep -E "Requests/sec|50%|90%|99%|Non-2xx|Socket errors|requests in"
  done
fi
echo "load: $(uptime)"
