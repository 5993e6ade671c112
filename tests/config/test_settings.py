"""The settings come from the environment, and a production site without a secret refuses
to start."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from http.cookies import Morsel
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from scoring.services import ranking_publish
from tests.factories import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
SETUP = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup()"
)


def run_with(environment, code=SETUP):
    """Run ``code`` in a fresh interpreter with only ``environment`` (and PATH) set."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_production_site_without_a_secret_key_fails_loudly():
    result = run_with({})

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_a_production_site_with_an_empty_secret_key_fails_loudly():
    result = run_with({"DJANGO_SECRET_KEY": "", "DJANGO_DEBUG": "off"})

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_a_development_site_starts_without_a_secret_key():
    result = run_with({"DJANGO_DEBUG": "1"})

    assert result.returncode == 0, result.stderr


def print_databases():
    return SETUP + (
        "; from django.conf import settings; import json; "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )


def test_a_database_url_selects_postgresql():
    result = run_with(
        {
            "DJANGO_SECRET_KEY": "a-test-key",
            "DATABASE_URL": "postgres://club:secret@db.example.org:5433/clubwhist",
        },
        print_databases(),
    )

    assert result.returncode == 0, result.stderr
    database = json.loads(result.stdout)
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "clubwhist",
        "club",
        "secret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.example.org", 5433)


def test_without_a_database_url_the_site_uses_sqlite_in_the_project_folder():
    result = run_with({"DJANGO_SECRET_KEY": "a-test-key"}, print_databases())

    assert result.returncode == 0, result.stderr
    database = json.loads(result.stdout)
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(ROOT / "db.sqlite3")


# The site's security headers: a Content-Security-Policy that allows only the site's own
# scripts and styles on every page, templates with nothing inline that it would refuse, and a
# production configuration that passes Django's deployment checks.

TEMPLATES = ROOT / "templates"
# E-mails are read in a mail client, never served by the site: the policy does not apply.
NOT_SERVED = [TEMPLATES / "email"]
# What the policy refuses in a page: (what it is, where it shows in a template).
INLINE = [
    ("an inline <script> (no src)", re.compile(r"<script\b(?![^>]*\bsrc\s*=)[^>]*>", re.I)),
    ("an inline <style> element", re.compile(r"<style\b", re.I)),
    ("an event handler attribute", re.compile(r"\son[a-z]+\s*=", re.I)),
    # htmx reads its attributes with or without the data- prefix (the site writes data-hx-*).
    ("an htmx hx-on attribute (run by eval)", re.compile(r"\s(?:data-)?hx-on[:-]", re.I)),
    ("a style attribute", re.compile(r"\sstyle\s*=", re.I)),
    ("a javascript: URL", re.compile(r"javascript:", re.I)),
]


def policy(response) -> dict[str, list[str]]:
    """The response's Content-Security-Policy, directive by directive."""
    header = response.headers["Content-Security-Policy"]
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


@pytest.fixture
def published_ranking(imported_night):
    ranking_publish(imported_night.season)
    return imported_night.season


@pytest.mark.parametrize("page", ["home", "club-detail", "login", "ranking"])
@pytest.mark.django_db
def test_every_page_allows_only_the_sites_own_scripts_and_styles(
    client, club, published_ranking, page
):
    url = reverse(page, args=[club.slug] if page in {"club-detail", "ranking"} else [])

    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    assert directives["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response.headers["Content-Security-Policy"]


@pytest.mark.django_db
def test_pages_may_not_be_framed_or_sniffed(client, club):
    response = client.get(reverse("club-detail", args=[club.slug]))

    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def served_templates() -> list[Path]:
    return sorted(
        path
        for path in TEMPLATES.rglob("*")
        if path.is_file() and not any(path.is_relative_to(folder) for folder in NOT_SERVED)
    )


def test_the_pages_templates_have_nothing_inline_that_the_policy_refuses():
    found = []
    for path in served_templates():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for what, pattern in INLINE:
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()}")

    assert served_templates(), "no template found"
    assert found == []


def test_a_production_configuration_passes_djangos_deployment_checks():
    production = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "club.example.org",
        "DJANGO_SECURE_SSL_REDIRECT": "1",
        "DJANGO_SECURE_HSTS_SECONDS": "31536000",
        "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
        "DJANGO_SECURE_HSTS_PRELOAD": "1",
        "DJANGO_SECURE_COOKIES": "1",
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def settings_with(environment: dict[str, str]) -> dict[str, object]:
    code = (
        "import django, json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
        "django.setup(); from django.conf import settings as s; print(json.dumps({name: "
        "getattr(s, name) for name in ['SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', "
        "'SECURE_PROXY_SSL_HEADER', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE']}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_developers_laptop_keeps_plain_http():
    assert settings_with({"DJANGO_DEBUG": "1"}) == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_PROXY_SSL_HEADER": None,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


def test_behind_a_proxy_the_site_trusts_its_forwarded_protocol_and_redirects_to_https():
    assert settings_with(
        {
            "DJANGO_SECRET_KEY": "a-test-key",
            "DJANGO_SECURE_PROXY_SSL_HEADER": "1",
            "DJANGO_SECURE_SSL_REDIRECT": "1",
            "DJANGO_SECURE_COOKIES": "0",
        }
    ) == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        # Redirecting to HTTPS keeps the cookies on HTTPS whatever DJANGO_SECURE_COOKIES says.
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
    }


def test_a_production_site_sends_its_cookies_over_https_only_unless_told_otherwise():
    production = {"DJANGO_SECRET_KEY": "a-test-key"}

    assert settings_with(production)["SESSION_COOKIE_SECURE"] is True
    assert (
        settings_with({**production, "DJANGO_SECURE_COOKIES": "0"})["CSRF_COOKIE_SECURE"] is False
    )


# Every cookie the site sets, under the production settings (DEBUG off, as the environment
# makes them): ``Secure``, ``SameSite=Lax`` at least, ``HttpOnly`` unless a script reads it (the
# score sheet reads the CSRF token from its cookie, static/js/sheet.js).

READ_BY_SCRIPTS = {"csrftoken"}


def production_cookie_settings() -> dict[str, object]:
    """The cookies' settings of a production site: a fresh interpreter with only a secret."""
    code = (
        "import django, json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
        "django.setup(); from django.conf import settings; "
        "print(json.dumps({k: getattr(settings, k) for k in dir(settings) if 'COOKIE' in k}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), "DJANGO_SECRET_KEY": "production-like"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)


@pytest.mark.django_db
def test_every_cookie_of_a_login_a_language_switch_and_a_form_is_secure_and_samesite(member):
    cookies: list[Morsel] = []
    with override_settings(**production_cookie_settings()):
        browser = Client()
        answers = [
            browser.get(reverse("login")),
            browser.post(reverse("login"), {"username": member.username, "password": PASSWORD}),
            browser.post(reverse("set_language"), {"language": "nl", "next": "/"}),
            browser.get(reverse("profile")),
        ]
        for answer in answers:
            cookies.extend(answer.cookies.values())

    names = {cookie.key for cookie in cookies}
    assert {"csrftoken", "sessionid", "django_language"} <= names
    for cookie in cookies:
        assert cookie["secure"] is True, cookie.key
        assert cookie["samesite"] in ("Lax", "Strict"), cookie.key
        assert bool(cookie["httponly"]) is (cookie.key not in READ_BY_SCRIPTS), cookie.key
