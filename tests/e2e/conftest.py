"""Real-browser tests: Playwright for Python driving Debian's chromium (no browser download:
the binary comes from the system package, as `.ci/run` installs it)."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.test.testcases import LiveServerThread
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, sync_playwright

# Playwright's sync API runs an event loop in the test's thread; the test still reads the
# database between browser steps, which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
# A phone: what a scorer holds at the table.
PHONE = {"width": 360, "height": 740}


def page_width(page: Page) -> int:
    """The page's whole width once its style sheets have loaded: read as soon as the rows are
    in the DOM, an unstyled table can still be wider than the phone (CI once read 500 px)."""
    page.wait_for_load_state()
    return page.evaluate("document.documentElement.scrollWidth")


# What chromium writes on the console when the Content-Security-Policy refuses something (an
# inline script, event handler or style, a file from elsewhere).
CSP_REFUSAL = re.compile(r"Content Security Policy|Refused to")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"chromium not found at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser: object) -> Iterator[Callable[..., BrowserContext]]:
    """Opens the test's browser contexts. Every page of them is watched: the test fails if the
    Content-Security-Policy refused anything the site sent."""
    contexts: list[BrowserContext] = []
    refusals: list[str] = []

    def watch(page: Page) -> None:
        def on_console(message: ConsoleMessage) -> None:
            if CSP_REFUSAL.search(message.text):
                refusals.append(f"{page.url}: {message.text}")

        page.on("console", on_console)

    def open_context(**options: object) -> BrowserContext:
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        context.on("page", watch)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()
    if refusals:
        pytest.fail("The browser refused what the site sent:\n" + "\n".join(refusals))


@pytest.fixture
def phone(new_context: Callable[..., BrowserContext]) -> Page:
    """A page in a fresh phone-sized browser context, French first."""
    context = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    return context.new_page()


@pytest.fixture
def one_request_at_a_time_on_sqlite(live_server: object) -> Iterator[None]:
    """Requests served one after the other when the tests run on SQLite. Its test database
    lives in memory, so the live server's request threads share one connection and one
    transaction: two writes at once interleave their statements there, which no site ever
    does (PostgreSQL's row locks serialise them, as SQLite's file lock does in a real
    install). The browser still sends at once; the server answers in turn."""
    if connection.vendor != "sqlite":
        yield
        return
    server = live_server.thread.httpd  # type: ignore[attr-defined]
    app, turn = server.get_app(), threading.Lock()

    def in_turn(environ: dict, start_response: Callable) -> object:
        with turn:
            return app(environ, start_response)

    server.set_app(in_turn)
    yield
    server.set_app(app)


@pytest.fixture
def production_server(production_static: Path) -> Iterator[SimpleNamespace]:
    """A server of the site as deployed: DEBUG off, the static files collected under hashed
    names and served by whitenoise from the site's own WSGI application (what gunicorn runs),
    not by the development handler of ``live_server`` (which finds every file in static/,
    hashed or not). Its ``url`` as ``live_server``'s.

    Run on SQLite only: CI runs the suite twice (SQLite, then PostgreSQL), and what this
    server checks is the static files, the same on both; the browser test runs once."""
    if os.environ.get("DATABASE_URL"):
        pytest.skip("the production-mode browser test runs on the SQLite pass only")
    thread = LiveServerThread(
        "localhost", static_handler=lambda development_handler: get_wsgi_application()
    )
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    yield SimpleNamespace(url=f"http://localhost:{thread.port}", thread=thread)
    thread.terminate()
