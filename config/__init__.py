"""The site package: settings, the root URLconf, the Celery app, the WSGI/ASGI entry points
and what the site adds to every page (middleware, context processors). Nothing of the apps
imports it; Django reaches it through ``DJANGO_SETTINGS_MODULE``, ``manage.py`` and the
servers' ``config.wsgi`` / ``celery -A config``."""

# Celery's app is loaded with Django so that shared tasks bind to it.
from .celery import app as celery_app

__all__ = ("celery_app",)
