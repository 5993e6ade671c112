"""Real-browser tests: Playwright for Python driving Debian's chromium (no browser download:
the binary comes from the system package, as `.ci/run` installs it)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import sync_playwright

# Playwright's sync API runs an event loop in the test's thread; the test still reads the
# database between browser steps, which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
# A phone: what a scorer holds at the table.
PHONE = {"width": 360, "height": 740}


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
def phone(browser: object) -> Iterator[object]:
    """A page in a fresh phone-sized browser context, French first."""
    context = browser.new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()
