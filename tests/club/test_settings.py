"""The settings come from the environment, and a production site without a secret refuses
to start."""

import json
import os
import subprocess
import sys
from pathlib import Path

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
