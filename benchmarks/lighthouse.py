"""``manage.py bench lighthouse``: Lighthouse (mobile, its default throttling) on eight pages of
the demo, served as production serves them.

A throw-away site in a temporary folder: an SQLite file with the demo club
(``manage.py demo_club``), DEBUG off and a secret key of this run, ``collectstatic`` into its
own STATIC_ROOT (whitenoise's compressed, hashed files), gunicorn with ``deploy/gunicorn.conf.py``
on a free port. The demo's admin logs in for the pages that need it (the score sheet of a
night started for the run, Mes résultats): Lighthouse gets his session cookie as an extra
header. Each page is run ``--runs`` times (3) and each figure's median kept: the performance
score and the blocking time follow the machine's load (printed beside the table); layout
shift and the other categories' audits do not.

Lighthouse is pinned (``VERSION``, which runs on Debian's Node) and installed with npm into a
cache folder the first time, unless ``--lighthouse`` names one. Nothing here is run by the tests
or by CI: a run takes minutes.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from .figures import block_rewritten

VERSION = "12.2.3"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "clubwhist"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# The goals (#44): scores out of 100, layout shift, blocking time in ms.
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
MAX_CLS = 0.05
MAX_TBT = 150.0
START = "<!-- bench lighthouse: the table of one run, written by manage.py bench lighthouse -->"
END = "<!-- bench lighthouse: end -->"
# What the site's own settings must not take from the shell that runs the bench: the club's
# database, cache, broker and mail server, a developer's DEBUG.
LEFT_OUT = (
    "DATABASE_URL",
    "CACHE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "EMAIL_HOST",
    "DJANGO_DEBUG",
    "DJANGO_SECURE_SSL_REDIRECT",
)


@dataclass
class Page:
    """One page's runs: each figure as Lighthouse measured it, run after run."""

    name: str
    path: str
    login: bool = False
    scores: dict[str, list[float]] = field(default_factory=dict)
    cls: list[float] = field(default_factory=list)
    tbt: list[float] = field(default_factory=list)
    # The audits that keep a category under 100 (or performance under 90), in the last run.
    failing: list[str] = field(default_factory=list)

    def add(self, report: dict[str, Any]) -> None:
        for category in CATEGORIES:
            score = report["categories"][category]["score"]
            self.scores.setdefault(category, []).append(round(100 * (score or 0)))
        audits = report["audits"]
        self.cls.append(audits["cumulative-layout-shift"]["numericValue"])
        self.tbt.append(audits["total-blocking-time"]["numericValue"])
        self.failing = failing_audits(report)

    def score(self, category: str) -> float:
        return statistics.median(self.scores.get(category) or [0])

    def misses(self) -> list[str]:
        """The goals this page's medians miss, in words."""
        missed = [
            f"{category} {self.score(category):g} < {goal}"
            for category, goal in GOALS.items()
            if self.score(category) < goal
        ]
        if statistics.median(self.cls or [0]) > MAX_CLS:
            missed.append(f"CLS {statistics.median(self.cls):.3f} > {MAX_CLS}")
        if statistics.median(self.tbt or [0]) > MAX_TBT:
            missed.append(f"TBT {statistics.median(self.tbt):.0f} ms > {MAX_TBT:.0f} ms")
        return missed


def failing_audits(report: dict[str, Any]) -> list[str]:
    """``category: audit-id`` of each weighed audit short of full marks (performance: of
    0.9, Lighthouse's own pass mark), so a gap names the audit that holds it."""
    found = []
    for category in CATEGORIES:
        bar = 0.9 if category == "performance" else 1
        for ref in report["categories"][category]["auditRefs"]:
            score = report["audits"][ref["id"]].get("score")
            if ref.get("weight") and score is not None and score < bar:
                found.append(f"{category}: {ref['id']}")
    return found


def table(pages: Sequence[Page]) -> list[str]:
    """The Markdown table: each figure the median of the page's runs."""
    lines = [
        "| page | performance | accessibility | best practices | SEO | CLS | TBT ms |",
        "|---|--:|--:|--:|--:|--:|--:|",
    ]
    for page in pages:
        scores = " | ".join(f"{page.score(category):g}" for category in CATEGORIES)
        cls = statistics.median(page.cls or [0])
        tbt = statistics.median(page.tbt or [0])
        lines.append(f"| {page.name} | {scores} | {cls:.3f} | {tbt:.0f} |")
    return lines


def conditions(runs: int, load: Sequence[float], when: datetime.date) -> str:
    return (
        f"One run on {when.isoformat()}: Lighthouse {VERSION}, mobile (its default throttling, "
        f"CPU ×4), the median of {runs} runs a page; {os.cpu_count()} cores, load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} when it started."
    )


# --------------------------------------------------------------------------------------------
# The tools


def chromium() -> str:
    found = os.environ.get("CHROME_PATH") or next(
        (
            path
            for name in ("chromium", "chromium-browser", "google-chrome")
            if (path := shutil.which(name))
        ),
        None,
    )
    if not found:
        raise CommandError(
            "Chromium is not installed (Lighthouse drives it): apt-get install chromium, or "
            "set CHROME_PATH to a Chrome or Chromium."
        )
    return found


def lighthouse_binary(given: str | None, report: Callable[[str], None]) -> str:
    """The Lighthouse to run: ``given``, or ``VERSION`` installed by npm into the cache."""
    if not shutil.which("node"):
        raise CommandError(
            "Node.js is not installed (Lighthouse runs on it): apt-get install nodejs npm."
        )
    if given:
        return given
    folder = CACHE / f"lighthouse-{VERSION}"
    binary = folder / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        if not shutil.which("npm"):
            raise CommandError(f"npm is not installed: it installs Lighthouse {VERSION}.")
        report(f"installing Lighthouse {VERSION} into {folder}")
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(folder), f"lighthouse@{VERSION}"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return str(binary)


# --------------------------------------------------------------------------------------------
# The site


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def site_environment(folder: Path, port: int) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in LEFT_OUT}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_STATIC_ROOT=str(folder / "static"),
        DJANGO_MEDIA_ROOT=str(folder / "media"),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        SITE_URL=f"http://127.0.0.1:{port}",
        # Two processes of four threads: the machine's cores, Lighthouse's one page at a time.
        WEB_WORKERS="2",
        WEB_THREADS="4",
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise CommandError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "deploy/gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "config.wsgi",
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            status, _, _ = ask(port, "GET", "/healthz")
            if status:
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise CommandError("gunicorn did not answer within 60 s")


def ask(
    port: int, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
) -> tuple[int, str, list[str]]:
    """One request, redirects not followed: status, body, its Set-Cookie headers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        return response.status, text, response.headers.get_all("Set-Cookie") or []
    finally:
        connection.close()


def session_cookie(port: int, username: str, password: str) -> str:
    """Logs in through the login form, as a member's browser does: its ``Cookie`` header."""
    status, page, cookies = ask(port, "GET", "/compte/login/")
    jar = SimpleCookie()
    for line in cookies:
        jar.load(line)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or token is None or "csrftoken" not in jar:
        raise CommandError(f"the login page answered {status} without its form")
    body = f"csrfmiddlewaretoken={token.group(1)}&username={username}&password={password}"
    status, _, cookies = ask(
        port,
        "POST",
        "/compte/login/",
        body,
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={jar['csrftoken'].value}",
        },
    )
    for line in cookies:
        jar.load(line)
    if status != 302 or "sessionid" not in jar:
        raise CommandError(f"the demo's admin could not log in (answer {status})")
    return f"csrftoken={jar['csrftoken'].value}; sessionid={jar['sessionid'].value}"


# --------------------------------------------------------------------------------------------
# The run


def measured(
    binary: str, url: str, out: Path, headers: Path | None, env: dict[str, str]
) -> dict[str, Any]:
    command = [
        binary,
        url,
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--throttling.cpuSlowdownMultiplier=4",
        "--chrome-flags=--headless=new --no-sandbox",
        "--quiet",
    ]
    if headers:
        command.append(f"--extra-headers={headers}")
    # A trace Lighthouse sometimes fails to record on a loaded machine (NO_NAVSTART): asked
    # again, as its message says, up to three times.
    for _ in range(3):
        out.unlink(missing_ok=True)
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if not done.returncode and out.exists():
            return json.loads(out.read_text(encoding="utf-8"))
    raise CommandError(f"Lighthouse failed on {url}:\n{done.stderr[-2000:]}")


def lighthouse(
    report: Callable[[str], None],
    *,
    runs: int = 3,
    only: Sequence[str] = (),
    binary: str | None = None,
    reports: str | None = None,
    figures: bool = False,
) -> list[Page]:
    browser = chromium()
    binary = lighthouse_binary(binary, report)
    # Stopped (kill PID): gunicorn and the Lighthouse running are stopped too, and the
    # temporary folder removed, as after an interrupt.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as temp:
        folder = Path(temp)
        port = free_port()
        env = site_environment(folder, port)
        report("the demo site: migrate, demo_club, collectstatic")
        manage(env, "migrate", "--noinput")
        manage(env, "demo_club")
        manage(env, "collectstatic", "--noinput")
        demo = json.loads(
            manage(env, "shell", "-c", "from benchmarks import lighthouse_pages as p; p.main()")
            .strip()
            .splitlines()[-1]
        )
        pages = [Page(**found) for found in demo["pages"]]
        if only:
            pages = [page for page in pages if page.name in only]
        server = serve(env, port)
        try:
            headers = folder / "cookie.json"
            cookie = session_cookie(port, demo["username"], demo["password"])
            headers.write_text(json.dumps({"Cookie": cookie}), encoding="utf-8")
            for page in pages:
                for run in range(runs):
                    out = folder / f"report-{run}.json"
                    result = measured(
                        binary,
                        f"http://127.0.0.1:{port}{page.path}",
                        out,
                        headers if page.login else None,
                        {**os.environ, "CHROME_PATH": browser},
                    )
                    page.add(result)
                    if reports:
                        slug = re.sub(r"\W+", "-", page.name).strip("-")
                        Path(reports).mkdir(parents=True, exist_ok=True)
                        shutil.copy(out, Path(reports) / f"{slug}-{run + 1}.json")
                report(f"{page.name}: {', '.join(page.misses()) or 'every goal'}")
        finally:
            server.terminate()
            server.wait(timeout=30)
    lines = [conditions(runs, load, datetime.date.today()), "", *table(pages)]
    for line in lines:
        report(line)
    for page in pages:
        if page.failing:
            report(f"{page.name}, audits short of full marks: {'; '.join(page.failing)}")
    if figures:
        path = Path(settings.BASE_DIR) / "docs" / "benchmarks.md"
        block_rewritten(path, START, END, [START, *lines, END])
        report(f"table written into {path.name}")
    return pages
