"""``manage.py bench load`` — how many requests a second a running site answers, and how fast.

Clients on 127.0.0.1 only (never someone else's server), for a bounded time (at most 120 s):
each of ``--concurrency`` clients asks the ``--path`` addresses in turn, one request after the
other, over HTTP/1.1 (keeping the connection when the server does; gunicorn's sync workers
close it after each answer). Prints requests/s, latency p50/p95/p99 and errors (a status
other than 200 or 304, or a broken connection) for each address and in all.

``--as USERNAME`` signs the clients in as that account (a session made in this database, which
must be the site's), for the pages only members see (the room screen)::

    manage.py bench load --url http://127.0.0.1:8765 --path /clubs/rcwhist/classement/ -d 30
"""

from __future__ import annotations

import asyncio
import statistics
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import CommandError

from .report import percentile

MAX_SECONDS = 120
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """The status of one response, read to its end; and whether the connection stays open."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip().lower()
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif status not in (204, 304):
        await reader.read()
        return status, False
    return status, headers.get("connection") != "close"


async def _client(
    host: str, port: int, paths: list[str], cookie: str, until: float, tallies: dict[str, Tally]
) -> None:
    reader = writer = None
    turn = 0
    while time.monotonic() < until:
        path = paths[turn % len(paths)]
        turn += 1
        request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/html\r\n"
        if cookie:
            request += f"Cookie: {cookie}\r\n"
        request += "\r\n"
        start = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port)
            writer.write(request.encode())
            await writer.drain()
            status, keep = await asyncio.wait_for(_read_response(reader), 30)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            tallies[path].errors += 1
            if writer is not None:
                writer.close()
            reader = writer = None
            continue
        tallies[path].latencies.append((time.perf_counter() - start) * 1000)
        tallies[path].statuses[status] += 1
        if status not in (200, 304):
            tallies[path].errors += 1
        if not keep:
            writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()


async def run(
    host: str, port: int, paths: list[str], cookie: str, concurrency: int, seconds: float
) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {path: Tally() for path in paths}
    until = time.monotonic() + seconds
    # Each client starts on another address, so that all are asked at once.
    await asyncio.gather(
        *(
            _client(
                host,
                port,
                paths[n % len(paths) :] + paths[: n % len(paths)],
                cookie,
                until,
                tallies,
            )
            for n in range(concurrency)
        )
    )
    return tallies


def session_cookie(username: str) -> str:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"no account {username!r}")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def load(
    report: Callable[[str], None],
    *,
    url: str,
    paths: list[str],
    concurrency: int = 16,
    duration: float = 30.0,
    username: str | None = None,
) -> dict[str, Tally]:
    """Load the site at ``url`` (this machine's only) and ``report`` a line per address."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http" or parts.hostname not in LOCAL_HOSTS:
        raise CommandError("only http://127.0.0.1 (this machine's own site) may be loaded")
    if not 0 < duration <= MAX_SECONDS:
        raise CommandError(f"--duration must be between 0 and {MAX_SECONDS} seconds")
    if not 1 <= concurrency <= 256:
        raise CommandError("--concurrency must be between 1 and 256")
    cookie = session_cookie(username) if username else ""
    # A thread and an event loop of their own: the caller's thread may be running a loop.
    with ThreadPoolExecutor(1) as pool:
        tallies = pool.submit(
            lambda: asyncio.run(
                run("127.0.0.1", parts.port or 80, paths, cookie, concurrency, duration)
            )
        ).result()
    report(
        f"{concurrency} clients, {duration:g} s, {url}\n"
        f"{'address':48} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}"
    )
    everything = Tally()
    for address, tally in tallies.items():
        everything.latencies += tally.latencies
        everything.errors += tally.errors
        report(_line(address, tally, duration))
    if len(tallies) > 1:
        report(_line("all", everything, duration))
    return tallies


def _line(address: str, tally: Tally, duration: float) -> str:
    latencies = tally.latencies
    return (
        f"{address[:48]:48} {len(latencies) / duration:8.1f} "
        f"{statistics.median(latencies) if latencies else 0:8.1f} "
        f"{percentile(latencies, 0.95):8.1f} {percentile(latencies, 0.99):8.1f} "
        f"{tally.errors:7d}"
    )
