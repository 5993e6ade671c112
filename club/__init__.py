# Celery's app is loaded with Django so that shared tasks bind to it.
from .celery import app as celery_app

__all__ = ("celery_app",)
