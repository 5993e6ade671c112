"""``manage.py bench drill URL`` — the production stage's outage drill, against a running site
(gunicorn, a Celery worker and beat) sharing this process's database.

Four scorers' phones log in and post deals at once to their tables' score sheets, as the sheet
does (an htmx POST of the deal form with the phone's key for the deal and the CSRF token).
Meanwhile PostgreSQL drops every connection of the site (``pg_terminate_backend``: what a
restart or a failover does) twice during the burst, then once while the phones are idle, after
which each phone sends one more deal. Then the same with Redis (the cache and the broker):
their clients killed (``CLIENT KILL``), twice busy and once idle. Every answer must be a
recorded deal — no 5xx, no refusal — and every deal sent stored exactly once (counted by its
key). Prints the figures; exits non-zero on any failure."""

from __future__ import annotations

import http.cookiejar
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import Count
from django.urls import reverse

from club.models import Membership, Player
from games.dealforms import deal_post
from games.demo import random_deal
from games.models import Deal, Poule
from scoring import services as scoring
from scoring.engine.games.belgian_whist import counts_toward_poule

from .data import night, scorer_club
from .federation_data import DEALS, SEATS

PHONES = 4
BURST_DEALS = 5  # each phone's deals a burst; one more after the idle drop
DEALS_EACH = 2 * (BURST_DEALS + 1)  # the PostgreSQL drill's, then Redis's
PASSWORD = "drill-password-1"


@dataclass
class Figures:
    requests: int = 0
    server_errors: int = 0
    refused: int = 0
    keys: list[uuid.UUID] = field(default_factory=list)
    first_failure: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, status: int, body: str, what: str) -> None:
        with self.lock:
            self.requests += 1
            if status >= 500 or status == 0:
                self.server_errors += 1
            elif status >= 400 or "dealform-errors" in body:
                self.refused += 1
            else:
                return
            self.first_failure = self.first_failure or f"{what}: {status} {body[:200]}"


class Phone:
    """A scorer's phone: its own cookies, logged in over HTTP, posting to its table's sheet."""

    def __init__(self, base: str, username: str, sheet: str, poule: Poule, seed: int) -> None:
        self.base, self.username, self.sheet, self.poule = base, username, sheet, poule
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        # Every deal's form made now: the phones' threads send, they read nothing (the drill
        # drops their database connections too).
        rng, counted = random.Random(seed), 0
        self.forms: list[dict[str, Any]] = []
        while len(self.forms) < DEALS_EACH:
            deal = random_deal(rng, SEATS)
            if counted + counts_toward_poule(deal["contract"]) > DEALS:
                continue  # the poule's counted deals are full: a deal that takes no number
            counted += counts_toward_poule(deal["contract"])
            self.forms.append({**deal_post(poule, deal), "client_key": str(uuid.uuid4())})

    def _send(self, path: str, data: dict[str, Any] | None, htmx: bool = False) -> tuple[int, str]:
        headers = {"Referer": self.base + path}
        body = None
        if data is not None:
            token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}, doseq=True)
            body = body.encode()
        if htmx:
            headers["HX-Request"] = "true"
        request = urllib.request.Request(self.base + path, body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")
        except OSError:  # no answer at all: as bad as a 5xx
            return 0, ""

    def log_in(self, figures: Figures) -> None:
        status, body = self._send(reverse("login"), None)
        figures.answered(status, body, "login page")
        credentials = {"username": self.username, "password": PASSWORD}
        status, body = self._send(reverse("login"), credentials)
        figures.answered(status, body, "login")
        if not any(c.name == "sessionid" for c in self.jar):
            raise CommandError(f"drill: {self.username} could not log in ({status})")

    def deal(self, figures: Figures) -> None:
        form = self.forms.pop(0)
        status, body = self._send(self.sheet, form, htmx=True)
        with figures.lock:
            figures.keys.append(uuid.UUID(form["client_key"]))
        figures.answered(status, body, "deal")


def postgresql_dropped() -> int:
    """Every connection of the site to its database ended (this one's kept): the web workers',
    the Celery worker's and beat's. Returns how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return len(cursor.fetchall())


def redis_dropped() -> int:
    """Every client of the site's Redis databases (the broker's, the cache's) disconnected."""
    urls = {settings.CELERY_BROKER_URL, settings.CACHES["default"].get("LOCATION") or ""}
    databases = {
        redis.Redis.from_url(url).connection_pool.connection_kwargs.get("db", 0)
        for url in urls
        if url.startswith("redis://")
    }
    if not databases:
        return 0
    admin = redis.Redis.from_url(next(u for u in urls if u.startswith("redis://")))
    mine = admin.client_id()
    killed = 0
    for client in admin.client_list(_type="normal"):
        if int(client["db"]) in databases and int(client["id"]) != mine:
            killed += admin.client_kill_filter(_id=client["id"])
    admin.close()
    return killed


def _burst(phones: list[Phone], figures: Figures, drop: Callable[[], int]) -> list[int]:
    """Every phone posts its burst's deals at once; ``drop`` is called after a third and two
    thirds of the deals are answered. Returns what each drop ended."""
    dropped: list[int] = []
    total = figures.requests + len(phones) * BURST_DEALS
    threads = [
        threading.Thread(target=lambda p=p: [p.deal(figures) for _ in range(BURST_DEALS)])
        for p in phones
    ]
    for thread in threads:
        thread.start()
    for share in (1, 2):
        mark = total - len(phones) * BURST_DEALS * (3 - share) / 3
        while figures.requests < mark and any(t.is_alive() for t in threads):
            time.sleep(0.005)
        dropped.append(drop())
    for thread in threads:
        thread.join(60)
    return dropped


def _outage(
    report: Callable[[str], None], name: str, phones: list[Phone], drop: Callable[[], int]
) -> Figures:
    figures = Figures()
    started = time.monotonic()
    busy = _burst(phones, figures, drop)
    time.sleep(0.5)  # the phones idle: the site's connections sit in their pools
    idle = drop()
    time.sleep(0.5)
    for phone in phones:
        phone.deal(figures)
    stored = Deal.objects.filter(client_key__in=figures.keys)
    twice = stored.values("client_key").annotate(n=Count("pk")).filter(n__gt=1).count()
    report(
        f"    {name}: {time.monotonic() - started:.1f} s, "
        f"connections ended {busy} busy, {idle} idle; "
        f"{figures.requests} requests, {figures.server_errors} answered 5xx, "
        f"{figures.refused} refused; deals sent {len(figures.keys)}, "
        f"stored {stored.values('client_key').distinct().count()}, stored twice {twice}"
    )
    if figures.server_errors or figures.refused:
        raise CommandError(f"drill {name} failed: {figures.first_failure}")
    if stored.count() != len(figures.keys) or twice:
        raise CommandError(f"drill {name} failed: deals sent and stored differ")
    return figures


def drill(report: Callable[[str], None], *, url: str) -> None:
    """Raises ``CommandError`` when a drill fails; ``report`` each one passed."""
    base = url.rstrip("/")
    slug = f"drill-{int(time.time())}"
    club, _user, players = scorer_club(players=PHONES * len(SEATS), slug=slug)
    tournament = night(club, players, rounds=1)
    scoring.round_draw(tournament, 1, seed=1)
    poules = list(tournament.poules.order_by("table"))
    phones = []
    for n, poule in enumerate(poules[:PHONES]):
        player = players[n]
        user = player.user
        if user is None:
            user = get_user_model().objects.create_user(f"marqueur-{slug}-{n}")
            Player.objects.filter(pk=player.pk).update(user=user)
            Membership.objects.filter(player=player).update(role=Membership.Role.SCORER)
        user.set_password(PASSWORD)
        user.save()
        sheet = reverse(
            "games:sheet", kwargs={"slug": slug, "pk": tournament.pk, "poule_pk": poule.pk}
        )
        phones.append(Phone(base, user.get_username(), sheet, poule, seed=n))
    logins = Figures()
    for phone in phones:
        phone.log_in(logins)
    _outage(report, "PostgreSQL", phones, postgresql_dropped)
    report("ok  PostgreSQL connections dropped busy and idle: no 5xx, each deal once")
    _outage(report, "Redis", phones, redis_dropped)
    report("ok  Redis clients dropped busy and idle: no 5xx, each deal once")
