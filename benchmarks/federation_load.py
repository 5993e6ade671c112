"""A federation's Thursday: ``scorers`` phones recording deals at once across its clubs,
against a real server (gunicorn, DEBUG off, static files collected) on this machine's
throw-away PostgreSQL database.

One night a club, round 1 drawn, one scorer (an account with the scorer's role) a table. Each
scorer posts his table's deals to the score sheet one after the other, as the phone does (an
htmx POST of the deal form with its key and the CSRF token); all scorers start together.
Every answer must be the sheet with the deal recorded (200, no refusal), and every table must
hold its deals afterwards: anything else is an error. Bounded: at most ``MAX_SECONDS``.

Beside the p95, the physical limit: the workers' CPU time a deal (read from /proc before and
after the burst, divided by the deals) × the scorers ÷ the cores the workers can use
(min(workers, the machine's cores)). No server answers the last of deals sent at once sooner.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Membership, Player
from games import services
from games.dealforms import deal_post
from games.demo import random_deal
from games.models import Deal, Poule
from scoring.engine.games.belgian_whist import counts_toward_poule
from scoring.services import round_draw

from .federation_data import DEALS, ROSTER, SEATS, TABLE
from .load import Tally, session_cookie
from .report import percentile

MAX_SECONDS = 240
DEALS_EACH = 6  # half a poule each: 1 200 deals for 200 scorers
# The server the club runs: its workers, threads and connections are deploy/gunicorn.conf.py's.
GUNICORN_CONF = Path(settings.BASE_DIR) / "deploy" / "gunicorn.conf.py"
WORKERS = 4  # as deploy/gunicorn.conf.py's default
CSRF = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))


@dataclass
class ScorersTally(Tally):
    first_failure: str = ""  # the head of the first answer that was not a recorded deal


@dataclass
class Scorer:
    path: str
    poule: int
    headers: str
    bodies: list[bytes]


def scorers_ready(
    clubs: list[Club], scorers: int, seed: int, deals_each: int = DEALS_EACH
) -> list[Scorer]:
    """Tonight's night at as many clubs as needed, a table for each scorer, his deals ready."""
    rng = random.Random(seed)
    tables = min(ROSTER // TABLE, math.ceil(scorers / len(clubs)))
    today = timezone.localdate()
    ready: list[Scorer] = []
    for club in clubs:
        if len(ready) >= scorers:
            break
        players = list(Player.objects.filter(memberships__club=club).order_by("pk")[: 4 * tables])
        night = services.tournament_create(
            club=club,
            season=club_services.season_for_date(club, today),
            date=today,
            name="Soirée de la charge",
            game="belgian_whist",
            point_table=services.point_table_for_preset("rcwhist"),
            rounds=1,
        )
        services.presence_set(night, players)
        round_draw(night, 1, seed=seed)
        for poule in night.poules.order_by("table")[: scorers - len(ready)]:
            ready.append(_scorer(club, night.pk, poule, rng, deals_each))
    return ready


def _scorer(club: Club, night: int, poule: Poule, rng: random.Random, deals_each: int) -> Scorer:
    username = f"marqueur-{club.slug}-{poule.table}"
    user = get_user_model()(username=username)
    user.set_unusable_password()  # no password hashed: the session is made here
    user.save()
    player = Player.objects.create(display_name=f"Marqueur {poule.table}", user=user)
    Membership.objects.create(
        club=club, player=player, start=timezone.localdate(), role=Membership.Role.SCORER
    )
    bodies, counted = [], 0
    while counted < DEALS and len(bodies) < deals_each:
        deal = random_deal(rng, SEATS)
        form = {**deal_post(poule, deal), "client_key": str(uuid.uuid4())}
        bodies.append(urllib.parse.urlencode(form, doseq=True).encode())
        counted += counts_toward_poule(deal["contract"])
    headers = (
        f"Cookie: {session_cookie(username)}; csrftoken={CSRF}\r\n"
        f"X-CSRFToken: {CSRF}\r\nHX-Request: true\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
    )
    path = reverse("games:sheet", kwargs={"slug": club.slug, "pk": night, "poule_pk": poule.pk})
    return Scorer(path, poule.pk, headers, bodies)


async def _post_all(port: int, scorer: Scorer, tally: ScorersTally, until: float) -> None:
    for body in scorer.bodies:
        if time.monotonic() > until:
            tally.errors += 1  # not sent in time: a deal the table never got
            continue
        request = (
            f"POST {scorer.path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{scorer.headers}"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode() + body
        start = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 30)
            writer.close()
        except (TimeoutError, OSError):
            tally.errors += 1
            continue
        tally.latencies.append((time.perf_counter() - start) * 1000)
        status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
        tally.statuses[status] += 1
        if status != 200 or b"dealform-errors" in answer:
            tally.errors += 1
            if not tally.first_failure:  # what the first refusal said, for the report
                tally.first_failure = answer[:300].decode("latin-1").split("\r\n\r\n")[0]


async def _all_at_once(port: int, scorers: list[Scorer]) -> ScorersTally:
    tally = ScorersTally()
    until = time.monotonic() + MAX_SECONDS
    await asyncio.gather(*(_post_all(port, scorer, tally, until) for scorer in scorers))
    return tally


def _database_url() -> str:
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "")
    password = f":{urllib.parse.quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cores_of(workers: int) -> int:
    """The cores the workers can use at once: no more than the machine has."""
    return max(1, min(workers, os.cpu_count() or 1))


def workers_cpu_seconds(server: int) -> float:
    """The CPU time (user and system) the server's workers have used so far: the processes
    whose parent is the gunicorn master ``server`` (Linux's /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # a process gone meanwhile
            continue
        # After the command's name in parentheses: state, parent, … utime (14th), stime (15th).
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[1]) == server:
            used += int(fields[11]) + int(fields[12])
    return used / tick


def physical_limit_ms(cpu_per_deal_ms: float, scorers: int, workers: int) -> float:
    """The p95 no server could beat: every scorer's deal waits for the CPU time of the deals
    sent at the same moment, shared among the cores the workers have."""
    return cpu_per_deal_ms * scorers / cores_of(workers)


@contextmanager
def gunicorn_server(
    report: Callable[[str], None], workers: int = WORKERS
) -> Iterator[tuple[int, int]]:
    """gunicorn on 127.0.0.1 serving this throw-away database, stopped (by its own process id)
    on the way out; yields its port and its master's process id."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as work:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            # This process's key: the scorers' sessions were signed with it.
            "DJANGO_SECRET_KEY": settings.SECRET_KEY,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_STATIC_ROOT": str(Path(work) / "static"),
            "DJANGO_SECURE_COOKIES": "0",
        }
        for name in ("DJANGO_DEBUG", "CELERY_BROKER_URL"):
            env.pop(name, None)
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        subprocess.run(
            [sys.executable, manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True
        )
        log = open(Path(work) / "gunicorn.log", "w")  # closed in the finally below
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "-c",
                str(GUNICORN_CONF),
                "config.wsgi",
                "-w",
                str(workers),
                "-b",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=settings.BASE_DIR,
            stdout=log,
            stderr=log,
        )
        try:
            _wait_for(port, server)
            report(
                f"gunicorn ({GUNICORN_CONF.name}): {workers} workers on 127.0.0.1:{port}, DEBUG off"
            )
            yield port, server.pid
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
            errors = (Path(work) / "gunicorn.log").read_text()[-2000:]
            if "Traceback" in errors:
                report("gunicorn's log ends with:\n" + errors)


def _wait_for(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn stopped at start (see its log)")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(
                    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                )
                if probe.recv(12).startswith(b"HTTP/"):
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("gunicorn did not answer within 60 s")


def scorers_load(
    report: Callable[[str], None],
    clubs: list[Club],
    scorers: int,
    seed: int,
    deals_each: int = DEALS_EACH,
) -> dict[str, float]:
    """The load test: its numbers, printed and returned."""
    ready = scorers_ready(clubs, scorers, seed, deals_each)
    sent = sum(len(s.bodies) for s in ready)
    with gunicorn_server(report) as (port, server):
        cpu_before = workers_cpu_seconds(server)
        start = time.perf_counter()
        tally = asyncio.run(_all_at_once(port, ready))
        seconds = time.perf_counter() - start
        cpu_per_deal = (workers_cpu_seconds(server) - cpu_before) * 1000 / max(1, sent)
    stored = dict(
        Deal.objects.filter(poule__in=[s.poule for s in ready])
        .values_list("poule")
        .annotate(n=Count("pk"))
    )
    short = sum(1 for s in ready if stored.get(s.poule, 0) != len(s.bodies))
    latencies = tally.latencies
    result = {
        "scorers": len(ready),
        "deals": sent,
        "seconds": seconds,
        "errors": tally.errors + short,
        "p50_ms": statistics.median(latencies) if latencies else 0.0,
        "p95_ms": percentile(latencies, 0.95),
        "max_ms": max(latencies, default=0.0),
        "cpu_per_deal_ms": cpu_per_deal,
        "limit_ms": physical_limit_ms(cpu_per_deal, len(ready), WORKERS),
    }
    report(
        f"load: {len(ready)} scorers at {len({s.path.split('/')[2] for s in ready})} clubs "
        f"recording {sent} deals at once in {seconds:.1f} s ({sent / seconds:.1f} deals/s): "
        f"p50 {result['p50_ms']:.0f} ms, p95 {result['p95_ms']:.0f} ms, "
        f"max {result['max_ms']:.0f} ms; errors {result['errors']} "
        f"(statuses {dict(sorted(tally.statuses.items()))}, tables short of deals {short})"
    )
    report(
        f"  physical limit: {cpu_per_deal:.1f} ms of the workers' CPU a deal × {len(ready)} "
        f"scorers ÷ {cores_of(WORKERS)} cores = {result['limit_ms']:.0f} ms; p95 "
        f"{result['p95_ms']:.0f} ms = {result['p95_ms'] / max(result['limit_ms'], 1):.2f}× it "
        f"(goal ≤ 2×)"
    )
    if tally.first_failure:
        report(f"  the first answer refused: {tally.first_failure}")
    return result
