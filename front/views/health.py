"""``/healthz`` for a load balancer or monitoring: the database and the broker answer, and the
background work is not piling up (the oldest pending work's age is shown). The cache is shown
("down") but never fails the check: the site serves without it. 200 when all is well, 503
otherwise, with the figures as JSON (no secret, nothing of any club); while the database does
not answer, with ``Retry-After`` too. The database is asked a real query on the request's
connection, checked first (``CONN_HEALTH_CHECKS``): a dropped one is replaced, not reported."""

from __future__ import annotations

from celery import current_app as app
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from front.views.errors import RETRY_AFTER_SECONDS
from infra.cache import FailSafeRedisCache, cache_down_since
from infra.outbox import pending_summary

BROKER_TIMEOUT_SECONDS = 2


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        return f"error: {type(error).__name__}"
    return "ok"


def _cache() -> str:
    """The shared cache: "ok", "down" (the pages are drawn from the database meanwhile: no
    failure), or "in-process" (each worker's own memory)."""
    cache = caches["default"]
    if not isinstance(cache, FailSafeRedisCache):
        return "in-process"
    cache.get("healthz")  # a miss either way; a failure starts (or goes on with) an outage
    return "down" if cache_down_since() is not None else "ok"


def _broker() -> str:
    if app.conf.task_always_eager:
        return "in-process"  # no broker configured: tasks run in the request
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_SECONDS
            )
    except Exception as error:
        return f"error: {type(error).__name__}"
    return "ok"


@never_cache
@require_safe
def healthz(_request: HttpRequest) -> JsonResponse:
    database = _database()
    broker = _broker()
    pending = {"count": None, "oldest_seconds": None}
    backlog_ok = False
    if database == "ok":
        summary = pending_summary()
        age = summary.age_seconds()
        pending = {"count": summary.count, "oldest_seconds": age}
        backlog_ok = age <= settings.HEALTH_PENDING_MAX_AGE
    healthy = database == "ok" and broker in {"ok", "in-process"} and backlog_ok
    response = JsonResponse(
        {
            "status": "ok" if healthy else "error",
            "database": database,
            "broker": broker,
            "cache": _cache(),
            "pending_work": pending,
        },
        status=200 if healthy else 503,
    )
    if database != "ok":  # as every page says meanwhile (config.middleware.DatabaseDropRetried)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
