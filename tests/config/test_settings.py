"""Every cookie the site sets, under the production settings (DEBUG off, as the environment
makes them): ``Secure``, ``SameSite=Lax`` at least, ``HttpOnly`` unless a script reads it (the
score sheet reads the CSRF token from its cookie, static/js/sheet.js)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from http.cookies import Morsel
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
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
