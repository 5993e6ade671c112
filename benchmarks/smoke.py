"""``manage.py bench smoke URL`` — the production stage's HTTP smoke test, against a running site
(gunicorn, a Celery worker and beat) sharing this process's database.

It opens a throw-away club with a night whose round 1 is drawn, then over HTTP as a scorer's
phone would: logs in, records a deal at each table, closes the night; and waits (bounded) for
the real worker to compute the season ranking and send the result e-mails, and for /healthz to
be green with no pending work. A static file, the service worker and the web manifest must answer
200. Exits non-zero on any failure."""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from django.core.management.base import CommandError
from django.urls import reverse

from club.models import Player
from games.dealforms import deal_post
from games.models import ResultEmail
from infra.models import PendingWork
from scoring import services as scoring
from scoring.models import RankingSnapshot

from .data import night, scorer_club

SOLO = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
PASSWORD = "smoke-test-password-1"


def smoke(report: Callable[[str], None], *, url: str, timeout: float = 60.0) -> None:
    """Raises ``CommandError`` at the first check that fails; ``report`` each one passed."""
    base = url.rstrip("/")
    slug = f"smoke-{int(time.time())}"
    club, user, players = scorer_club(players=8, slug=slug)
    user.set_password(PASSWORD)
    user.save()
    for player in players:
        Player.objects.filter(pk=player.pk).update(email=f"p{player.pk}@{slug}.example.org")
    tournament = night(club, players, rounds=1)
    scoring.round_draw(tournament, 1, seed=1)

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(path: str) -> tuple[int, str]:
        try:
            with opener.open(base + path, timeout=10) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")
        except OSError:  # no answer: the check that asked fails
            return 0, ""

    def post(path: str, data: dict[str, Any]) -> int:
        token = next((c.value for c in jar if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}, doseq=True)
        request = urllib.request.Request(
            base + path, body.encode(), headers={"Referer": base + path}
        )
        try:
            with opener.open(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return 0

    def check(what: str, ok: bool) -> None:
        if not ok:
            raise CommandError(f"smoke test failed: {what}")
        report(f"ok  {what}")

    status, page = get(reverse("login"))
    check("login page 200", status == 200)
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page)
    check("a hashed stylesheet is linked", bool(stylesheet))
    check("static file 200", get(stylesheet.group(1))[0] == 200)
    # The offline sheet's worker names the hashed files: a manifest it cannot read is a 500.
    check("service worker 200 (/sw.js)", get(reverse("service-worker"))[0] == 200)
    check("web app manifest 200", get(reverse("manifest"))[0] == 200)
    post(reverse("login"), {"username": user.username, "password": PASSWORD})
    check("logged in", any(c.name == "sessionid" for c in jar))
    for poule in tournament.poules.order_by("table"):
        path = reverse(
            "games:sheet", kwargs={"slug": slug, "pk": tournament.pk, "poule_pk": poule.pk}
        )
        check(f"deal recorded at table {poule.table}", 0 < post(path, deal_post(poule, SOLO)) < 400)
    close = reverse("games:close", kwargs={"slug": slug, "pk": tournament.pk})
    check("night closed (no 500)", post(close, {"confirm": "1"}) in (200, 302))
    tournament.refresh_from_db()
    check("night is closed", tournament.is_locked)

    deadline = time.monotonic() + timeout
    expected = tournament.standings.count()
    while time.monotonic() < deadline:
        ranked = RankingSnapshot.objects.filter(season=tournament.season).exists()
        mailed = ResultEmail.objects.filter(tournament=tournament).count()
        pending = PendingWork.objects.filter(key__in=[tournament.pk, tournament.season_id])
        if ranked and mailed == expected and not pending.exists():
            break
        time.sleep(0.5)
    check("ranking computed by the worker", ranked)
    check(f"{expected} result e-mails sent once by the worker", mailed == expected)
    status, body = get(reverse("healthz"))
    check(f"/healthz green ({body.strip()})", status == 200 and json.loads(body)["status"] == "ok")
