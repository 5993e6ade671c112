"""``manage.py bench sheet|pages|engine|load|smoke`` each run on a tiny size and print what they
measured; the engine's benchmark runs with no Django at all. No time is ever asserted."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]
NUMBER = r"\d+(?:\.\d+)?"


def bench(*args: str) -> str:
    out = io.StringIO()
    call_command("bench", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_bench_sheet_records_every_deal_of_the_night_and_prints_times_and_queries():
    output = bench("sheet", "--players", "8", "--rounds", "1")

    recorded = re.search(r"deals recorded through the sheet view: (\d+)", output)
    # Two tables of four, each until its counted deals: at least 2 × 12 posts.
    assert recorded and int(recorded[1]) >= 24
    assert re.search(
        rf"server time per deal: p50 {NUMBER} ms, p95 {NUMBER} ms, max {NUMBER} ms", output
    )
    queries = re.search(r"queries per deal: min (\d+), max (\d+)", output)
    assert queries and 1 <= int(queries[1]) <= int(queries[2])


@pytest.mark.django_db(transaction=True)
def test_bench_pages_prints_each_page_with_its_queries():
    output = bench("pages", "--seasons", "2", "--nights", "2", "--players", "8", "--requests", "3")

    assert "generated 2 seasons × 2 nights × 8 players (4 nights" in output
    for page in (
        "current ranking",
        "past season ranking",
        "ranking archive",
        "player page",
        "player page, oldest season",
    ):
        row = re.search(
            rf"^{page} +p50 +({NUMBER}) ms +p95 +({NUMBER}) ms +max +{NUMBER} ms +(\d+) queries",
            output,
            re.MULTILINE,
        )
        assert row, page
        assert float(row[1]) <= float(row[2]) and int(row[3]) >= 1, row[0]


def engine_lines(output: str) -> None:
    assert re.search(r"score_deal +[\d ]+ deals/s", output)
    assert re.search(r"bare loop +[\d ]+ deals/s", output)
    assert re.search(rf"ratio: score_deal takes {NUMBER}× the time of the bare loop", output)
    assert "(c) season ranking: 1 club nights × 40 players" in output
    assert re.search(r"from tournament results \(season_ranking\) +\d+\.\d{4} s", output)


def test_bench_engine_needs_no_database():
    # No django_db mark: any query would fail the test.
    engine_lines(bench("engine", "--deals", "300", "--repeats", "1", "--nights", "1"))


def test_the_engine_benchmark_runs_without_django():
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO")}
    code = (
        "import sys, benchmarks.engine as engine; engine.main(sys.argv[1:]);"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'club', 'games')]"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--deals", "300", "--repeats", "1", "--nights", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    engine_lines(done.stdout)


class _Site(BaseHTTPRequestHandler):
    """200 at /ok, 404 elsewhere."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        body = b"ok"
        self.send_response(200 if self.path == "/ok" else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def local_site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_bench_load_prints_rate_latency_and_errors_per_address(local_site):
    output = bench(
        "load", "--url", local_site, "--path", "/ok", "--path", "/missing", "-c", "2", "-d", "0.5"
    )

    assert output.startswith(f"2 clients, 0.5 s, {local_site}\n")
    rows = {}
    for line in output.splitlines()[2:]:
        address, rate, p50, p95, p99, errors = line.split()
        assert float(rate) > 0 and float(p50) <= float(p95) <= float(p99), line
        rows[address] = int(errors)
    assert rows["/ok"] == 0
    assert rows["/missing"] > 0  # every 404 counted as an error
    assert rows["all"] == rows["/missing"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--url", "http://example.org"], "only http://127.0.0.1"),
        (["--url", "http://127.0.0.1:9", "-d", "121"], "--duration must be between"),
        (["--url", "http://127.0.0.1:9", "-c", "0"], "--concurrency must be between"),
    ],
)
def test_bench_load_refuses_another_site_and_unbounded_runs(options, message):
    with pytest.raises(CommandError, match=message):
        bench("load", *options, "--path", "/")


@pytest.mark.django_db(transaction=True)
def test_bench_smoke_plays_a_night_over_http_against_a_running_site(live_server, settings):
    """Tasks run in the site's process here (no broker): the ranking and the e-mails are
    there once the night is closed. Plain HTTP, as in the production stage: cookies travel
    without TLS."""
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    output = bench("smoke", live_server.url, "--timeout", "20")

    for check in (
        "ok  login page 200",
        "ok  static file 200",
        "ok  logged in",
        "ok  deal recorded at table 1",
        "ok  deal recorded at table 2",
        "ok  night is closed",
        "ok  ranking computed by the worker",
        "ok  8 result e-mails sent once by the worker",
    ):
        assert check in output
    assert re.search(r"ok  /healthz green", output)
    assert len(mail.outbox) == 8


@pytest.mark.django_db(transaction=True)
def test_bench_smoke_fails_when_the_site_does_not_answer():
    with pytest.raises(CommandError, match="smoke test failed: login page 200"):
        bench("smoke", "http://127.0.0.1:9", "--timeout", "1")
