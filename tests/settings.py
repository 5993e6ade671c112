"""Test settings: the site's own settings with a throwaway key and fast password hashing."""

import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "photos": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The tests render pages from static/ itself: no collected folder for whitenoise to serve.
MIDDLEWARE = [m for m in MIDDLEWARE if not m.startswith("whitenoise.")]  # noqa: F405
# SQLite tests run on a file, as the site does: threads (four phones saving at once, the live
# server of the browser tests) each open their own connection to it, as web workers would.
# One file per test run, so that two runs on one machine never share it.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"clubwhist-tests-{os.getpid()}.sqlite3")
    }
